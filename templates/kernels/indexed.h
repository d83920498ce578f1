// shardgen kernel library: gather and scatter. Both walk the batch
// positions of their slices (gather's result, scatter's updates); at each
// they read the start indices (an integer type I, read at run time) and
// move one window between the operand and the slices. gather clamps each
// start so the window lies inside the operand (then copies it as a strided
// walk); scatter keeps the part of the window that lies inside, per dim,
// and combines each update element into its place with the update
// computation (a scalar body's struct). Plans are template constants.
#pragma once

#include "kernels/layout.h"

namespace shardgen::kernels {

/// The batch dims of the slices: per dim its extent and strides in the
/// indices, the operand (an explicit batching dim's; 0 otherwise) and the
/// slices. Arrays hold at least one entry (a plan of no batch dims, B = 0,
/// walks one position).
template <int B> struct IndexBatch {
  int64_t extents[B > 0 ? B : 1];
  int64_t indexStrides[B > 0 ? B : 1];
  int64_t operandStrides[B > 0 ? B : 1];
  int64_t sliceStrides[B > 0 ? B : 1];
};

/// The start indices: index k is read at `offsets[k]` from a batch
/// position's first index and moves operand dim `dims[k]`, whose stride is
/// `strides[k]`; gather clamps it to [0, last[k]] (global), scatter keeps
/// the window elements whose place along the dim is in [0, sizes[k]).
/// A gather whose operand is sharded along an indexed dim (`partial`: the
/// devices' results are summed) reads a start in its piece, [first[k],
/// first[k] + limit[k]], and writes the sum's identity for any other. A
/// scatter's input may be sharded along an inserted window dim: its piece,
/// from first[k], takes the updates that land in it.
template <int K> struct IndexStarts {
  int64_t offsets[K > 0 ? K : 1];
  int64_t strides[K > 0 ? K : 1];
  int64_t last[K > 0 ? K : 1];  // gather: global dim - slice size
  int64_t first[K > 0 ? K : 1]; // the piece's global offset
  int64_t limit[K > 0 ? K : 1]; // gather: the piece's last start
  int64_t sizes[K > 0 ? K : 1]; // scatter: the dim's size
  int64_t dims[K > 0 ? K : 1];  // scatter: the operand dim
  bool partial;
};

template <int B, IndexBatch<B> P, int D = 0, typename Fn>
SHARDGEN_INLINE void forEachBatch(int64_t index, int64_t operand, int64_t slice, Fn &&fn) {
  if constexpr (D >= B) {
    fn(index, operand, slice);
  } else {
    for (int64_t i = 0; i < P.extents[D]; ++i)
      forEachBatch<B, P, D + 1>(index + i * P.indexStrides[D], operand + i * P.operandStrides[D],
                                slice + i * P.sliceStrides[D], fn);
  }
}

/// Rows a row gather asks for ahead of the one it copies: random rows of a
/// large table come from memory, and one core's prefetcher keeps too few
/// lines in flight (an embedding lookup: bench_codegen_gather).
inline constexpr int64_t kGatherAheadRows = 8;

/// gather of whole contiguous rows at one index each (an embedding
/// lookup): each row copied, the lines of a row kGatherAheadRows later
/// asked for meanwhile.
template <typename S, typename I, IndexBatch<1> Batch, IndexStarts<1> Starts, int64_t Row>
SHARDGEN_INLINE void gatherRows(const S *__restrict operand, const I *__restrict indices,
                                S *__restrict result) {
  constexpr int64_t rows = Batch.extents[0];
  constexpr bool kStream = rows * Row * int64_t(sizeof(S)) >= kStreamingBytes;
  auto rowAt = [&](int64_t b) {
    return clampIndex<I>(loadAt(indices, b * Batch.indexStrides[0] + Starts.offsets[0]),
                         Starts.last[0]) *
               Starts.strides[0] +
           b * Batch.operandStrides[0];
  };
  for (int64_t b = 0; b < rows; ++b) {
    if (b + kGatherAheadRows < rows) {
      const auto *ahead = reinterpret_cast<const char *>(operand + rowAt(b + kGatherAheadRows));
      for (int64_t at = 0; at < Row * int64_t(sizeof(S)); at += 64)
        __builtin_prefetch(ahead + at);
    }
    const S *from = operand + rowAt(b);
    S *to = result + b * Batch.sliceStrides[0];
    if constexpr (kStream)
      streamCopy(to, from, Row * int64_t(sizeof(S)));
    else
      copy<S, Row>(from, to);
  }
  if constexpr (kStream)
    streamFence();
}

/// gather: at each batch position the window `Window` (the slice, in the
/// operand's and the result's strides) copied from its clamped start; a
/// partial gather writes `Zero` (the sum's identity: -0.0 for floats)
/// where the start lies outside its piece.
template <typename S, typename I, int B, IndexBatch<B> Batch, int K, IndexStarts<K> Starts, int R,
          Walk<R> Window, S Zero>
SHARDGEN_INLINE void gather(const S *__restrict operand, const I *__restrict indices,
                            S *__restrict result) {
  if constexpr (B == 1 && K == 1 && R == 1 && !Starts.partial && Window.inStrides[0] == 1 &&
                Window.outStrides[0] == 1) {
    gatherRows<S, I,
               IndexBatch<1>{{Batch.extents[0]},
                             {Batch.indexStrides[0]},
                             {Batch.operandStrides[0]},
                             {Batch.sliceStrides[0]}},
               IndexStarts<1>{{Starts.offsets[0]},
                              {Starts.strides[0]},
                              {Starts.last[0]},
                              {Starts.first[0]},
                              {Starts.limit[0]},
                              {Starts.sizes[0]},
                              {Starts.dims[0]},
                              false},
               Window.extents[0]>(operand, indices, result);
    return;
  }
  forEachBatch<B, Batch>(0, 0, 0, [&](int64_t index, int64_t base, int64_t slice) {
    bool owned = true;
    for (int k = 0; k < K; ++k) {
      const int64_t start =
          clampIndex<I>(loadAt(indices, index + Starts.offsets[k]), Starts.last[k]);
      if constexpr (Starts.partial) {
        const int64_t local = start - Starts.first[k];
        owned = owned && local >= 0 && local <= Starts.limit[k];
        base += (owned ? local : 0) * Starts.strides[k];
      } else {
        base += start * Starts.strides[k];
      }
    }
    if (!owned)
      forEach<R, Window>(0, slice, [&](int64_t, int64_t o) { storeAt(result, o, Zero); });
    else if constexpr (R == 1 && Window.inStrides[0] == 1 && Window.outStrides[0] == 1)
      copy<S, Window.extents[0]>(operand + base, result + slice); // a row: one memcpy
    else
      shiftedCopy<S, R, Window>(operand, base, result, slice);
  });
}

/// A scatter window's part inside the operand: per operand dim the window
/// positions [lo, hi) to visit.
template <int R> struct WindowRange {
  int64_t lo[R > 0 ? R : 1];
  int64_t hi[R > 0 ? R : 1];
};

/// The window elements of `range` (`Window`: per operand dim the window's
/// extent and its strides in the updates (in) and the operand (out)).
template <int R, Walk<R> Window, int D = 0, typename Fn>
SHARDGEN_INLINE void forEachInRange(const WindowRange<R> &range, int64_t update, int64_t place,
                                    Fn &&fn) {
  if constexpr (D >= R) {
    fn(update, place);
  } else if constexpr (D == R - 1) {
    // One window's places are distinct: the innermost dim vectorizes.
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
    for (int64_t i = range.lo[D]; i < range.hi[D]; ++i)
      fn(update + i * Window.inStrides[D], place + i * Window.outStrides[D]);
  } else {
    for (int64_t i = range.lo[D]; i < range.hi[D]; ++i)
      forEachInRange<R, Window, D + 1>(range, update + i * Window.inStrides[D],
                                       place + i * Window.outStrides[D], fn);
  }
}

/// The places of a scatter: at each batch position, each update element
/// whose place lies inside the operand, `visit(update, place)` (offsets in
/// the updates and the operand), in row-major order of the window; batch
/// positions in row-major order.
template <typename I, int B, IndexBatch<B> Batch, int K, IndexStarts<K> Starts, int R,
          Walk<R> Window, typename Visit>
SHARDGEN_INLINE void forEachScatterPlace(const I *__restrict indices, Visit &&visit) {
  forEachBatch<B, Batch>(0, 0, 0, [&](int64_t index, int64_t base, int64_t slice) {
    WindowRange<R> range;
    for (int d = 0; d < R; ++d) {
      range.lo[d] = 0;
      range.hi[d] = Window.extents[d];
    }
    for (int k = 0; k < K; ++k) {
      const I value = loadAt(indices, index + Starts.offsets[k]);
      const int64_t size = Starts.sizes[k], window = Window.extents[Starts.dims[k]];
      // A ui64 of 2^62 or more is past every end (and may not fit int64).
      if constexpr (static_cast<I>(-1) > static_cast<I>(0)) {
        if (static_cast<uint64_t>(value) >= uint64_t{1} << 62)
          return;
      }
      // Nothing lands at a start of -window or less; past it, subtracting the
      // piece's offset cannot overflow.
      if (static_cast<int64_t>(value) <= -window)
        return;
      const int64_t start = static_cast<int64_t>(value) - Starts.first[k];
      if (start >= size || start <= -window)
        return;
      int64_t &lo = range.lo[Starts.dims[k]], &hi = range.hi[Starts.dims[k]];
      lo = start < 0 ? -start : 0;
      hi = size - start < window ? size - start : window;
      base += start * Starts.strides[k];
    }
    forEachInRange<R, Window>(range, slice, base, visit);
  });
}

/// scatter of one input (the result already holds the input): each update
/// element whose place lies inside the operand is combined into it,
/// `Combine::apply(current, update, combined)` (forEachScatterPlace's order).
/// Several inputs: the generated code visits the places itself.
template <typename S, typename I, typename Combine, int B, IndexBatch<B> Batch, int K,
          IndexStarts<K> Starts, int R, Walk<R> Window>
SHARDGEN_INLINE void scatter(const I *__restrict indices, const S *__restrict updates,
                             S *__restrict result) {
  forEachScatterPlace<I, B, Batch, K, Starts, R, Window>(indices, [&](int64_t u, int64_t o) {
    S combined;
    Combine::apply(loadAt(result, o), loadAt(updates, u), combined);
    storeAt(result, o, combined);
  });
}

} // namespace shardgen::kernels
