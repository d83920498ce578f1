// tanh of f16, bf16 and the 8-bit floats is the kernel library's rational
// form (templates/kernels/elements.h tanhRational), computed in f32 and
// rounded to the narrow type. Its f32 result must stay within the 8 ulp the
// reference interpreter allows every generated f32 tanh; through generated
// code, its edges (signed zeros, infinities, NaN, saturation, subnormals)
// must give the correctly rounded value. (The kernel library is compiled
// here by the test's compiler, with or without FMA as its flags say; both
// forms were also scanned over every float: 5.5 ulp with FMA, 6.8 without.)

#include "kernels/kernels.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// The worst distance of tanhRational from tanh over the floats with bits
/// first, first + step, ... below last.
double worstUlps(uint32_t first, uint32_t last, uint32_t step) {
  double worst = 0;
  for (uint64_t bits = first; bits < last; bits += step) {
    float x;
    const auto word = static_cast<uint32_t>(bits);
    std::memcpy(&x, &word, sizeof x);
    worst = std::max(worst, ulpsFrom(kernels::math::tanhRational(x), std::tanh(double(x))));
    worst = std::max(worst, ulpsFrom(kernels::math::tanhRational(-x), -std::tanh(double(x))));
  }
  return worst;
}

} // namespace

TEST_CASE("the narrow types' rational tanh is within 8 f32 ulp of tanh") {
  // Every 97th float up to infinity, and every float of [5, 9.5], where
  // its worst errors are (near 6 without FMA, near 8.5 with).
  const double sparse = worstUlps(0, 0x7f800000u, 97);
  const double dense = worstUlps(0x40a00000u /* 5 */, 0x41180000u /* 9.5 */, 1);
  CAPTURE(sparse);
  CAPTURE(dense);
  CHECK(sparse <= 8);
  CHECK(dense <= 8);
  CHECK(std::max(sparse, dense) > 1); // it is an approximation, not libm's tanh
}

TEST_CASE("generated f16 and bf16 tanh at their edges: signed zeros, infinities, NaN, "
          "saturation, subnormals") {
  const std::string json =
      R"({"format": "shardgen-graph", "version": 1, "name": "t",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "h", "type": "tensor<12xf16>", "sharding": "<@m, [{x}]>"},
               {"name": "b", "type": "tensor<12xbf16>", "sharding": "<@m, [{x}]>"}],
    "ops": [{"op": "tanh", "operands": ["h"], "result": "th"},
            {"op": "tanh", "operands": ["b"], "result": "tb"}],
    "outputs": [{"value": "th"}, {"value": "tb"}]})";
  Graph graph = loadVerified(json);
  const double inf = INFINITY;
  const std::vector<double> edges = {
      0.0,   -0.0, inf, -inf, NAN, 9.0, -9.5, 20, 0.5, -3.0, 0x1p-24 /* the least f16 subnormal */,
      -1e-39};
  std::vector<Literal> inputs;
  for (ElementType type : {ElementType::F16, ElementType::BF16}) {
    Literal input(TensorType{type, {12}});
    for (size_t i = 0; i < edges.size(); ++i)
      input.setFloat(static_cast<int64_t>(i), edges[i]);
    inputs.push_back(std::move(input));
  }
  std::string source;
  const std::vector<Literal> out = runCompiled(graph, inputs, &source);
  CHECK(source.find("OpNarrowTanh") != std::string::npos);
  for (size_t o = 0; o < out.size(); ++o) {
    CAPTURE(o);
    for (size_t i = 0; i < edges.size(); ++i) {
      CAPTURE(i);
      const double got = out[o].getFloat(static_cast<int64_t>(i));
      // The correctly rounded tanh of the (already rounded) input.
      Literal rounded(TensorType{out[o].elementType(), {1}});
      rounded.setFloat(0, std::tanh(inputs[o].getFloat(static_cast<int64_t>(i))));
      const double expected = rounded.getFloat(0);
      if (std::isnan(expected)) {
        CHECK(std::isnan(got));
      } else {
        CHECK(got == expected);
        CHECK(std::signbit(got) == std::signbit(expected));
      }
    }
  }
  CHECK_FALSE(compareOutputs(out, evaluateWithBounds(graph, inputs)).has_value());
}
