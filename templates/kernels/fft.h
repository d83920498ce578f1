// shardgen kernel library: fft (StableHLO's FFT, IFFT, RFFT, IRFFT) over
// the trailing 1 to 3 dims of each batch index's block, in the element
// type's precision.
//
// A line of length n runs in O(n log n): a power of two by iterative
// radix-2 butterflies (inputs in bit-reversed order), any other length by
// Bluestein's algorithm (x[j] times the chirp w[j] = exp(-i pi j^2 / n),
// convolved with conj(w) by radix-2 transforms of a power of two
// m >= 2n - 1, times w[k]). The twiddles, the chirp and the chirp's
// spectrum are computed in double (angles reduced to [-pi/4, pi/4] by
// exact integer arithmetic) and rounded once to the element type. The
// inverse is conj(forward(conj(x))) / n. Complex products are two products
// and a sum per part (complex.h's multiply: each product rounded on its
// own, never fused), so GCC and clang round the same. The reference (compiler/interp/Fft.cpp)
// computes the same transform with more bits; interp/ErrorBounds.cpp's
// fftBound is how far apart they may be.
#pragma once

#include "kernels/memory.h"
#include "kernels/scratch.h"
#include "shardgen/unit_root.h"

namespace shardgen::kernels {

namespace fft {

template <typename T> using Cx = Complex<T>;
using math::add;
using math::multiply;
using math::subtract;
template <typename T> SHARDGEN_INLINE Cx<T> conj(Cx<T> a) { return {a.re, -a.im}; }

/// exp(-2 pi i k / n) in double (shardgen/unit_root.h, the interpreter's too).
SHARDGEN_INLINE Cx<double> unitRoot(uint64_t k, uint64_t n) {
  return runtime::elements::unitRoot<double>(k, n);
}

SHARDGEN_INLINE bool isPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/// In place, n a power of two; twiddles[j * stride] = exp(-2 pi i j / n).
template <typename T> void radix2(Cx<T> *x, int64_t n, const Cx<T> *twiddles, int64_t stride) {
  for (int64_t i = 1, j = 0; i < n; ++i) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j) {
      const Cx<T> t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
  for (int64_t half = 1; half < n; half *= 2) {
    const int64_t step = stride * (n / (2 * half));
    for (int64_t start = 0; start < n; start += 2 * half)
      for (int64_t j = 0; j < half; ++j) {
        const Cx<T> u = x[start + j];
        const Cx<T> v = multiply(x[start + j + half], twiddles[j * step]);
        x[start + j] = add(u, v);
        x[start + j + half] = subtract(u, v);
      }
  }
}

/// The tables of one length's transform: radix-2 twiddles of n (a power
/// of two) or of m, and Bluestein's chirp and its conjugate's spectrum.
template <typename T> class LinePlan {
public:
  explicit LinePlan(int64_t n)
      : n_(n), m_(bluesteinSize(n)), size_(m_ ? m_ : n),
        tables_(static_cast<int64_t>(sizeof(Cx<T>)) * (size_ / 2 + (m_ ? n + 2 * m_ : 0))),
        spectrum_(static_cast<int64_t>(sizeof(Cx<double>)) * (m_ ? m_ + m_ / 2 : 0)) {
    if (n <= 1)
      return;
    Cx<T> *twiddles = tables_.as<Cx<T>>();
    for (int64_t j = 0; j < size_ / 2; ++j) {
      const Cx<double> w = unitRoot(static_cast<uint64_t>(j), static_cast<uint64_t>(size_));
      twiddles[j] = {static_cast<T>(w.re), static_cast<T>(w.im)};
    }
    if (!m_)
      return;
    // The chirp w[k] = exp(-2 pi i (k^2 mod 2n) / 2n); the spectrum of
    // b = conj(w) wrapped around m, computed in double.
    Cx<T> *chirp = twiddles + size_ / 2, *kernel = chirp + n;
    Cx<double> *b = spectrum_.as<Cx<double>>(), *wide = b + m_;
    for (int64_t j = 0; j < m_ / 2; ++j)
      wide[j] = unitRoot(static_cast<uint64_t>(j), static_cast<uint64_t>(m_));
    for (int64_t k = 0; k < m_; ++k)
      b[k] = {0.0, 0.0};
    const auto twiceN = static_cast<uint64_t>(2 * n);
    uint64_t square = 0; // k^2 mod 2n
    for (int64_t k = 0; k < n; ++k) {
      const Cx<double> w = unitRoot(square, twiceN);
      chirp[k] = {static_cast<T>(w.re), static_cast<T>(w.im)};
      b[k] = conj(w);
      if (k > 0)
        b[m_ - k] = conj(w);
      square += 2 * static_cast<uint64_t>(k) + 1;
      if (square >= twiceN)
        square -= twiceN;
    }
    radix2(b, m_, wide, 1);
    for (int64_t k = 0; k < m_; ++k)
      kernel[k] = {static_cast<T>(b[k].re), static_cast<T>(b[k].im)};
  }

  /// x[0..n) in place: X[k] = sum_j x[j] exp(-2 pi i j k / n).
  void forward(Cx<T> *x) {
    if (n_ <= 1)
      return;
    Cx<T> *twiddles = tables_.as<Cx<T>>();
    if (!m_) {
      radix2(x, n_, twiddles, 1);
      return;
    }
    Cx<T> *chirp = twiddles + size_ / 2, *kernel = chirp + n_, *work = kernel + m_;
    for (int64_t j = 0; j < n_; ++j)
      work[j] = multiply(x[j], chirp[j]);
    for (int64_t j = n_; j < m_; ++j)
      work[j] = {T(0), T(0)};
    radix2(work, m_, twiddles, 1);
    for (int64_t k = 0; k < m_; ++k)
      work[k] = conj(multiply(work[k], kernel[k]));
    radix2(work, m_, twiddles, 1);      // the inverse: conj(forward(conj(.))) / m
    const T scale = static_cast<T>(m_); // a power of two: exact
    for (int64_t k = 0; k < n_; ++k)
      x[k] = multiply(Cx<T>{work[k].re / scale, -work[k].im / scale}, chirp[k]);
  }

  /// x[0..n) in place: x[j] = (1/n) sum_k X[k] exp(2 pi i j k / n).
  void inverse(Cx<T> *x) {
    for (int64_t j = 0; j < n_; ++j)
      x[j] = conj(x[j]);
    forward(x);
    const T scale = static_cast<T>(n_);
    for (int64_t j = 0; j < n_; ++j)
      x[j] = {x[j].re / scale, -x[j].im / scale};
  }

private:
  static int64_t bluesteinSize(int64_t n) {
    if (n <= 1 || isPowerOfTwo(n))
      return 0;
    int64_t m = 1;
    while (m < 2 * n - 1)
      m *= 2;
    return m;
  }

  int64_t n_, m_, size_;
  Scratch tables_, spectrum_;
};

/// Every line of the row-major `dims` block `data` along dim `dim`.
template <typename T>
void transformAlong(Cx<T> *data, const int64_t *dims, int64_t rank, int64_t dim, bool inverse,
                    LinePlan<T> &plan, Cx<T> *line) {
  int64_t inner = 1, outer = 1;
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= dims[d];
  for (int64_t d = 0; d < dim; ++d)
    outer *= dims[d];
  const int64_t n = dims[dim];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      Cx<T> *first = data + o * n * inner + i;
      for (int64_t j = 0; j < n; ++j)
        line[j] = first[j * inner];
      if (inverse)
        plan.inverse(line);
      else
        plan.forward(line);
      for (int64_t j = 0; j < n; ++j)
        first[j * inner] = line[j];
    }
}

template <typename S> SHARDGEN_INLINE auto loadComplex(const S *p, int64_t k) {
  const S value = loadAt(p, k);
  if constexpr (isComplexStorage<S>)
    return Cx<decltype(value.re)>{value.re, value.im};
  else
    return Cx<S>{value, S(0)};
}

} // namespace fft

