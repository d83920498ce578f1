// The bf16 dot's vdpbf16ps path (templates/kernels/dot.h, Bf16PairPanels)
// on any host: the kernel library compiled here with
// SHARDGEN_EMULATE_DPBF16, which computes the instruction as Intel defines
// it (per lane and pair two FMAs, odd depth first, rounding to nearest even,
// denormal inputs read as zero, denormal results flushed to zero). Its
// results must lie within the reference interpreter's bound for a bf16 dot,
// denormals included, and the bound must still catch a wrong element.

#define SHARDGEN_EMULATE_DPBF16 1
#include "kernels/kernels.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string dotGraph(int64_t m, int64_t n, int64_t k) {
  auto type = [](int64_t rows, int64_t cols) {
    return "\"tensor<" + std::to_string(rows) + "x" + std::to_string(cols) + "xbf16>\"";
  };
  return R"({"format": "shardgen-graph", "version": 1, "name": "d",
    "inputs": [{"name": "a", "type": )" +
         type(m, k) + R"(}, {"name": "b", "type": )" + type(k, n) + R"(}],
    "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "c",
             "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]}],
    "outputs": [{"value": "c"}]})";
}

/// bf16 values: mostly in [-1, 1], every `denormalEvery`-th a bf16 denormal
/// (a multiple of 2^-133) or a tiny normal, so products and partial sums
/// fall below 2^-126.
Literal values(const Shape &shape, uint64_t seed, int64_t denormalEvery) {
  Literal out(TensorType{ElementType::BF16, shape});
  uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int64_t i = 0; i < out.numElements(); ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double unit = static_cast<double>(state >> 11) * 0x1p-53 * 2 - 1;
    double value = unit;
    if (denormalEvery > 0 && i % denormalEvery == 0)
      value = (i / denormalEvery) % 2 ? std::ldexp(std::round(unit * 127), -133)
                                      : std::ldexp(unit, -120);
    out.setFloat(i, value);
  }
  return out;
}

template <int64_t M, int64_t N, int64_t K> Literal emulatedDot(const Literal &a, const Literal &b) {
  Literal c(TensorType{ElementType::BF16, {M, N}});
  kernels::dotGeneral<kernels::BF16, 1, M, N, K>(a.as<uint16_t>(), b.as<uint16_t>(),
                                                 c.as<uint16_t>());
  return c;
}

template <int64_t M, int64_t N, int64_t K> void checkWithinBound(int64_t denormalEvery) {
  Graph graph = loadVerified(dotGraph(M, N, K));
  const std::vector<Literal> inputs = {values({M, K}, 1, denormalEvery),
                                       values({K, N}, 2, denormalEvery)};
  const BoundedEvaluation expected = evaluateWithBounds(graph, inputs);
  const std::vector<Literal> actual = {emulatedDot<M, N, K>(inputs[0], inputs[1])};
  auto mismatch = compareOutputs(actual, expected);
  CHECK_MESSAGE(!mismatch.has_value(), (mismatch ? mismatch->describe() : std::string()));
  // A wrong element (two bf16 ulps beyond its bound) is caught there.
  for (int64_t i = 0; i < M * N; i += 7) {
    std::vector<Literal> wrong = actual;
    const double value = expected.values[0].getFloat(i), bound = expected.bounds[0].getFloat(i);
    // bf16's ulp where the wrong value lies (it is rounded to bf16)
    const double ulp = std::ldexp(1.0, std::max(std::ilogb(std::fabs(value) + bound), -126) - 7);
    wrong[0].setFloat(i, value + bound + 2 * ulp);
    auto caught = compareOutputs(wrong, expected);
    CAPTURE(i);
    CAPTURE(value);
    CAPTURE(bound);
    REQUIRE(caught.has_value());
    CHECK(caught->index == std::vector<int64_t>{i / N, i % N});
  }
}

} // namespace

TEST_CASE("the vdpbf16ps pair kernel, emulated per Intel's definition, is within the bf16 dot's "
          "bound over several depth blocks, odd depths and partial tiles") {
  checkWithinBound<19, 37, 1201>(0);
  checkWithinBound<9, 40, 7>(0);
}

TEST_CASE("denormal bf16 inputs and tiny partial sums: vdpbf16ps flushes them, the bound "
          "covers it, a wrong element is still caught") {
  checkWithinBound<13, 21, 301>(3);
  // One product of a denormal: 2^-130 exactly in the interpreter, 0 after
  // vdpbf16ps reads the denormal as zero; both within the bound.
  Graph graph = loadVerified(dotGraph(1, 1, 2));
  Literal a(TensorType{ElementType::BF16, {1, 2}}), b(TensorType{ElementType::BF16, {2, 1}});
  a.setFloat(0, 0x1p-130);
  a.setFloat(1, 0);
  b.setFloat(0, 1);
  b.setFloat(1, 1);
  const BoundedEvaluation expected = evaluateWithBounds(graph, {a, b});
  CHECK(expected.values[0].getFloat(0) == 0x1p-130);
  const Literal flushed = emulatedDot<1, 1, 2>(a, b);
  CHECK(flushed.getFloat(0) == 0);
  CHECK_FALSE(compareOutputs({flushed}, expected).has_value());
  Literal far(TensorType{ElementType::BF16, {1, 1}});
  far.setFloat(0, 0x1p-120);
  CHECK(compareOutputs({far}, expected).has_value());
}
