// fft: the StableHLO spec's example and interpreter tests
// (stablehlo/tests/interpret/fft.mlir; all of them also run as the
// interpreter corpus, with JAX's test data), the transform against the
// definition (a direct O(n^2) sum in long double) for lengths of every
// kind (powers of two, primes, Bluestein's lengths), the spec's order of
// RFFT's and IRFFT's dims, irfft's Hermitian input (the DC and Nyquist
// bins' imaginary parts ignored), the error bound's shape, and a large
// prime length in O(n log n).

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <complex>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

using FftWide = std::complex<long double>;

std::string fftGraph(const std::string &inputType, const std::string &type,
                     const std::vector<int64_t> &lengths) {
  std::string list;
  for (size_t i = 0; i < lengths.size(); ++i)
    list += (i ? ", " : "") + std::to_string(lengths[i]);
  return opGraph("fft", {inputType},
                 R"(, "fft_type": ")" + type + R"(", "fft_length": [)" + list + "]");
}

Literal fftLiteral(const std::string &type, const std::vector<std::complex<double>> &values) {
  Literal out(tensorType(type));
  REQUIRE(static_cast<int64_t>(values.size()) == out.numElements());
  for (size_t i = 0; i < values.size(); ++i)
    out.setComplex(static_cast<int64_t>(i), values[i].real(), values[i].imag());
  return out;
}

std::vector<std::complex<double>> fftValues(const Literal &literal) {
  std::vector<std::complex<double>> out;
  for (int64_t i = 0; i < literal.numElements(); ++i)
    out.emplace_back(literal.getFloat(i), literal.getImag(i));
  return out;
}

/// Deterministic values in [-1, 1).
std::vector<std::complex<double>> fftSamples(int64_t count, uint64_t seed) {
  std::vector<std::complex<double>> out;
  uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1p-52 - 1.0;
  };
  for (int64_t i = 0; i < count; ++i) {
    const double re = next();
    out.emplace_back(re, next());
  }
  return out;
}

/// The definition along one line: sum_j x[j] exp(-+2 pi i j k / n)
/// (divided by n for the inverse), in long double.
std::vector<FftWide> fftDefinition(const std::vector<FftWide> &x, bool inverse) {
  const auto n = static_cast<int64_t>(x.size());
  std::vector<FftWide> out(x.size());
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int64_t k = 0; k < n; ++k) {
    FftWide sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      const long double angle = 2 * pi * static_cast<long double>((j * k) % n) / n;
      sum += x[j] * FftWide(std::cos(angle), inverse ? std::sin(angle) : -std::sin(angle));
    }
    out[k] = inverse ? sum / static_cast<long double>(n) : sum;
  }
  return out;
}

/// The largest |got - want| over the elements, relative to the largest |want|.
double fftError(const std::vector<std::complex<double>> &got, const std::vector<FftWide> &want) {
  REQUIRE(got.size() == want.size());
  long double worst = 0, largest = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, std::abs(FftWide(got[i].real(), got[i].imag()) - want[i]));
    largest = std::max(largest, std::abs(want[i]));
  }
  return static_cast<double>(largest == 0 ? worst : worst / largest);
}

} // namespace

TEST_CASE("fft: the spec's example and StableHLO's interpreter tests") {
  // The spec: an impulse's transform is flat.
  Literal impulse = fftLiteral("tensor<4xcomplex<f32>>", {1, 0, 0, 0});
  CHECK(fftValues(evalOne(fftGraph("tensor<4xcomplex<f32>>", "FFT", {4}), {impulse})) ==
        std::vector<std::complex<double>>{1, 1, 1, 1});
  // fft_op_test_fft_2d_c128 and its inverse.
  const std::vector<std::complex<double>> x = {{1, 2}, {3, -4}, {-5, 6}, {-7, -8}};
  const std::vector<std::complex<double>> fx = {{-8, -4}, {0, 20}, {16, 0}, {-4, -8}};
  const std::string c128 = "tensor<2x2xcomplex<f64>>";
  CHECK(fftValues(evalOne(fftGraph(c128, "FFT", {2, 2}), {fftLiteral(c128, x)})) == fx);
  // fft_op_test_ifft_2d_c128 (its input is the transposed spectrum).
  CHECK(fftValues(evalOne(fftGraph(c128, "IFFT", {2, 2}),
                          {fftLiteral(c128, {{-8, -4}, {16, 0}, {0, 20}, {-4, -8}})})) ==
        std::vector<std::complex<double>>{{1, 2}, {-5, 6}, {3, -4}, {-7, -8}});
  // fft_op_test_rfft_1d_f64 and fft_op_test_irfft_1d_c128.
  CHECK(fftValues(evalOne(fftGraph("tensor<4xf64>", "RFFT", {4}),
                          {literal("tensor<4xf64>", {1, 2, 3, 4})})) ==
        std::vector<std::complex<double>>{{10, 0}, {-2, 2}, {-2, 0}});
  CHECK(floats(evalOne(fftGraph("tensor<3xcomplex<f64>>", "IRFFT", {4}),
                       {fftLiteral("tensor<3xcomplex<f64>>", {{10, 0}, {-2, 2}, {-2, 0}})})) ==
        std::vector<double>{1, 2, 3, 4});
}

