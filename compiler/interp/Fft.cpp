// fft as StableHLO's spec defines it: the discrete Fourier transform
// X[k] = sum_j x[j] exp(-2 pi i j k / n) along each of the trailing
// size(fft_length) dims, its inverse (conjugate exponent, divided by n),
// RFFT (the transform of a real line, its first n/2 + 1 entries; the
// last dim first, then the others) and IRFFT (the inverse of that: the
// others first, then the last dim from its Hermitian half, the imaginary
// parts of the DC and Nyquist bins ignored, as numpy's and XLA's irfft).
//
// Every length runs in O(n log n): a power of two by iterative radix-2
// butterflies, any other length by Bluestein's algorithm (the transform
// as a convolution with the chirp exp(-i pi k^2 / n), done by radix-2
// transforms of a power of two m >= 2n - 1).
//
// Precision: complex<f32> and f32 compute in double; complex<f64> and f64
// in long double (x87's 64-bit significand where the host has it: 11 bits
// more than f64; IEEE quad on hosts whose long double is binary128), each
// rounded once to the result type. Twiddles are cos and sin of angles
// reduced to [-pi/4, pi/4] by exact integer arithmetic (the octant of
// 8k/n; runtime/include/shardgen/unit_root.h, the kernel's too), so each is
// within an ulp or two of the working precision.
// templates/kernels/fft.h computes the same in the element type's own
// precision; interp/ErrorBounds.cpp's fftBound says how far apart they
// may be.

#include <cmath>
#include <vector>

#include "compiler/interp/Kernels.h"
#include "runtime/include/shardgen/unit_root.h"

