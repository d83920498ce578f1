// fft compiled: every type and sharding on the 2x2 mesh equals the
// interpreter within its bound (batch dims sharded: each device transforms
// its blocks; a transform dim sharded: gathered first); the kernel library
// compiled here by the test's compiler (GCC in the project's build) gives
// the bits the JIT's clang does; and the bound both passes the kernel's
// result and catches one element moved by more than it.

#include "kernels/kernels.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string fftOp(const std::string &operand, const std::string &result, const std::string &type,
                  const std::string &lengths) {
  return R"({"op": "fft", "operands": [")" + operand + R"("], "result": ")" + result +
         R"(", "fft_type": ")" + type + R"(", "fft_length": [)" + lengths + "]}";
}

/// Values in [-1, 1) from a linear congruential sequence.
Literal filled(const std::string &typeText, uint64_t seed) {
  std::string error;
  Literal out(*parseType(typeText, &error));
  uint64_t state = seed;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1p-52 - 1.0;
  };
  for (int64_t i = 0; i < out.numElements(); ++i) {
    const double re = next();
    out.setComplex(i, re, next());
  }
  return out;
}

} // namespace

TEST_CASE("fft compiled on 2x2: every type, batch dims sharded, transform dims gathered") {
  const std::string ops =
      fftOp("c", "f", "FFT", "6, 5") + ", " + fftOp("f", "g", "IFFT", "6, 5") + ", " +
      fftOp("r", "h", "RFFT", "12") + ", " + fftOp("h", "k", "IRFFT", "12") + ", " +
      fftOp("d", "m", "RFFT", "3, 4, 7") + ", " + fftOp("m", "p", "IRFFT", "3, 4, 7") + ", " +
      fftOp("w", "q", "FFT", "16") + ", " + fftOp("e", "s", "FFT", "0");
  const std::string outputs = R"({"value": "f"}, {"value": "g"}, {"value": "h"}, {"value": "k"},
      {"value": "m"}, {"value": "p"}, {"value": "q"}, {"value": "s"})";
  for (const char *sharding : {"[{x}, {y}", "[{y}, {}", "[{}, {x}", "[{x, y}, {}"}) {
    CAPTURE(sharding);
    const std::string s = sharding;
    const std::string inputs =
        R"({"name": "c", "type": "tensor<4x6x5xcomplex<f32>>", "sharding": "<@m, )" + s +
        R"(, {}]>"}, {"name": "r", "type": "tensor<8x2x12xf32>", "sharding": "<@m, )" + s +
        R"(, {}]>"}, {"name": "d", "type": "tensor<2x3x4x7xf64>", "sharding": "<@m, )" + s +
        R"(, {}, {}]>"}, {"name": "w", "type": "tensor<5x16xcomplex<f64>>", "sharding": "<@m, )" +
        s + R"(]>"}, {"name": "e", "type": "tensor<3x0xcomplex<f32>>"})";
    Graph graph = loadVerified(graphOn2x2("fft", inputs, ops, outputs));
    CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
  }
}

TEST_CASE("fft's kernel compiled by this compiler gives the JIT's bits; the bound holds and "
          "catches a moved element") {
  // Lengths 8 (radix-2) and 12 (Bluestein's), 3 blocks each.
  const std::string inputs = R"({"name": "a", "type": "tensor<3x8xcomplex<f32>>"},
      {"name": "b", "type": "tensor<3x12xcomplex<f32>>"}, {"name": "c", "type": "tensor<3x12xf64>"})";
  const std::string ops = fftOp("a", "fa", "FFT", "8") + ", " + fftOp("b", "fb", "IFFT", "12") +
                          ", " + fftOp("c", "fc", "RFFT", "12");
  Graph graph = loadVerified(
      graphOn2x2("fft", inputs, ops, R"({"value": "fa"}, {"value": "fb"}, {"value": "fc"})"));
  const std::vector<Literal> in = {filled("tensor<3x8xcomplex<f32>>", 1),
                                   filled("tensor<3x12xcomplex<f32>>", 2),
                                   filled("tensor<3x12xf64>", 3)};
  const std::vector<Literal> jit = runCompiled(graph, in);
  REQUIRE(jit.size() == 3);
  // The same kernels, compiled here.
  std::vector<Literal> here;
  for (const Literal &out : jit)
    here.emplace_back(out.type());
  const int64_t eight[] = {8}, twelve[] = {12};
  kernels::fftBlocks<float, 0>(in[0].as<kernels::Complex<float>>(),
                               here[0].as<kernels::Complex<float>>(), 3, 1, eight);
  kernels::fftBlocks<float, 1>(in[1].as<kernels::Complex<float>>(),
                               here[1].as<kernels::Complex<float>>(), 3, 1, twelve);
  kernels::fftBlocks<double, 2>(in[2].as<double>(), here[2].as<kernels::Complex<double>>(), 3, 1,
                                twelve);
  for (size_t i = 0; i < jit.size(); ++i) {
    CAPTURE(i);
    CHECK(std::memcmp(jit[i].data(), here[i].data(), jit[i].byteSize()) == 0);
  }
  const BoundedEvaluation reference = evaluateWithBounds(graph, in);
  CHECK_FALSE(compareOutputs(here, reference).has_value());
  // Each output moved at one element by three times its bound fails.
  for (size_t i = 0; i < here.size(); ++i) {
    CAPTURE(i);
    std::vector<Literal> moved = here;
    const double bound = reference.bounds[i].getFloat(5);
    CHECK(bound > 0);
    CHECK(bound < 1e-4);
    moved[i].setComplex(5, moved[i].getFloat(5) + 3 * bound, moved[i].getImag(5));
    const std::optional<OutputMismatch> mismatch = compareOutputs(moved, reference);
    REQUIRE(mismatch.has_value());
    CHECK(mismatch->output == i);
    CHECK(mismatch->index == std::vector<int64_t>{0, 5});
  }
}