TEST_CASE("fft: every length against the definition (radix-2 and Bluestein's)") {
  for (int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 31, 33, 64, 100, 127, 243, 256}) {
    CAPTURE(n);
    const std::vector<std::complex<double>> x = fftSamples(n, static_cast<uint64_t>(n));
    std::vector<FftWide> wide;
    for (auto v : x)
      wide.emplace_back(v.real(), v.imag());
    const std::string type = "tensor<" + std::to_string(n) + "xcomplex<f64>>";
    const Literal input = fftLiteral(type, x);
    // complex<f64> computes in long double: within a few f64 ulps.
    CHECK(fftError(fftValues(evalOne(fftGraph(type, "FFT", {n}), {input})),
                   fftDefinition(wide, false)) < 8e-16);
    CHECK(fftError(fftValues(evalOne(fftGraph(type, "IFFT", {n}), {input})),
                   fftDefinition(wide, true)) < 8e-16);
    // complex<f32> computes in double, rounded once.
    const std::string narrow = "tensor<" + std::to_string(n) + "xcomplex<f32>>";
    const Literal single = fftLiteral(narrow, x);
    std::vector<FftWide> rounded;
    for (auto v : fftValues(single))
      rounded.emplace_back(v.real(), v.imag());
    CHECK(fftError(fftValues(evalOne(fftGraph(narrow, "FFT", {n}), {single})),
                   fftDefinition(rounded, false)) < 1.2e-7);
  }
}

TEST_CASE("fft: 2-D and 3-D transforms, RFFT's last dim first, IRFFT's last dim last") {
  // FFT over [3, 5]: the 1-D transform along each dim.
  const std::vector<std::complex<double>> x = fftSamples(2 * 3 * 5, 7);
  std::vector<FftWide> want(x.size());
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t k0 = 0; k0 < 3; ++k0)
      for (int64_t k1 = 0; k1 < 5; ++k1) {
        FftWide sum = 0;
        for (int64_t j0 = 0; j0 < 3; ++j0)
          for (int64_t j1 = 0; j1 < 5; ++j1) {
            const long double turns = static_cast<long double>((j0 * k0) % 3) / 3 +
                                      static_cast<long double>((j1 * k1) % 5) / 5;
            const long double angle = -2 * 3.141592653589793238462643383279502884L * turns;
            const auto v = x[static_cast<size_t>(b * 15 + j0 * 5 + j1)];
            sum += FftWide(v.real(), v.imag()) * FftWide(std::cos(angle), std::sin(angle));
          }
        want[static_cast<size_t>(b * 15 + k0 * 5 + k1)] = sum;
      }
  const std::string type = "tensor<2x3x5xcomplex<f64>>";
  const Literal spectrum = evalOne(fftGraph(type, "FFT", {3, 5}), {fftLiteral(type, x)});
  CHECK(fftError(fftValues(spectrum), want) < 8e-16);
  // IFFT inverts it.
  const Literal back = evalOne(fftGraph(type, "IFFT", {3, 5}), {spectrum});
  std::vector<FftWide> original;
  for (auto v : x)
    original.emplace_back(v.real(), v.imag());
  CHECK(fftError(fftValues(back), original) < 8e-16);
  // RFFT over [3, 6] is the complex FFT of the real input, its last dim cut
  // to 6/2 + 1 = 4; IRFFT gives the real input back.
  std::vector<double> real;
  for (int64_t i = 0; i < 18; ++i)
    real.push_back(x[static_cast<size_t>(i)].real());
  const Literal rfft =
      evalOne(fftGraph("tensor<3x6xf64>", "RFFT", {3, 6}), {literal("tensor<3x6xf64>", real)});
  CHECK(rfft.shape() == Shape{3, 4});
  std::vector<std::complex<double>> asComplex(real.begin(), real.end());
  const Literal full = evalOne(fftGraph("tensor<3x6xcomplex<f64>>", "FFT", {3, 6}),
                               {fftLiteral("tensor<3x6xcomplex<f64>>", asComplex)});
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t k = 0; k < 4; ++k) {
      CHECK(std::abs(rfft.getFloat(r * 4 + k) - full.getFloat(r * 6 + k)) < 1e-14);
      CHECK(std::abs(rfft.getImag(r * 4 + k) - full.getImag(r * 6 + k)) < 1e-14);
    }
  const Literal irfft = evalOne(fftGraph("tensor<3x4xcomplex<f64>>", "IRFFT", {3, 6}), {rfft});
  REQUIRE(irfft.shape() == Shape{3, 6});
  for (int64_t i = 0; i < 18; ++i)
    CHECK(std::abs(irfft.getFloat(i) - real[static_cast<size_t>(i)]) < 1e-15);
}

