// shardgen kernel library: dot_general as a batched matrix product
// C[b] = A[b] x B[b] with A [M, K], B [K, N], C [M, N], all row-major and
// dense (the code generator transposes operands into this form first).
//
// f32 runs a blocked kernel (BLIS-style): B is packed into KC x NR panels and
// A into MR x KC panels so the micro-kernel streams both from cache, and an
// MR x NR tile of C lives in vector registers across the whole KC loop.
// Other types use a plain loop that accumulates in the compute type.
#pragma once

#include "kernels/memory.h"

namespace shardgen::kernels {

#if defined(__AVX512F__)
inline constexpr int64_t kVectorFloats = 16;
inline constexpr int64_t kTileRows = 8;
#elif defined(__AVX__)
inline constexpr int64_t kVectorFloats = 8;
inline constexpr int64_t kTileRows = 6;
#else
// SSE only: wider vectors would be emulated, and passing them between
// functions changes the ABI (GCC and clang warn).
inline constexpr int64_t kVectorFloats = 4;
inline constexpr int64_t kTileRows = 6;
#endif
typedef float FloatVector __attribute__((vector_size(kVectorFloats * 4), aligned(4)));

inline constexpr int64_t kTileCols = 2 * kVectorFloats; // NR
inline constexpr int64_t kDepthBlock = 256;             // KC
inline constexpr int64_t kRowBlock = 96;                // MC (a multiple of MR)

SHARDGEN_INLINE FloatVector loadVector(const float *p) {
  FloatVector v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
SHARDGEN_INLINE void storeVector(float *p, FloatVector v) { __builtin_memcpy(p, &v, sizeof v); }

/// acc[MR x NR] += packedA[kc x MR] * packedB[kc x NR], then added into C
/// (only the `rows` x `cols` part that exists).
template <bool Full>
SHARDGEN_INLINE void microKernel(int64_t kc, const float *__restrict packedA,
                                 const float *__restrict packedB, float *c, int64_t ldc,
                                 int64_t rows, int64_t cols) {
  FloatVector acc0[kTileRows] = {}, acc1[kTileRows] = {};
  for (int64_t k = 0; k < kc; ++k) {
    const FloatVector b0 = loadVector(packedB + k * kTileCols);
    const FloatVector b1 = loadVector(packedB + k * kTileCols + kVectorFloats);
    for (int64_t r = 0; r < kTileRows; ++r) {
      const float a = packedA[k * kTileRows + r];
      acc0[r] += a * b0;
      acc1[r] += a * b1;
    }
  }
  if constexpr (Full) {
    for (int64_t r = 0; r < kTileRows; ++r) {
      storeVector(c + r * ldc, loadVector(c + r * ldc) + acc0[r]);
      storeVector(c + r * ldc + kVectorFloats, loadVector(c + r * ldc + kVectorFloats) + acc1[r]);
    }
  } else {
    float tile[kTileRows][kTileCols];
    for (int64_t r = 0; r < kTileRows; ++r) {
      storeVector(tile[r], acc0[r]);
      storeVector(tile[r] + kVectorFloats, acc1[r]);
    }
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < cols; ++j)
        storeAt(c, r * ldc + j, loadAt(c, r * ldc + j) + tile[r][j]);
  }
}

/// Packs B[k0.., j0..] (kc x nc of a row-major [K, N]) into NR-wide panels,
/// zero-padding the last one.
inline void packB(const float *b, int64_t ldb, int64_t kc, int64_t nc, float *__restrict packed) {
  for (int64_t j0 = 0; j0 < nc; j0 += kTileCols) {
    const int64_t cols = nc - j0 < kTileCols ? nc - j0 : kTileCols;
    for (int64_t k = 0; k < kc; ++k) {
      const float *row = b + k * ldb + j0;
      for (int64_t j = 0; j < kTileCols; ++j)
        packed[k * kTileCols + j] = j < cols ? loadAt(row, j) : 0.0f;
    }
    packed += kc * kTileCols;
  }
}

/// Packs A[i0.., k0..] (mc x kc of a row-major [M, K]) into MR-tall panels,
/// k-major inside a panel, zero-padding the last one.
inline void packA(const float *a, int64_t lda, int64_t mc, int64_t kc, float *__restrict packed) {
  for (int64_t i0 = 0; i0 < mc; i0 += kTileRows) {
    const int64_t rows = mc - i0 < kTileRows ? mc - i0 : kTileRows;
    for (int64_t k = 0; k < kc; ++k)
      for (int64_t r = 0; r < kTileRows; ++r)
        packed[k * kTileRows + r] = r < rows ? loadAt(a, (i0 + r) * lda + k) : 0.0f;
    packed += kc * kTileRows;
  }
}

inline int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// A dot without an epilogue: C is the product.
struct NoEpilogue {};

/// Applies a fused epilogue to the rows x cols block of C at `c` whose first
/// element is element `index` of the whole result (column `col`):
/// C = epilogue(i, column, C) element by element, while the block is in cache.
template <typename S, typename Epilogue>
SHARDGEN_INLINE void applyEpilogue(S *c, int64_t ldc, int64_t rows, int64_t cols, int64_t index,
                                   int64_t col, const Epilogue &epilogue) {
  if constexpr (!__is_same(Epilogue, NoEpilogue)) {
    for (int64_t r = 0; r < rows; ++r) {
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
      for (int64_t j = 0; j < cols; ++j)
        storeAt(c, r * ldc + j, epilogue(index + r * ldc + j, col + j, loadAt(c, r * ldc + j)));
    }
  }
}

/// C[M, N] = A[M, K] x B[K, N] for f32 (C is overwritten), then the epilogue
/// on each tile once its last depth block is added (`first`: the index of
/// C's first element in the whole result).
template <int64_t M, int64_t N, int64_t K, typename Epilogue = NoEpilogue>
void matmulF32(const float *a, const float *b, float *__restrict c, int64_t first = 0,
               const Epilogue &epilogue = {}) {
  for (int64_t i = 0; i < M * N; ++i)
    storeAt(c, i, 0.0f);
  if constexpr (M == 0 || N == 0 || K == 0) {
    applyEpilogue(c, N, M, N, first, 0, epilogue);
  } else {
    constexpr int64_t kc0 = K < kDepthBlock ? K : kDepthBlock;
    constexpr int64_t mc0 = M < kRowBlock ? M : kRowBlock;
    float *packedB = new float[roundUp(N, kTileCols) * kc0];
    float *packedA = new float[roundUp(mc0, kTileRows) * kc0];
    for (int64_t p0 = 0; p0 < K; p0 += kDepthBlock) {
      const int64_t kc = K - p0 < kDepthBlock ? K - p0 : kDepthBlock;
      packB(b + p0 * N, N, kc, N, packedB);
      for (int64_t i0 = 0; i0 < M; i0 += kRowBlock) {
        const int64_t mc = M - i0 < kRowBlock ? M - i0 : kRowBlock;
        packA(a + i0 * K + p0, K, mc, kc, packedA);
        for (int64_t j0 = 0; j0 < N; j0 += kTileCols) {
          const int64_t cols = N - j0 < kTileCols ? N - j0 : kTileCols;
          const float *panelB = packedB + (j0 / kTileCols) * kc * kTileCols;
          for (int64_t r0 = 0; r0 < mc; r0 += kTileRows) {
            const int64_t rows = mc - r0 < kTileRows ? mc - r0 : kTileRows;
            const float *panelA = packedA + (r0 / kTileRows) * kc * kTileRows;
            float *tile = c + (i0 + r0) * N + j0;
            if (rows == kTileRows && cols == kTileCols)
              microKernel<true>(kc, panelA, panelB, tile, N, rows, cols);
            else
              microKernel<false>(kc, panelA, panelB, tile, N, rows, cols);
            if (p0 + kc == K)
              applyEpilogue(tile, N, rows, cols, first + (i0 + r0) * N + j0, j0, epilogue);
          }
        }
      }
    }
    delete[] packedA;
    delete[] packedB;
  }
}

/// Any element type: a plain i-k-j loop accumulating in the compute type
/// (f16/bf16 in f32), rounding once per element of C.
template <typename E, int64_t M, int64_t N, int64_t K>
void matmulGeneric(const typename E::Storage *a, const typename E::Storage *b,
                   typename E::Storage *__restrict c) {
  using C = typename E::Compute;
  C *acc = new C[N > 0 ? N : 1];
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j)
      acc[j] = C(0);
    for (int64_t k = 0; k < K; ++k) {
      const C x = E::load(loadAt(a, i * K + k));
      for (int64_t j = 0; j < N; ++j) {
        if constexpr (isBool<E>)
          acc[j] = acc[j] | (x & E::load(loadAt(b, k * N + j)));
        else
          acc[j] = math::add(acc[j], math::multiply(x, E::load(loadAt(b, k * N + j))));
      }
    }
    for (int64_t j = 0; j < N; ++j)
      storeAt(c, i * N + j, E::store(acc[j]));
  }
  delete[] acc;
}

/// C[b] = A[b] x B[b]; with an epilogue (a fused elementwise consumer),
/// C = epilogue(i, column, product) for each element i of C: the same
/// operations on the same stored values as the unfused steps, so the same
/// bits.
template <typename E, int64_t Batch, int64_t M, int64_t N, int64_t K,
          typename Epilogue = NoEpilogue>
inline void dotGeneral(const typename E::Storage *a, const typename E::Storage *b,
                       typename E::Storage *__restrict c, const Epilogue &epilogue = {}) {
  for (int64_t batch = 0; batch < Batch; ++batch) {
    if constexpr (__is_same(E, F32)) {
      matmulF32<M, N, K>(a + batch * M * K, b + batch * K * N, c + batch * M * N, batch * M * N,
                         epilogue);
    } else {
      matmulGeneric<E, M, N, K>(a + batch * M * K, b + batch * K * N, c + batch * M * N);
      applyEpilogue(c + batch * M * N, N, M, N, batch * M * N, 0, epilogue);
    }
  }
}

} // namespace shardgen::kernels
