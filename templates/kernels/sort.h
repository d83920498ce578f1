// shardgen kernel library: sort and top_k.
//
// sort orders each slice through a permutation of its positions: a merge
// sort (runs of kSortRun by insertion, then merges of neighbouring runs,
// the right element taken only when the comparator says it is less), the
// schedule of the reference interpreter's (compiler/interp/Sort.cpp), so
// both give the same result for any comparator, a strict weak order or not;
// every access stays inside the slice whatever the comparator returns.
// top_k keeps each row's k largest in a heap ordered by (TOTALORDER key
// descending, index ascending): a total order, so the result is the stable
// sort's first k, found in O(n log k).
#pragma once

#include "kernels/memory.h"
#include "kernels/scratch.h"

namespace shardgen::kernels {

inline constexpr int64_t kSortRun = 16;

/// The positions 0..n-1 ordered by less(a, b), stably; `order` and `other`
/// hold n entries each; returns the one holding the result.
template <typename Index, typename Less>
SHARDGEN_INLINE Index *sortPositions(int64_t n, Index *order, Index *other, Less &&less) {
  for (int64_t i = 0; i < n; ++i)
    order[i] = static_cast<Index>(i);
  for (int64_t start = 0; start < n; start += kSortRun) {
    const int64_t end = start + kSortRun < n ? start + kSortRun : n;
    for (int64_t i = start + 1; i < end; ++i) {
      const Index x = order[i];
      int64_t j = i;
      for (; j > start && less(x, order[j - 1]); --j)
        order[j] = order[j - 1];
      order[j] = x;
    }
  }
  for (int64_t width = kSortRun; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = lo + width < n ? lo + width : n;
      const int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        other[k++] = less(order[j], order[i]) ? order[j++] : order[i++];
      while (i < mid)
        other[k++] = order[i++];
      while (j < hi)
        other[k++] = order[j++];
    }
    Index *swap = order;
    order = other;
    other = swap;
  }
  return order;
}

/// Sorts the Outer x Inner slices of N elements (the sorted dim between
/// them): less(base, a, b) compares positions a and b of the slice at
/// element `base`, move(base, to, from) writes the results' element `to`
/// from the inputs' element `from`.
template <int64_t Outer, int64_t N, int64_t Inner, typename Index, typename Less, typename Move>
SHARDGEN_INLINE void sortSlices(Less &&less, Move &&move) {
  if constexpr (Outer * N * Inner > 0) {
    Scratch scratch(2 * N * static_cast<int64_t>(sizeof(Index)));
    Index *order = scratch.as<Index>(), *other = order + N;
    for (int64_t o = 0; o < Outer; ++o)
      for (int64_t i = 0; i < Inner; ++i) {
        const int64_t base = o * N * Inner + i;
        const Index *sorted = sortPositions<Index>(
            N, order, other, [&](Index a, Index b) { return less(base, a, b); });
        for (int64_t p = 0; p < N; ++p)
          move(base, p, static_cast<int64_t>(sorted[p]));
      }
  }
}

/// Whether (key a, index i) comes before (key b, index j) in top_k's order:
/// the larger key first, on equal keys the lower index.
template <typename Key> SHARDGEN_INLINE bool topKBefore(Key a, int32_t i, Key b, int32_t j) {
  return a > b || (a == b && i < j);
}

/// chlo.top_k on Rows rows of N elements of E: per row the K first in
/// topKBefore's order, in that order, and their indices.
template <typename E, int64_t Rows, int64_t N, int64_t K>
SHARDGEN_INLINE void topK(const typename E::Storage *in, typename E::Storage *__restrict values,
                          int32_t *__restrict indices) {
  using Key = decltype(TotalOrder<E>::key(typename E::Storage{}));
  if constexpr (Rows * K > 0) {
    // A heap of the K best so far, the worst at its root.
    const int64_t keyBytes = (K * static_cast<int64_t>(sizeof(Key)) + 7) / 8 * 8;
    Scratch scratch(keyBytes + K * static_cast<int64_t>(sizeof(int32_t)));
    Key *keys = scratch.as<Key>();
    int32_t *positions = reinterpret_cast<int32_t *>(scratch.data + keyBytes);
    auto worse = [&](int64_t a, int64_t b) { // a after b
      return topKBefore(keys[b], positions[b], keys[a], positions[a]);
    };
    auto siftDown = [&](int64_t at, int64_t size) {
      for (;;) {
        int64_t worst = at;
        const int64_t left = 2 * at + 1, right = left + 1;
        if (left < size && worse(left, worst))
          worst = left;
        if (right < size && worse(right, worst))
          worst = right;
        if (worst == at)
          return;
        Key key = keys[at];
        keys[at] = keys[worst];
        keys[worst] = key;
        int32_t position = positions[at];
        positions[at] = positions[worst];
        positions[worst] = position;
        at = worst;
      }
    };
    for (int64_t r = 0; r < Rows; ++r) {
      const typename E::Storage *row = in + r * N;
      for (int64_t j = 0; j < K; ++j) {
        keys[j] = TotalOrder<E>::key(loadAt(row, j));
        positions[j] = static_cast<int32_t>(j);
      }
      for (int64_t j = K / 2; j-- > 0;)
        siftDown(j, K);
      for (int64_t j = K; j < N; ++j) {
        const Key key = TotalOrder<E>::key(loadAt(row, j));
        // A later element with an equal key comes after the root: only a
        // larger one enters.
        if (key > keys[0]) {
          keys[0] = key;
          positions[0] = static_cast<int32_t>(j);
          siftDown(0, K);
        }
      }
      // Take the worst out K times: the output from its end to its front.
      for (int64_t size = K; size > 0; --size) {
        storeAt(indices, r * K + size - 1, positions[0]);
        storeAt(values, r * K + size - 1, loadAt(row, positions[0]));
        keys[0] = keys[size - 1];
        positions[0] = positions[size - 1];
        siftDown(0, size - 1);
      }
    }
  }
}

} // namespace shardgen::kernels
