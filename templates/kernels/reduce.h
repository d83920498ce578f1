// shardgen kernel library: reductions. Floats accumulate in their compute
// type (f32 for f32/f16/bf16, as the reference interpreter and XLA's CPU
// backend) and round once; integers wrap; on i1, add and max are `or`, mul
// and min are `and`.
#pragma once

#include "kernels/layout.h"

// The vectorize_width hints below ask for whole vectors; where clang unrolls
// a short loop completely first (at -O3, a few columns), the hint has no
// loop left to apply to, and clang warns that it could not: that is fine.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

namespace shardgen::kernels {

template <typename E> using Accumulator = typename E::Compute;

#define SHARDGEN_REDUCER(Name, general, boolean)                                                   \
  struct Name {                                                                                    \
    template <typename E, typename A> static SHARDGEN_INLINE A apply(A a, A b) {                   \
      if constexpr (isBool<E>)                                                                     \
        return boolean;                                                                            \
      else                                                                                         \
        return general;                                                                            \
    }                                                                                              \
  };
SHARDGEN_REDUCER(ReduceAdd, math::add(a, b), A(a | b))
SHARDGEN_REDUCER(ReduceMul, math::multiply(a, b), A(a &b))
SHARDGEN_REDUCER(ReduceMax, math::maximum(a, b), A(a | b))
SHARDGEN_REDUCER(ReduceMin, math::minimum(a, b), A(a &b))
SHARDGEN_REDUCER(ReduceAnd, A(a &b), A(a &b))
SHARDGEN_REDUCER(ReduceOr, A(a | b), A(a | b))
#undef SHARDGEN_REDUCER

/// The walk without its innermost dim.
template <int R> constexpr Walk<R - 1> outerDims(const Walk<R> &w) {
  Walk<R - 1> out{};
  for (int d = 0; d + 1 < R; ++d) {
    out.extents[d] = w.extents[d];
    out.inStrides[d] = w.inStrides[d];
    out.outStrides[d] = w.outStrides[d];
  }
  out.inOffset = w.inOffset;
  out.outOffset = w.outOffset;
  return out;
}

/// Lanes of a row reduction: a multiple of any vector width, and enough
/// independent chains to cover the add latency (8 AVX2 or 4 AVX-512 vectors).
inline constexpr int64_t kReduceLanes = 64;
/// Outputs reduced together in a column reduction (their accumulators stay
/// in L1; the input is read row by row, as it lies).
inline constexpr int64_t kReduceColumns = 4096;

/// How far ahead of a stream reductions ask for its lines: one core's
/// hardware prefetcher alone keeps too few lines in flight to read at the
/// memory's speed (bf16 row sums: 1.8x faster with it, bench_codegen_elementwise).
inline constexpr int64_t kPrefetchBytes = 32 * 1024;

/// Asks for the lines `distance` bytes past the `count` elements at `p`
/// (a prefetch never faults, past the buffer's end included). The address
/// is computed as an integer: a pointer past its buffer would be undefined
/// (bounding it instead cost 15 % of bf16 row sums).
template <typename S>
SHARDGEN_INLINE void prefetchAhead(const S *p, int64_t count, int64_t distance = kPrefetchBytes) {
  using Address = __UINTPTR_TYPE__;
  const Address ahead = reinterpret_cast<Address>(p) + static_cast<Address>(distance);
  for (int64_t at = 0; at < count * int64_t(sizeof(S)); at += 64)
    __builtin_prefetch(reinterpret_cast<const void *>(ahead + static_cast<Address>(at)));
}

/// Reduces the N contiguous elements at `in` (N >= kReduceLanes) in
/// kReduceLanes interleaved partial results, folded pairwise: the loop
/// vectorizes (a single accumulator waits on each add). Every lane starts
/// from its first element, so sums of zeros keep IEEE's sign; the order is
/// fixed here, so GCC and clang agree (the interpreter's bound covers any
/// order of a sum; max and min are exact in any order).
template <typename E, typename Red, int64_t N>
SHARDGEN_INLINE Accumulator<E> reduceRow(const typename E::Storage *in) {
  using A = Accumulator<E>;
  A lanes[kReduceLanes];
  for (int64_t j = 0; j < kReduceLanes; ++j)
    lanes[j] = static_cast<A>(E::load(loadAt(in, j)));
  constexpr int64_t full = N / kReduceLanes * kReduceLanes;
  for (int64_t i = kReduceLanes; i < full; i += kReduceLanes) {
    prefetchAhead(in + i, kReduceLanes);
    // Whole vectors (see reduceColumns): fully unrolled, the lanes were
    // gathered four f16 at a time.
#if defined(__clang__)
#pragma clang loop vectorize_width(kVectorFloats) interleave_count(4)
#endif
    for (int64_t j = 0; j < kReduceLanes; ++j)
      lanes[j] = Red::template apply<E, A>(lanes[j], static_cast<A>(E::load(loadAt(in, i + j))));
  }
  for (int64_t j = 0; full + j < N; ++j)
    lanes[j] = Red::template apply<E, A>(lanes[j], static_cast<A>(E::load(loadAt(in, full + j))));
  for (int64_t width = kReduceLanes / 2; width > 0; width /= 2)
    for (int64_t j = 0; j < width; ++j)
      lanes[j] = Red::template apply<E, A>(lanes[j], lanes[j + width]);
  return lanes[0];
}

/// Width outputs side by side (contiguous in the input at `base` and in
/// `out` at `o`), each reduced over `Reduced` in order from `start`.
template <typename E, typename Red, int RR, Walk<RR> Reduced, int64_t Width>
SHARDGEN_INLINE void reduceColumns(const typename E::Storage *__restrict in, int64_t base,
                                   Accumulator<E> start, typename E::Storage *__restrict out,
                                   int64_t o) {
  using A = Accumulator<E>;
  auto at = [&](int64_t i) { return static_cast<A>(E::load(loadAt(in, i))); };
  A acc[Width];
  for (int64_t c = 0; c < Width; ++c)
    acc[c] = start;
  constexpr bool narrow = sizeof(typename E::Storage) < sizeof(A); // f16, bf16, 8-bit floats
  if constexpr (RR == 1 && narrow) {
    // Types stored narrower than they accumulate: a row at a time, the
    // input read as it lies (one stream, not eight short ones), asking for
    // the lines `ahead` rows on (about kPrefetchBytes of this walk) as the
    // row sums do: bf16/f16 column sums at 0.82-0.92x memcpy with eight
    // rows per pass, 1.0-1.4x so (bench_codegen_elementwise).
    constexpr int64_t rows = Reduced.extents[0], stride = Reduced.inStrides[0];
    constexpr int64_t rowBytes = Width * int64_t(sizeof(typename E::Storage));
    constexpr int64_t ahead = (kPrefetchBytes + rowBytes - 1) / rowBytes;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t i = base + r * stride;
      for (int64_t c0 = 0; c0 < Width; c0 += kReduceLanes) {
        const int64_t end = c0 + kReduceLanes < Width ? c0 + kReduceLanes : Width;
        prefetchAhead(in + i + c0, end - c0, ahead * stride * int64_t(sizeof(typename E::Storage)));
        // Whole vectors: clang's cost model picks 4 f16 lanes (vcvtph2ps on
        // xmm), half the speed of the f32 loop (bench_codegen_elementwise).
#if defined(__clang__)
#pragma clang loop vectorize_width(kVectorFloats) interleave_count(2)
#endif
        for (int64_t c = c0; c < end; ++c)
          acc[c] = Red::template apply<E, A>(acc[c], at(i + c));
      }
    }
  } else if constexpr (RR == 1) {
    // Eight reduced rows per pass over the accumulators (each still summed
    // in order): an eighth of their loads and stores. (f32 a row at a time,
    // prefetching as above: 0.8x memcpy instead of 0.9-1.05x.)
    constexpr int64_t rows = Reduced.extents[0], stride = Reduced.inStrides[0];
    constexpr int64_t kPass = 8;
    constexpr int64_t whole = rows / kPass * kPass; // compile-time bounds: GCC sees the trips
    for (int64_t r = 0; r < whole; r += kPass) {
      const int64_t i = base + r * stride;
      // (Asking for the next pass's rows ahead made it slower.)
#if defined(__clang__)
#pragma clang loop vectorize_width(kVectorFloats) interleave_count(2)
#endif
      for (int64_t c = 0; c < Width; ++c) {
        A x = acc[c];
        for (int64_t k = 0; k < kPass; ++k)
          x = Red::template apply<E, A>(x, at(i + k * stride + c));
        acc[c] = x;
      }
    }
    if constexpr (whole < rows)
      for (int64_t r = whole; r < rows; ++r)
        for (int64_t c = 0; c < Width; ++c)
          acc[c] = Red::template apply<E, A>(acc[c], at(base + r * stride + c));
  } else {
    forEach<RR, Reduced>(base, 0, [&](int64_t i, int64_t) {
      for (int64_t c = 0; c < Width; ++c)
        acc[c] = Red::template apply<E, A>(acc[c], at(i + c));
    });
  }
  for (int64_t c = 0; c < Width; ++c)
    storeAt(out, o + c, E::store(static_cast<typename E::Compute>(acc[c])));
}