TEST_CASE("fft: IRFFT reads a Hermitian half spectrum as irfft does") {
  // n = 4: bins 0..2; the imaginary parts of DC (bin 0) and Nyquist (bin 2)
  // do not matter, bin 1 stands for bin 3 too (its conjugate).
  const std::string type = "tensor<3xcomplex<f32>>";
  const Literal plain = fftLiteral(type, {{10, 0}, {-2, 2}, {-2, 0}});
  const Literal noisy = fftLiteral(type, {{10, 5}, {-2, 2}, {-2, -7}});
  const std::string graph = fftGraph(type, "IRFFT", {4});
  CHECK(floats(evalOne(graph, {plain})) == std::vector<double>{1, 2, 3, 4});
  CHECK(floats(evalOne(graph, {noisy})) == std::vector<double>{1, 2, 3, 4});
  // n = 5 (odd): bins 0..2, no Nyquist bin; x[j] = (1/5) (X0 + 2 Re(X1 w^j + X2 w^2j)).
  const Literal odd = fftLiteral(type, {{5, 3}, {1, 1}, {0, 0}});
  const std::vector<double> got = floats(evalOne(fftGraph(type, "IRFFT", {5}), {odd}));
  REQUIRE(got.size() == 5);
  for (int64_t j = 0; j < 5; ++j) {
    const double angle = 2 * M_PI * static_cast<double>(j) / 5;
    CHECK(got[static_cast<size_t>(j)] ==
          doctest::Approx((5 + 2 * (std::cos(angle) - std::sin(angle))) / 5).epsilon(1e-6));
  }
}

TEST_CASE("fft: empty tensors, length 1 and a large prime length") {
  CHECK(evalOne(fftGraph("tensor<3x0x4xcomplex<f32>>", "FFT", {4}),
                {Literal(tensorType("tensor<3x0x4xcomplex<f32>>"))})
            .numElements() == 0);
  const Literal none =
      evalOne(fftGraph("tensor<2x0xf32>", "RFFT", {0}), {Literal(tensorType("tensor<2x0xf32>"))});
  CHECK(none.shape() == Shape{2, 0});
  CHECK(fftValues(evalOne(fftGraph("tensor<2x1xcomplex<f64>>", "IFFT", {1}),
                          {fftLiteral("tensor<2x1xcomplex<f64>>", {{3, 4}, {-1, 0}})})) ==
        std::vector<std::complex<double>>{{3, 4}, {-1, 0}});
  // 100003 is prime: Bluestein's algorithm with m = 2^18, well under a
  // second; O(n^2) would take minutes. Spot-check bins against the sum.
  const int64_t n = 100003;
  const std::vector<std::complex<double>> x = fftSamples(n, 3);
  const std::string type = "tensor<" + std::to_string(n) + "xcomplex<f32>>";
  const Literal input = fftLiteral(type, x);
  const auto start = std::chrono::steady_clock::now();
  const Literal spectrum = evalOne(fftGraph(type, "FFT", {n}), {input});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  double magnitude = 0;
  for (int64_t j = 0; j < n; ++j)
    magnitude += std::abs(std::complex<double>(input.getFloat(j), input.getImag(j)));
  for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{777}, n - 1}) {
    FftWide sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      const long double angle =
          -2 * 3.141592653589793238462643383279502884L * static_cast<long double>((j * k) % n) / n;
      sum +=
          FftWide(input.getFloat(j), input.getImag(j)) * FftWide(std::cos(angle), std::sin(angle));
    }
    CHECK(std::abs(FftWide(spectrum.getFloat(k), spectrum.getImag(k)) - sum) <
          1e-7L * static_cast<long double>(magnitude) / 100);
  }
}

TEST_CASE("fft: the bound grows with the block's magnitude and the transform's depth") {
  const std::string type = "tensor<2x8xcomplex<f32>>";
  std::vector<std::complex<double>> values = fftSamples(16, 5);
  for (int64_t j = 8; j < 16; ++j)
    values[static_cast<size_t>(j)] *= 1000; // the second block is 1000 times larger
  Graph graph = loadGraph(fftGraph(type, "FFT", {8}));
  const BoundedEvaluation eval = evaluateWithBounds(graph, {fftLiteral(type, values)});
  const Literal &bounds = eval.bounds.at(0);
  double sum0 = 0;
  for (int64_t j = 0; j < 8; ++j)
    sum0 += std::abs(values[static_cast<size_t>(j)].real()) +
            std::abs(values[static_cast<size_t>(j)].imag());
  // u (2^-24) times the block's summed |re| + |im| times 2 (5 log2(8) + 1),
  // plus the result's ulp.
  const double rounding = std::ldexp(1.0, -24) * sum0 * 32;
  for (int64_t k = 0; k < 8; ++k) {
    CHECK(bounds.getFloat(k) >= rounding);
    CHECK(bounds.getFloat(k) <= rounding + std::ldexp(1.0, -20) * sum0);
    CHECK(bounds.getFloat(8 + k) > 900 * bounds.getFloat(k));
  }
  // Exact integer inputs of length 1: a copy, exact.
  Graph one = loadGraph(fftGraph("tensor<3x1xcomplex<f32>>", "FFT", {1}));
  for (double b : floats(evaluateWithBounds(one, {fftLiteral("tensor<3x1xcomplex<f32>>",
                                                             {{1, 2}, {3, 4}, {5, 6}})})
                             .bounds.at(0)))
    CHECK(b == 0);
}