/// fft of `batch` blocks: Type 0 FFT, 1 IFFT, 2 RFFT, 3 IRFFT; `lengths`
/// the rank fft_length entries (each block holds their product, with
/// RFFT's result and IRFFT's operand n/2 + 1 long in the last dim). T is
/// the part type (float, double); In and Out the storage types.
template <typename T, int Type, typename In, typename Out>
void fftBlocks(const In *in, Out *out, int64_t batch, int64_t rank, const int64_t *lengths) {
  using C = fft::Cx<T>;
  constexpr bool inverse = Type == 1 || Type == 3;
  const int64_t n = lengths[rank - 1], half = n == 0 ? 0 : n / 2 + 1;
  // The complex block's dims: RFFT's and IRFFT's last dim is the half spectrum.
  int64_t dims[3] = {0, 0, 0}, complexBlock = 1, realBlock = 1;
  for (int64_t d = 0; d < rank; ++d) {
    dims[d] = Type >= 2 && d == rank - 1 ? half : lengths[d];
    complexBlock *= dims[d];
    realBlock *= lengths[d];
  }
  if (batch == 0 || complexBlock == 0 || realBlock == 0)
    return;
  int64_t longest = 0;
  for (int64_t d = 0; d < rank; ++d)
    longest = lengths[d] > longest ? lengths[d] : longest;
  Scratch block(static_cast<int64_t>(sizeof(C)) * (complexBlock + longest));
  C *data = block.as<C>(), *line = data + complexBlock;
  fft::LinePlan<T> plan0(lengths[0]);
  fft::LinePlan<T> plan1(rank > 1 ? lengths[1] : 0);
  fft::LinePlan<T> plan2(rank > 2 ? lengths[2] : 0);
  fft::LinePlan<T> *plans[3] = {&plan0, &plan1, &plan2};
  const int64_t rows = complexBlock / half * (Type >= 2 ? 1 : 0);
  for (int64_t b = 0; b < batch; ++b) {
    if constexpr (Type == 0 || Type == 1) {
      for (int64_t k = 0; k < complexBlock; ++k)
        data[k] = fft::loadComplex(in, b * complexBlock + k);
      for (int64_t d = rank - 1; d >= 0; --d)
        fft::transformAlong(data, dims, rank, d, inverse, *plans[d], line);
      for (int64_t k = 0; k < complexBlock; ++k)
        storeAt(out, b * complexBlock + k, Out{data[k].re, data[k].im});
    } else if constexpr (Type == 2) {
      // The last dim's transform of each real row, cut to n/2 + 1; then
      // the other dims'.
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < n; ++j)
          line[j] = fft::loadComplex(in, b * realBlock + r * n + j);
        plans[rank - 1]->forward(line);
        for (int64_t k = 0; k < half; ++k)
          data[r * half + k] = line[k];
      }
      for (int64_t d = rank - 2; d >= 0; --d)
        fft::transformAlong(data, dims, rank, d, false, *plans[d], line);
      for (int64_t k = 0; k < complexBlock; ++k)
        storeAt(out, b * complexBlock + k, Out{data[k].re, data[k].im});
    } else {
      // The other dims' inverses, then each row's from its whole spectrum
      // (X[n - k] = conj(X[k])); the real parts drop the imaginary parts of
      // the DC and Nyquist bins, as irfft does.
      for (int64_t k = 0; k < complexBlock; ++k)
        data[k] = fft::loadComplex(in, b * complexBlock + k);
      for (int64_t d = 0; d + 1 < rank; ++d)
        fft::transformAlong(data, dims, rank, d, true, *plans[d], line);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < n; ++k)
          line[k] = k < half ? data[r * half + k] : fft::conj(data[r * half + n - k]);
        plans[rank - 1]->inverse(line);
        for (int64_t j = 0; j < n; ++j)
          storeAt(out, b * realBlock + r * n + j, line[j].re);
      }
    }
  }
}

} // namespace shardgen::kernels
