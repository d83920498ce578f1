// shardgen kernel library: sort and top_k.
//
// sort copies each slice's elements into records (one field per input) and
// sorts those: a merge sort (runs of kSortRun by insertion, then merges of
// neighbouring runs, the right record taken only when the comparator says it
// is less), the schedule of the reference interpreter's
// (compiler/interp/Sort.cpp), so both give the same result for any
// comparator, a strict weak order or not; every access stays inside the
// slice whatever the comparator returns.
// top_k keeps each row's k largest in a heap ordered by (TOTALORDER key
// descending, index ascending): a total order, so the result is the stable
// sort's first k, found in O(n log k).
#pragma once

#include "kernels/memory.h"
#include "kernels/scratch.h"

namespace shardgen::kernels {

inline constexpr int64_t kSortRun = 16;

/// Sorts the records `order[0..n)` by less(a, b), stably: insertion-sorted
/// runs of kSortRun, then merges of neighbouring runs into `other` and back
/// (the right record taken only when less than the left one). Returns the
/// array holding the result. Records move by value: a merge reads both runs
/// and writes its output in order, whatever the comparator returns.
template <typename Record, typename Less>
SHARDGEN_INLINE Record *sortRecords(int64_t n, Record *order, Record *other, Less &&less) {
  for (int64_t start = 0; start < n; start += kSortRun) {
    const int64_t end = start + kSortRun < n ? start + kSortRun : n;
    for (int64_t i = start + 1; i < end; ++i) {
      const Record x = order[i];
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
      while (i < mid && j < hi) {
        const bool right = less(order[j], order[i]);
        other[k++] = right ? order[j] : order[i];
        j += right;
        i += !right;
      }
      while (i < mid)
        other[k++] = order[i++];
      while (j < hi)
        other[k++] = order[j++];
    }
    Record *swap = order;
    order = other;
    other = swap;
  }
  return order;
}

/// Sorts the Outer x Inner slices of N elements (the sorted dim between
/// them): load(at, record) reads the inputs' elements at `at` into a
/// record, store(at, record) writes it to the results, less(a, b) is the
/// comparator on two records.
template <int64_t Outer, int64_t N, int64_t Inner, typename Record, typename Less, typename Load,
          typename Store>
SHARDGEN_INLINE void sortSlices(Less &&less, Load &&load, Store &&store) {
  if constexpr (Outer * N * Inner > 0) {
    Scratch scratch(2 * N * static_cast<int64_t>(sizeof(Record)));
    Record *order = scratch.as<Record>(), *other = order + N;
    for (int64_t o = 0; o < Outer; ++o)
      for (int64_t i = 0; i < Inner; ++i) {
        const int64_t base = o * N * Inner + i;
        for (int64_t p = 0; p < N; ++p)
          load(base + p * Inner, order[p]);
        const Record *sorted = sortRecords(N, order, other, less);
        for (int64_t p = 0; p < N; ++p)
          store(base + p * Inner, sorted[p]);
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
