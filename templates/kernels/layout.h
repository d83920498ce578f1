// shardgen kernel library: data movement inside one device. Every shape op
// (transpose, broadcast_in_dim, slice, reverse, pad, concatenate, the
// dynamic slices) and every box copy of a transfer is a strided walk whose
// extents and strides are template constants (a dynamic slice adds its
// starts, read at run time, to the walk's offsets); the code generator
// merges contiguous dims first so the innermost loop is a long unit-stride
// copy.
#pragma once

#include "kernels/memory.h"

namespace shardgen::kernels {

/// A rank-R walk: element (i0..iR-1) of the walk reads
/// in[inOffset + sum ik * inStrides[k]] and writes
/// out[outOffset + sum ik * outStrides[k]] (strides in elements; an input
/// stride is 0 to broadcast, negative to reverse).
template <int R> struct Walk {
  int64_t extents[R];
  int64_t inStrides[R];
  int64_t outStrides[R];
  int64_t inOffset;
  int64_t outOffset;
};

template <int R, Walk<R> W, int D = 0, typename Fn>
SHARDGEN_INLINE void forEach(int64_t in, int64_t out, Fn &&fn) {
  if constexpr (D == R - 1) {
    for (int64_t i = 0; i < W.extents[D]; ++i)
      fn(in + i * W.inStrides[D], out + i * W.outStrides[D]);
  } else {
    for (int64_t i = 0; i < W.extents[D]; ++i)
      forEach<R, W, D + 1>(in + i * W.inStrides[D], out + i * W.outStrides[D], fn);
  }
}

/// Copies the walk's elements, its offsets moved by amounts known only at
/// run time (a dynamic slice's starts).
template <typename S, int R, Walk<R> W>
SHARDGEN_INLINE void shiftedCopy(const S *__restrict in, int64_t inShift, S *__restrict out,
                                 int64_t outShift) {
  forEach<R, W>(W.inOffset + inShift, W.outOffset + outShift,
                [&](int64_t i, int64_t o) { storeAt(out, o, loadAt(in, i)); });
}

/// Copies the walk's elements.
template <typename S, int R, Walk<R> W>
SHARDGEN_INLINE void stridedCopy(const S *__restrict in, S *__restrict out) {
  shiftedCopy<S, R, W>(in, 0, out, 0);
}

/// A start index of integer type I clamped to [0, last] as StableHLO clamps
/// it: every value of I, its minimum and maximum included, gives a start in
/// bounds.
template <typename I> SHARDGEN_INLINE int64_t clampIndex(I value, int64_t last) {
  if constexpr (static_cast<I>(-1) < static_cast<I>(0)) {
    if (value < 0)
      return 0;
  }
  return static_cast<uint64_t>(value) > static_cast<uint64_t>(last) ? last
                                                                    : static_cast<int64_t>(value);
}

/// A start index of a dynamic slice, read at run time, clamped to [0, Last].
template <typename I, int64_t Last> SHARDGEN_INLINE int64_t clampedStart(const I *index) {
  return clampIndex<I>(loadAt(index, 0), Last);
}

template <typename S, int64_t N> SHARDGEN_INLINE void fill(S *__restrict out, S value) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, value);
}

/// fill with the element at `value` (a buffer another kernel wrote).
template <typename S, int64_t N> SHARDGEN_INLINE void fillFrom(S *__restrict out, const S *value) {
  fill<S, N>(out, loadAt(value, 0));
}

template <typename S, int64_t N>
SHARDGEN_INLINE void copy(const S *__restrict in, S *__restrict out) {
  if constexpr (N > 0) // an empty piece's pointer may be null
    __builtin_memcpy(out, in, N * sizeof(S));
}

/// iota on a local piece: element i holds its index along the iota dim
/// ((i / Stride) % Size) plus the piece's global offset along that dim.
template <typename E, int64_t N, int64_t Stride, int64_t Size, int64_t Offset>
SHARDGEN_INLINE void iota(typename E::Storage *__restrict out) {
  using C = typename E::Compute;
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, E::store(static_cast<C>((i / Stride) % Size + Offset)));
}

/// bitcast_convert between i1 (a byte per element in buffers, a bit in
/// StableHLO) and a type of Bits bits: wide element i holds i1 elements
/// [i * Bits, (i + 1) * Bits), the first as its lowest bit.
template <typename W, int64_t Bits, int64_t N>
SHARDGEN_INLINE void packBits(const uint8_t *__restrict in, W *__restrict out) {
  for (int64_t i = 0; i < N; ++i) {
    uint64_t bits = 0;
    for (int64_t j = 0; j < Bits; ++j)
      bits |= static_cast<uint64_t>(loadAt(in, i * Bits + j) != 0) << j;
    W value;
    __builtin_memcpy(&value, &bits, sizeof(W)); // little endian: the low bytes
    storeAt(out, i, value);
  }
}

template <typename W, int64_t Bits, int64_t N>
SHARDGEN_INLINE void unpackBits(const W *__restrict in, uint8_t *__restrict out) {
  for (int64_t i = 0; i < N; ++i) {
    const W value = loadAt(in, i);
    uint64_t bits = 0;
    __builtin_memcpy(&bits, &value, sizeof(W));
    for (int64_t j = 0; j < Bits; ++j)
      storeAt(out, i * Bits + j, static_cast<uint8_t>((bits >> j) & 1));
  }
}

} // namespace shardgen::kernels
