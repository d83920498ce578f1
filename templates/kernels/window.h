// shardgen kernel library: the window ops on local pieces. reduce_window and
// select_and_scatter walk each window in row-major order of its positions,
// as the reference interpreter does (so exact operands give its bits);
// padding and the holes of base dilation read the init value (reduce_window)
// or are skipped (select_and_scatter). Convolution sums each output
// element's window and input features in the compute type. The geometry is
// a template argument: every extent and stride is a constant.
#pragma once

#include "kernels/dot.h"
#include "kernels/elementwise.h"
#include "kernels/layout.h"
#include "kernels/scratch.h"

namespace shardgen::kernels {

/// A window over R dims (R >= 1: a rank-0 op is given one dim of 1).
template <int R> struct WindowGeometry {
  int64_t in[R];             // input extents
  int64_t out[R];            // number of windows per dim
  int64_t size[R];           // window extents
  int64_t stride[R];         // window strides
  int64_t baseDilation[R];   // input dilation
  int64_t windowDilation[R]; // window dilation
  int64_t low[R];            // low padding (may be negative)
};

template <int R> constexpr int64_t countOf(const int64_t (&extents)[R]) {
  int64_t n = 1;
  for (int d = 0; d < R; ++d)
    n *= extents[d];
  return n;
}

/// The input offset window position `w` of window `o` reads, or -1 for
/// padding or a hole.
template <int R, WindowGeometry<R> G>
SHARDGEN_INLINE int64_t windowOffset(const int64_t (&o)[R], const int64_t (&w)[R]) {
  int64_t offset = 0, stride = 1;
  for (int d = R - 1; d >= 0; --d) {
    const int64_t q = o[d] * G.stride[d] + w[d] * G.windowDilation[d] - G.low[d];
    const int64_t dilated = (G.in[d] - 1) * G.baseDilation[d] + 1;
    if (q < 0 || q >= dilated || q % G.baseDilation[d] != 0)
      return -1;
    offset += q / G.baseDilation[d] * stride;
    stride *= G.in[d];
  }
  return offset;
}

/// Advances the row-major multi-index `index` within `extents`.
template <int R> SHARDGEN_INLINE void nextIndex(int64_t (&index)[R], const int64_t (&extents)[R]) {
  for (int d = R - 1; d >= 0; --d) {
    if (++index[d] < extents[d])
      return;
    index[d] = 0;
  }
}

/// Walks every window in row-major order: start(window), then fold(offset)
/// for each of its positions in row-major order (offset -1: padding or a
/// hole), then finish(window). reduce_window's generated loop folds its
/// inputs with its body here.
template <int R, WindowGeometry<R> G, typename Start, typename Fold, typename Finish>
SHARDGEN_INLINE void walkWindows(Start &&start, Fold &&fold, Finish &&finish) {
  constexpr int64_t windows = countOf(G.out), positions = countOf(G.size);
  int64_t o[R] = {};
  for (int64_t flat = 0; flat < windows; ++flat, nextIndex(o, G.out)) {
    start(flat);
    int64_t w[R] = {};
    for (int64_t k = 0; k < positions; ++k, nextIndex(w, G.size))
      fold(windowOffset<R, G>(o, w));
    finish(flat);
  }
}

/// select_and_scatter: per window (source element) the operand element
/// `Select` keeps (select(a, b) ? a : b over the window's elements inside
/// the operand) takes the source value through `Scatter`; every other
/// result element is the init value. `P` is i1's storage.
template <typename Select, typename Scatter, typename S, typename P, int R, WindowGeometry<R> G>
void selectAndScatter(const S *operand, const S *source, const S *init, S *out) {
  const S initValue = loadAt(init, 0);
  for (int64_t i = 0; i < countOf(G.in); ++i)
    storeAt(out, i, initValue);
  int64_t selected = -1;
  S best{};
  walkWindows<R, G>([&](int64_t) { selected = -1; },
                    [&](int64_t offset) {
                      if (offset < 0)
                        return;
                      const S x = loadAt(operand, offset);
                      P keep{};
                      if (selected >= 0)
                        Select::apply(best, x, keep);
                      if (selected < 0 || !keep) {
                        selected = offset;
                        best = x;
                      }
                    },
                    [&](int64_t window) {
                      if (selected < 0)
                        return; // a window of padding only selects nothing
                      S combined = loadAt(out, selected);
                      Scatter::apply(combined, loadAt(source, window), combined);
                      storeAt(out, selected, combined);
                    });
}

/// A convolution's geometry over N >= 1 spatial dims (a convolution without
/// spatial dims is given one of extent 1).
template <int N> struct ConvGeometry {
  int64_t outBatch, outFeatures, kernelIn;
  int64_t featureGroupSize, batchGroupSize; // output features per group
  int64_t lhsBatchStride, lhsFeatureStride, lhsSpatialStride[N], lhsSpatial[N];
  int64_t kernelInStride, kernelOutStride, kernelSpatialStride[N], window[N];
  int64_t outBatchStride, outFeatureStride, outSpatialStride[N], outSpatial[N];
  int64_t stride[N], lhsDilation[N], rhsDilation[N], low[N];
  bool reversed[N];
};

/// The lhs offset along the spatial dims that window position `w` of
/// output point `o` reads (the reversed window reads from its far end), or
/// -1 for padding and the holes of lhs dilation.
template <int N, ConvGeometry<N> G>
SHARDGEN_INLINE int64_t convWindowOffset(const int64_t (&o)[N], const int64_t (&w)[N]) {
  int64_t offset = 0;
  for (int s = 0; s < N; ++s) {
    const int64_t position = G.reversed[s] ? G.window[s] - 1 - w[s] : w[s];
    const int64_t q = o[s] * G.stride[s] + position * G.rhsDilation[s] - G.low[s];
    const int64_t dilated = (G.lhsSpatial[s] - 1) * G.lhsDilation[s] + 1;
    if (q < 0 || q >= dilated || q % G.lhsDilation[s] != 0)
      return -1;
    offset += q / G.lhsDilation[s] * G.lhsSpatialStride[s];
  }
  return offset;
}

/// convolution by direct loops: per output element, the sum over its
/// window's positions (row-major) and the group's input features. The
/// operands (E) widen to the result's type (R) first.
template <typename E, typename R, int N, ConvGeometry<N> G>
void convolution(const typename E::Storage *lhs, const typename E::Storage *rhs,
                 typename R::Storage *out) {
  using A = typename R::Compute;
  constexpr int64_t points = countOf(G.outSpatial), positions = countOf(G.window);
  int64_t o[N] = {};
  for (int64_t p = 0; p < points; ++p, nextIndex(o, G.outSpatial))
    for (int64_t b = 0; b < G.outBatch; ++b)
      for (int64_t f = 0; f < G.outFeatures; ++f) {
        const int64_t batch = b + (f / G.batchGroupSize) * G.outBatch;
        const int64_t firstFeature = (f / G.featureGroupSize) * G.kernelIn;
        A acc = A(0);
        int64_t w[N] = {};
        for (int64_t k = 0; k < positions; ++k, nextIndex(w, G.window)) {
          const int64_t spatialOffset = convWindowOffset<N, G>(o, w);
          if (spatialOffset < 0)
            continue;
          const int64_t lhsOffset =
              batch * G.lhsBatchStride + firstFeature * G.lhsFeatureStride + spatialOffset;
          int64_t kernelOffset = f * G.kernelOutStride;
          for (int s = 0; s < N; ++s)
            kernelOffset += w[s] * G.kernelSpatialStride[s];
          for (int64_t i = 0; i < G.kernelIn; ++i)
            acc = math::add(
                acc, math::multiply(A(E::load(loadAt(lhs, lhsOffset + i * G.lhsFeatureStride))),
                                    A(E::load(loadAt(rhs, kernelOffset + i * G.kernelInStride)))));
        }
        int64_t outOffset = b * G.outBatchStride + f * G.outFeatureStride;
        for (int s = 0; s < N; ++s)
          outOffset += o[s] * G.outSpatialStride[s];
        storeAt(out, outOffset, R::store(acc));
      }
}

/// Output points lowered per matmul in convolutionLowered: a multiple of
/// the matmul's row block; the matmul packs the kernel once per chunk, so
/// larger chunks pack it less often (768 points of a 3x3x64 window: 1.7 MB
/// lowered; 384 and 1536 measured slower, bench/conv_vs_torch.py).
inline constexpr int64_t kLoweredRows = 8 * kRowBlock;

/// Writes the lowered lhs rows [row0, row0 + rows) into `lowered`: per
/// output point (batch, then spatial, row-major) its window's positions in
/// row-major order, each the point's `kernelIn` features (contiguous in the
/// lhs: features innermost), zeros for padding and holes.
template <typename S, int N, ConvGeometry<N> G>
void lowerRows(const S *lhs, S *lowered, int64_t row0, int64_t rows) {
  constexpr int64_t points = countOf(G.outSpatial), positions = countOf(G.window);
  int64_t b = row0 / points, point = row0 % points, o[N] = {};
  for (int64_t rest = point, s = N - 1; s >= 0; --s) {
    o[s] = rest % G.outSpatial[s];
    rest /= G.outSpatial[s];
  }
  for (int64_t r = 0; r < rows; ++r) {
    S *row = lowered + r * positions * G.kernelIn;
    int64_t w[N] = {};
    for (int64_t k = 0; k < positions; ++k, nextIndex(w, G.window)) {
      const int64_t offset = convWindowOffset<N, G>(o, w);
      if (offset >= 0)
        __builtin_memcpy(row + k * G.kernelIn, lhs + b * G.lhsBatchStride + offset,
                         G.kernelIn * sizeof(S));
      else
        __builtin_memset(row + k * G.kernelIn, 0, G.kernelIn * sizeof(S));
    }
    nextIndex(o, G.outSpatial);
    if (++point == points) {
      point = 0;
      ++b;
    }
  }
}

/// f32 convolution lowered to the blocked matmul (im2col): the lhs windows
/// of kLoweredRows output points at a time become the rows of A [points,
/// window * kernelIn], the kernel (spatial dims, input, then output
/// features: HWIO) is B [window * kernelIn, outFeatures] as it lies, and C
/// is the output (batch, spatial dims, then features: NHWC). The matmul
/// sums in its own order (the convolution's bound is a dot's).
template <int N, ConvGeometry<N> G>
void convolutionLowered(const float *lhs, const float *rhs, float *out) {
  constexpr int64_t rows = G.outBatch * countOf(G.outSpatial);
  constexpr int64_t depth = countOf(G.window) * G.kernelIn;
  constexpr int64_t chunk = rows < kLoweredRows ? rows : kLoweredRows;
  constexpr int64_t tail = rows % chunk;
  Scratch lowered(chunk * depth * int64_t(sizeof(float)));
  float *a = lowered.as<float>();
  for (int64_t row0 = 0; row0 + chunk <= rows; row0 += chunk) {
    lowerRows<float, N, G>(lhs, a, row0, chunk);
    matmulBlocked<F32, chunk, G.outFeatures, depth>(a, rhs, out + row0 * G.outFeatures);
  }
  if constexpr (tail > 0) {
    lowerRows<float, N, G>(lhs, a, rows - tail, tail);
    matmulBlocked<F32, tail, G.outFeatures, depth>(a, rhs, out + (rows - tail) * G.outFeatures);
  }
}

} // namespace shardgen::kernels
