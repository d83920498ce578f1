// sort and top_k. sort orders the slices along its dimension by the
// comparator, stably; top_k takes the k largest of each last-dim row.

#include <algorithm>
#include <numeric>

#include "compiler/interp/ElementFunctions.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/ScalarRegion.h"

namespace shardgen::interp {
namespace {

/// The merge sort's first runs; templates/kernels/sort.h uses the same.
constexpr int64_t kSortRun = 16;

/// The positions 0..n-1 ordered by `less` (a comparator of two positions),
/// stably: runs of kSortRun by insertion sort, then merges of neighbouring
/// runs, taking the right element only when it is less than the left one.
template <typename Less> std::vector<int64_t> sortedPositions(int64_t n, Less less) {
  std::vector<int64_t> order(static_cast<size_t>(n)), other(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (int64_t start = 0; start < n; start += kSortRun) {
    const int64_t end = std::min(start + kSortRun, n);
    for (int64_t i = start + 1; i < end; ++i) {
      const int64_t x = order[i];
      int64_t j = i;
      for (; j > start && less(x, order[j - 1]); --j)
        order[j] = order[j - 1];
      order[j] = x;
    }
  }
  for (int64_t width = kSortRun; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        other[k++] = less(order[j], order[i]) ? order[j++] : order[i++];
      while (i < mid)
        other[k++] = order[i++];
      while (j < hi)
        other[k++] = order[j++];
    }
    order.swap(other);
  }
  return order;
}

} // namespace

std::vector<Literal> evalSort(std::span<const Literal *const> inputs, int64_t dim,
                              const ScalarRegion &comparator) {
  const Shape &shape = inputs[0]->shape();
  const size_t count = inputs.size();
  std::vector<Literal> out;
  for (const Literal *input : inputs)
    out.emplace_back(input->type());
  const int64_t n = shape[dim];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (int64_t d = dim + 1; d < static_cast<int64_t>(shape.size()); ++d)
    inner *= shape[d];
  if (n == 0 || outer * inner == 0)
    return out;
  std::vector<ScalarBits> arguments(2 * count);
  ScalarBits isLess;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      const int64_t base = o * n * inner + in;
      // comparator(lhs_0, rhs_0, lhs_1, rhs_1, ...) = lhs < rhs
      auto less = [&](int64_t a, int64_t b) {
        for (size_t i = 0; i < count; ++i) {
          arguments[2 * i] = loadScalarBits(*inputs[i], base + a * inner);
          arguments[2 * i + 1] = loadScalarBits(*inputs[i], base + b * inner);
        }
        comparator.run(arguments, std::span(&isLess, 1));
        return isLess.isTrue();
      };
      const std::vector<int64_t> order = sortedPositions(n, less);
      for (int64_t p = 0; p < n; ++p)
        for (size_t i = 0; i < count; ++i)
          storeScalarBits(out[i], base + p * inner,
                          loadScalarBits(*inputs[i], base + order[p] * inner));
    }
  return out;
}

std::vector<Literal> evalTopK(const Literal &operand, int64_t k) {
  Shape shape = operand.shape();
  const int64_t n = shape.back();
  const int64_t rows = n == 0 ? 0 : operand.numElements() / n;
  shape.back() = k;
  Literal values(TensorType{operand.elementType(), shape});
  Literal indices(TensorType{ElementType::I32, shape});
  dispatchElementType(operand.elementType(), [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    const S *in = operand.as<S>();
    S *value = values.as<S>();
    int32_t *index = indices.as<int32_t>();
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t r = 0; r < rows; ++r) {
      const S *row = in + r * n;
      std::iota(order.begin(), order.end(), 0);
      // Descending in TOTALORDER, equal elements by their index.
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return totalOrderKey<T>(row[a]) > totalOrderKey<T>(row[b]);
      });
      for (int64_t j = 0; j < k; ++j) {
        value[r * k + j] = row[order[j]];
        index[r * k + j] = static_cast<int32_t>(order[j]);
      }
    }
  });
  return {std::move(values), std::move(indices)};
}

} // namespace shardgen::interp