namespace shardgen::interp {
namespace {
namespace fft { // names of their own in the stage's unity build

template <typename R> struct Cx {
  R re = 0, im = 0;
};
template <typename R> Cx<R> operator+(Cx<R> a, Cx<R> b) { return {a.re + b.re, a.im + b.im}; }
template <typename R> Cx<R> operator-(Cx<R> a, Cx<R> b) { return {a.re - b.re, a.im - b.im}; }
template <typename R> Cx<R> operator*(Cx<R> a, Cx<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename R> Cx<R> conj(Cx<R> a) { return {a.re, -a.im}; }

/// exp(-2 pi i k / n) in R (runtime/include/shardgen/unit_root.h).
template <typename R> Cx<R> unitRoot(uint64_t k, uint64_t n) {
  const runtime::elements::Complex<R> w = runtime::elements::unitRoot<R>(k, n);
  return {w.re, w.im};
}

bool isPowerOfTwo(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

/// The forward transform of one length: radix-2 for a power of two,
/// Bluestein's algorithm otherwise; its tables are made once per length.
template <typename R> class LineTransform {
public:
  explicit LineTransform(int64_t n) : n_(n) {
    if (n <= 1)
      return;
    if (isPowerOfTwo(static_cast<uint64_t>(n))) {
      radix2Tables(n, twiddles_);
      return;
    }
    m_ = 1;
    while (m_ < 2 * n - 1)
      m_ *= 2;
    radix2Tables(m_, twiddles_);
    chirp_.resize(static_cast<size_t>(n));
    const auto twiceN = static_cast<uint64_t>(2 * n);
    uint64_t square = 0; // k^2 mod 2n
    for (int64_t k = 0; k < n; ++k) {
      // exp(-i pi k^2 / n) = exp(-2 pi i (k^2 mod 2n) / 2n).
      chirp_[static_cast<size_t>(k)] = unitRoot<R>(square, twiceN);
      square += 2 * static_cast<uint64_t>(k) + 1;
      if (square >= twiceN)
        square -= twiceN;
    }
    kernel_.assign(static_cast<size_t>(m_), {});
    kernel_[0] = conj(chirp_[0]);
    for (int64_t k = 1; k < n; ++k)
      kernel_[static_cast<size_t>(k)] = kernel_[static_cast<size_t>(m_ - k)] =
          conj(chirp_[static_cast<size_t>(k)]);
    radix2(kernel_.data(), m_);
    work_.resize(static_cast<size_t>(m_));
  }

  /// x[0..n) in place: X[k] = sum_j x[j] exp(-2 pi i j k / n).
  void forward(Cx<R> *x) {
    if (n_ <= 1)
      return;
    if (m_ == 0) {
      radix2(x, n_);
      return;
    }
    // X[k] = w[k] sum_j (x[j] w[j]) conj(w[k - j]), w the chirp.
    std::fill(work_.begin(), work_.end(), Cx<R>{});
    for (int64_t j = 0; j < n_; ++j)
      work_[static_cast<size_t>(j)] = x[j] * chirp_[static_cast<size_t>(j)];
    radix2(work_.data(), m_);
    for (int64_t k = 0; k < m_; ++k)
      work_[static_cast<size_t>(k)] =
          conj(work_[static_cast<size_t>(k)] * kernel_[static_cast<size_t>(k)]);
    radix2(work_.data(), m_); // the inverse as conj(forward(conj(.))) / m
    const R scale = static_cast<R>(m_);
    for (int64_t k = 0; k < n_; ++k) {
      const Cx<R> c = conj(work_[static_cast<size_t>(k)]);
      x[k] = Cx<R>{c.re / scale, c.im / scale} * chirp_[static_cast<size_t>(k)];
    }
  }

  /// x[0..n) in place: x[j] = (1/n) sum_k X[k] exp(2 pi i j k / n).
  void inverse(Cx<R> *x) {
    for (int64_t j = 0; j < n_; ++j)
      x[j] = conj(x[j]);
    forward(x);
    const R scale = static_cast<R>(n_);
    for (int64_t j = 0; j < n_; ++j)
      x[j] = Cx<R>{x[j].re / scale, -x[j].im / scale};
  }

private:
  static void radix2Tables(int64_t n, std::vector<Cx<R>> &twiddles) {
    twiddles.resize(static_cast<size_t>(n / 2));
    for (int64_t j = 0; j < n / 2; ++j)
      twiddles[static_cast<size_t>(j)] =
          unitRoot<R>(static_cast<uint64_t>(j), static_cast<uint64_t>(n));
  }

  /// In place, n a power of two whose twiddles_ are made: the inputs in
  /// bit-reversed order, then log2(n) levels of butterflies.
  void radix2(Cx<R> *x, int64_t n) const {
    for (int64_t i = 1, j = 0; i < n; ++i) {
      int64_t bit = n >> 1;
      for (; j & bit; bit >>= 1)
        j ^= bit;
      j ^= bit;
      if (i < j)
        std::swap(x[i], x[j]);
    }
    for (int64_t half = 1; half < n; half *= 2) {
      const int64_t stride = n / (2 * half);
      for (int64_t start = 0; start < n; start += 2 * half)
        for (int64_t j = 0; j < half; ++j) {
          const Cx<R> u = x[start + j];
          const Cx<R> v = x[start + j + half] * twiddles_[static_cast<size_t>(j * stride)];
          x[start + j] = u + v;
          x[start + j + half] = u - v;
        }
    }
  }

  int64_t n_ = 0, m_ = 0; // m_: Bluestein's power of two (0: radix-2)
  std::vector<Cx<R>> twiddles_, chirp_, kernel_, work_;
};

/// The lines along `dim` of a row-major `shape`: each line's first
/// element and the stride between its elements.
template <typename Visit> void forEachLine(const Shape &shape, size_t dim, Visit &&visit) {
  int64_t inner = 1, outer = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  for (size_t d = 0; d < dim; ++d)
    outer *= shape[d];
  const int64_t length = shape[dim];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      visit(o * length * inner + i, inner);
}

/// Transforms every line of `data` (row-major `shape`) along `dim`.
template <typename R>
void transformAlong(std::vector<Cx<R>> &data, const Shape &shape, size_t dim, bool inverse) {
  const int64_t n = shape[dim];
  LineTransform<R> transform(n);
  std::vector<Cx<R>> line(static_cast<size_t>(n));
  forEachLine(shape, dim, [&](int64_t first, int64_t stride) {
    for (int64_t j = 0; j < n; ++j)
      line[static_cast<size_t>(j)] = data[static_cast<size_t>(first + j * stride)];
    if (inverse)
      transform.inverse(line.data());
    else
      transform.forward(line.data());
    for (int64_t j = 0; j < n; ++j)
      data[static_cast<size_t>(first + j * stride)] = line[static_cast<size_t>(j)];
  });
}

template <typename R>
Literal evalIn(const Literal &operand, FftType type, const std::vector<int64_t> &lengths,
               const TensorType &resultType) {
  Literal result(resultType);
  if (result.numElements() == 0 || operand.numElements() == 0)
    return result;
  const size_t rank = operand.shape().size(), fftRank = lengths.size();
  const size_t last = rank - 1;
  std::vector<Cx<R>> data(static_cast<size_t>(operand.numElements()));
  for (int64_t i = 0; i < operand.numElements(); ++i)
    data[static_cast<size_t>(i)] = {static_cast<R>(operand.getFloat(i)),
                                    static_cast<R>(operand.getImag(i))};
  switch (type) {
  case FftType::Fft:
  case FftType::Ifft:
    for (size_t d = rank - fftRank; d < rank; ++d)
      transformAlong(data, operand.shape(), d, type == FftType::Ifft);
    break;
  case FftType::Rfft: {
    // The last dim's transforms (of real lines: imaginary parts 0), cut to
    // n/2 + 1, then the other dims'.
    transformAlong(data, operand.shape(), last, false);
    const int64_t n = operand.shape()[last], kept = resultType.shape[last];
    std::vector<Cx<R>> half(static_cast<size_t>(result.numElements()));
    for (int64_t row = 0; row < result.numElements() / kept; ++row)
      for (int64_t k = 0; k < kept; ++k)
        half[static_cast<size_t>(row * kept + k)] = data[static_cast<size_t>(row * n + k)];
    data = std::move(half);
    for (size_t d = rank - fftRank; d < last; ++d)
      transformAlong(data, resultType.shape, d, false);
    break;
  }
  case FftType::Irfft: {
    for (size_t d = rank - fftRank; d < last; ++d)
      transformAlong(data, operand.shape(), d, true);
    // Each row's whole spectrum from its half (X[n - k] = conj(X[k])); the
    // real part of its inverse transform drops the DC and Nyquist bins'
    // imaginary parts, as irfft does.
    const int64_t kept = operand.shape()[last], n = resultType.shape[last];
    std::vector<Cx<R>> whole(static_cast<size_t>(result.numElements()));
    for (int64_t row = 0; row < result.numElements() / n; ++row)
      for (int64_t k = 0; k < n; ++k) {
        const int64_t mirrored = n - k;
        whole[static_cast<size_t>(row * n + k)] =
            k < kept ? data[static_cast<size_t>(row * kept + k)]
                     : conj(data[static_cast<size_t>(row * kept + mirrored)]);
      }
    data = std::move(whole);
    transformAlong(data, resultType.shape, last, true);
    for (int64_t i = 0; i < result.numElements(); ++i)
      data[static_cast<size_t>(i)].im = 0;
    break;
  }
  }
  for (int64_t i = 0; i < result.numElements(); ++i) {
    const Cx<R> v = data[static_cast<size_t>(i)];
    // Rounded once from R to the part type (f64 from long double; f32 from
    // double).
    if (complexPartType(resultType.elementType) == ElementType::F32)
      result.setComplex(i, static_cast<float>(v.re), static_cast<float>(v.im));
    else
      result.setComplex(i, static_cast<double>(v.re), static_cast<double>(v.im));
  }
  return result;
}

} // namespace fft
} // namespace

Literal evalFft(const Literal &operand, const FftAttrs &attrs, const TensorType &resultType) {
  if (complexPartType(operand.elementType()) == ElementType::F64)
    return fft::evalIn<long double>(operand, attrs.type(), attrs.fftLength, resultType);
  return fft::evalIn<double>(operand, attrs.type(), attrs.fftLength, resultType);
}

} // namespace shardgen::interp
