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
          // Padding and the holes of lhs dilation hold 0 in the spec's
          // padded lhs: their terms are 0 * w (NaN for an infinite w).
          const int64_t spatialOffset = convWindowOffset<N, G>(o, w);
          const int64_t lhsOffset =
              batch * G.lhsBatchStride + firstFeature * G.lhsFeatureStride + spatialOffset;
          int64_t kernelOffset = f * G.kernelOutStride;
          for (int s = 0; s < N; ++s)
            kernelOffset += w[s] * G.kernelSpatialStride[s];
          for (int64_t i = 0; i < G.kernelIn; ++i) {
            const A x = spatialOffset < 0
                            ? A(0)
                            : A(E::load(loadAt(lhs, lhsOffset + i * G.lhsFeatureStride)));
            acc = math::add(
                acc,
                math::multiply(x, A(E::load(loadAt(rhs, kernelOffset + i * G.kernelInStride)))));
          }
        }
        int64_t outOffset = b * G.outBatchStride + f * G.outFeatureStride;
        for (int s = 0; s < N; ++s)
          outOffset += o[s] * G.outSpatialStride[s];
        storeAt(out, outOffset, R::store(acc));
      }
}

/// Where each of the MR output points of the tile at `row0` reads each
/// window position's `kernelIn` features (contiguous in the lhs: features
/// innermost): table[position * MR + r] is the lhs there, or `zeros` for
/// padding, the holes of lhs dilation and rows past the last (`rows`).
/// Positions in row-major order, the reversed window from its far end.
template <int N, ConvGeometry<N> G>
void windowSources(const float *lhs, const float *zeros, int64_t row0, int64_t rows,
                   const float **table) {
  constexpr int64_t points = countOf(G.outSpatial), positions = countOf(G.window);
  for (int64_t r = 0; r < kTileRows; ++r) {
    const int64_t row = row0 + r;
    if (row >= rows) {
      for (int64_t k = 0; k < positions; ++k)
        table[k * kTileRows + r] = zeros;
      continue;
    }
    const float *image = lhs + row / points * G.lhsBatchStride;
    int64_t o[N];
    for (int64_t rest = row % points, s = N - 1; s >= 0; --s) {
      o[s] = rest % G.outSpatial[s];
      rest /= G.outSpatial[s];
    }
    int64_t w[N] = {};
    for (int64_t k = 0; k < positions; ++k, nextIndex(w, G.window)) {
      const int64_t offset = convWindowOffset<N, G>(o, w);
      table[k * kTileRows + r] = offset >= 0 ? image + offset : zeros;
    }
  }
}

/// One MR x NR tile of the output: the blocked matmul's micro-kernel with
/// A read in place, each row from its window's sources, over the whole
/// depth (positions, then features) in registers; `panelB` is the packed
/// kernel's panel of the tile's NR output features.
template <int64_t Positions, int64_t InFeatures>
SHARDGEN_INLINE TileSums convolutionTile(const float *const *table,
                                         const float *__restrict panelB) {
  // The sums in local arrays, copied out at the end: GCC built a returned
  // TileSums in the caller's memory, which the loads of A (plain floats)
  // might alias, so it stored every sum after every FMA (2.8x slower).
  FloatVector lo[kTileRows] = {}, hi[kTileRows] = {};
  for (int64_t k = 0; k < Positions; ++k) {
    const float *source[kTileRows];
    for (int64_t r = 0; r < kTileRows; ++r)
      source[r] = table[k * kTileRows + r];
    const float *b = panelB + k * InFeatures * kTileCols;
    for (int64_t i = 0; i < InFeatures; ++i) {
      const FloatVector b0 = loadVector(b + i * kTileCols);
      const FloatVector b1 = loadVector(b + i * kTileCols + kVectorFloats);
      // GCC -O2 unrolls this late, after the tile's sums were given
      // stack slots (then every FMA stores); clang unrolls it anyway.
#pragma GCC unroll 8
      for (int64_t r = 0; r < kTileRows; ++r) {
        const float a = source[r][i];
        lo[r] = multiplyAddVector(a, b0, lo[r]);
        hi[r] = multiplyAddVector(a, b1, hi[r]);
      }
    }
  }
  TileSums tile;
  for (int64_t r = 0; r < kTileRows; ++r) {
    tile.lo[r] = lo[r];
    tile.hi[r] = hi[r];
  }
  return tile;
}