/// `Kept` walks the output elements (input strides of the kept dims, output
/// dense strides); `Reduced` walks the reduced dims of one output element in
/// row-major order. Two shapes run vectorized: a row (the reduced elements
/// of an output contiguous), in lanes (reduceRow); and columns (the
/// innermost kept dim contiguous), kReduceColumns outputs at a time, each
/// in the interpreter's order.
template <typename E, typename Red, int RK, Walk<RK> Kept, int RR, Walk<RR> Reduced>
inline void reduce(const typename E::Storage *__restrict in, const typename E::Storage *init,
                   typename E::Storage *__restrict out) {
  using A = Accumulator<E>;
  const A start = static_cast<A>(E::load(loadAt(init, 0)));
  constexpr int64_t rowLength = Reduced.extents[RR - 1];
  constexpr int64_t columns = Kept.extents[RK - 1];
  // Complex sums take the plain walk: the vectorized shapes' loop pragmas
  // cannot apply to their pairs.
  if constexpr (!isBool<E> && !isComplex<E> && RR == 1 && Reduced.inStrides[0] == 1 &&
                rowLength >= kReduceLanes) {
    forEach<RK, Kept>(0, 0, [&](int64_t base, int64_t o) {
      const A row = reduceRow<E, Red, rowLength>(in + base);
      storeAt(out, o,
              E::store(static_cast<typename E::Compute>(Red::template apply<E, A>(start, row))));
    });
  } else if constexpr (!isComplex<E> && RK >= 1 && Kept.inStrides[RK - 1] == 1 &&
                       Kept.outStrides[RK - 1] == 1 && columns >= 8) {
    constexpr int64_t tail = columns % kReduceColumns;
    auto rows = [&](int64_t base, int64_t o) {
      for (int64_t c = 0; c + kReduceColumns <= columns; c += kReduceColumns)
        reduceColumns<E, Red, RR, Reduced, kReduceColumns>(in, base + c, start, out, o + c);
      if constexpr (tail > 0)
        reduceColumns<E, Red, RR, Reduced, tail>(in, base + columns - tail, start, out,
                                                 o + columns - tail);
    };
    if constexpr (RK == 1)
      rows(0, 0);
    else
      forEach<RK - 1, outerDims(Kept)>(0, 0, rows);
  } else {
    forEach<RK, Kept>(0, 0, [&](int64_t base, int64_t o) {
      A acc = start;
      forEach<RR, Reduced>(base, 0, [&](int64_t i, int64_t) {
        acc = Red::template apply<E, A>(acc, static_cast<A>(E::load(loadAt(in, i))));
      });
      storeAt(out, o, E::store(static_cast<typename E::Compute>(acc)));
    });
  }
}

/// Combines `count` buffers of N elements (`parts[k]`, in order) into `out`.
template <typename E, typename Red, int64_t N>
inline void combine(const typename E::Storage *const *parts, int64_t count,
                    typename E::Storage *__restrict out) {
  using A = Accumulator<E>;
  for (int64_t i = 0; i < N; ++i) {
    A acc = static_cast<A>(E::load(loadAt(parts[0], i)));
    for (int64_t k = 1; k < count; ++k)
      acc = Red::template apply<E, A>(acc, static_cast<A>(E::load(loadAt(parts[k], i))));
    storeAt(out, i, E::store(static_cast<typename E::Compute>(acc)));
  }
}

} // namespace shardgen::kernels

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