/// Output points per row block of convolutionLowered: kRowBlock, fewer
/// for fewer points, or for a window so large that their sources would
/// take more than 512 KiB (at least one tile); a multiple of MR.
constexpr int64_t convolutionBlockRows(int64_t rows, int64_t positions) {
  constexpr int64_t kSourcesPerBlock = 65536;
  int64_t block = kSourcesPerBlock / positions / kTileRows * kTileRows;
  block = block < kRowBlock ? block : kRowBlock;
  block = block > kTileRows ? block : kTileRows;
  const int64_t needed = (rows + kTileRows - 1) / kTileRows * kTileRows;
  return needed < block ? needed : block;
}

/// f32 convolution as a matmul without im2col (an implicit GEMM): A
/// [points, window * kernelIn] is the lhs windows of the output points
/// (batch, then spatial dims, row-major), read in place; B [window *
/// kernelIn, outFeatures] is the kernel (spatial dims, input, then output
/// features: HWIO), packed once into NR-wide panels of the whole depth;
/// C is the output (batch, spatial dims, then features: NHWC). Each output
/// element sums its window's positions in row-major order, each position's
/// features in order, in one f32 register (padding adds 0 * w, as the
/// spec's padded lhs does); the convolution's bound is a dot's. Row blocks
/// of kRowBlock points take every panel of B in turn, so a panel is
/// reused from cache across the block's tiles.
template <int N, ConvGeometry<N> G>
void convolutionLowered(const float *lhs, const float *rhs, float *out) {
  constexpr int64_t rows = G.outBatch * countOf(G.outSpatial);
  constexpr int64_t positions = countOf(G.window), features = G.outFeatures;
  constexpr int64_t depth = positions * G.kernelIn;
  constexpr int64_t blockRows = convolutionBlockRows(rows, positions);
  Scratch panels(roundUp(features, kTileCols) * depth * int64_t(sizeof(float)));
  Scratch zeroRun(G.kernelIn * int64_t(sizeof(float)));
  Scratch sources(blockRows * positions * int64_t(sizeof(const float *)));
  float *packedB = panels.as<float>();
  float *zeros = zeroRun.as<float>();
  const float **table = sources.as<const float *>();
  FloatPanels<F32>::packB<false>(rhs, features, depth, features, packedB);
  for (int64_t i = 0; i < G.kernelIn; ++i)
    zeros[i] = 0.0f;
  for (int64_t i0 = 0; i0 < rows; i0 += blockRows) {
    const int64_t height = rows - i0 < blockRows ? rows - i0 : blockRows;
    for (int64_t r0 = 0; r0 < height; r0 += kTileRows)
      windowSources<N, G>(lhs, zeros, i0 + r0, rows, table + r0 * positions);
    for (int64_t j0 = 0; j0 < features; j0 += kTileCols) {
      const int64_t cols = features - j0 < kTileCols ? features - j0 : kTileCols;
      for (int64_t r0 = 0; r0 < height; r0 += kTileRows) {
        const int64_t tileRows = height - r0 < kTileRows ? height - r0 : kTileRows;
        const TileSums tile =
            convolutionTile<positions, G.kernelIn>(table + r0 * positions, packedB + j0 * depth);
        float *c = out + (i0 + r0) * features + j0;
        if (tileRows == kTileRows && cols == kTileCols)
          storeTile<F32, true>(tile, c, features, tileRows, cols);
        else
          storeTile<F32, false>(tile, c, features, tileRows, cols);
      }
    }
  }
}

} // namespace shardgen::kernels
