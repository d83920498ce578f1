// shardgen kernel library: dot_general as a batched matrix product
// C[b] = A[b] x B[b] with A [M, K], B [K, N], C [M, N], all row-major and
// dense (the code generator transposes operands into this form first).
//
// f32, f16 and bf16 run a blocked kernel (BLIS-style): B is packed into
// KC x NR panels and A into MR x KC panels so the micro-kernel streams both
// from cache, and an MR x NR tile of C lives in vector registers across the
// whole KC loop. f16 and bf16 are widened to f32 as they are packed (F16C's
// conversion where the target has it), or, for bf16 on a target with
// AVX512_BF16, packed in pairs for vdpbf16ps; all sum in f32. Other types
// use a plain loop that accumulates in the compute type.
#pragma once

#include "kernels/memory.h"
#include "kernels/scratch.h"

namespace shardgen::kernels {

#if defined(__AVX512F__)
inline constexpr int64_t kTileRows = 8;
#else
inline constexpr int64_t kTileRows = 6;
#endif
typedef float FloatVector __attribute__((vector_size(kVectorFloats * 4), aligned(4)));

/// a * b + c in every lane, with one rounding where the target has FMA
/// instructions, a product and a sum otherwise (generated code is compiled
/// with contraction off: see math::multiplyAdd). GCC has no generic vector
/// FMA: its x86 builtins, or one fmaf per lane. The broadcast is a - 0,
/// which is a for every a, so both compilers fold it into a plain
/// broadcast (a load's, on x86); 0 + a is not a for a = -0, and costs an
/// add per broadcast.
SHARDGEN_INLINE FloatVector multiplyAddVector(float a, FloatVector b, FloatVector c) {
  const FloatVector broadcast = a - FloatVector{};
#if !defined(__FMA__) && !defined(__ARM_FEATURE_FMA)
  return broadcast * b + c;
#elif defined(__clang__)
  return __builtin_elementwise_fma(broadcast, b, c);
#elif defined(__AVX512F__)
  return __builtin_ia32_vfmaddps512_mask(broadcast, b, c, static_cast<unsigned short>(-1), 4);
#elif defined(__AVX__)
  return __builtin_ia32_vfmaddps256(broadcast, b, c);
#elif defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_vfmaddps(broadcast, b, c);
#else
  FloatVector sum;
  for (int64_t lane = 0; lane < kVectorFloats; ++lane)
    sum[lane] = __builtin_fmaf(a, b[lane], c[lane]);
  return sum;
#endif
}

inline constexpr int64_t kTileCols = 2 * kVectorFloats; // NR
inline constexpr int64_t kDepthBlock = 256;             // KC
inline constexpr int64_t kRowBlock = 96;                // MC (a multiple of MR)

SHARDGEN_INLINE FloatVector loadVector(const float *p) {
  FloatVector v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
SHARDGEN_INLINE void storeVector(float *p, FloatVector v) { __builtin_memcpy(p, &v, sizeof v); }

/// An MR x NR tile of f32 sums in registers: columns [0, NR/2) in lo,
/// [NR/2, NR) in hi.
struct TileSums {
  FloatVector lo[kTileRows], hi[kTileRows];
};

/// sums = 0 + tile (first depth block) or sums + tile (a later one), for
/// the `rows` x `cols` part that exists: the same additions, in the same
/// order, as summing every block into a zeroed C (0 + -0 is +0, as there).
template <bool Full, bool First>
SHARDGEN_INLINE TileSums addTile(TileSums tile, const float *sums, int64_t ldc, int64_t rows,
                                 int64_t cols) {
  if constexpr (First) {
    for (int64_t r = 0; r < kTileRows; ++r) {
      tile.lo[r] = 0.0f + tile.lo[r];
      tile.hi[r] = 0.0f + tile.hi[r];
    }
  } else if constexpr (Full) {
    for (int64_t r = 0; r < kTileRows; ++r) {
      tile.lo[r] = loadVector(sums + r * ldc) + tile.lo[r];
      tile.hi[r] = loadVector(sums + r * ldc + kVectorFloats) + tile.hi[r];
    }
  } else {
    float part[kTileRows][kTileCols] = {};
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < cols; ++j)
        part[r][j] = loadAt(sums, r * ldc + j);
    for (int64_t r = 0; r < kTileRows; ++r) {
      tile.lo[r] = loadVector(part[r]) + tile.lo[r];
      tile.hi[r] = loadVector(part[r] + kVectorFloats) + tile.hi[r];
    }
  }
  return tile;
}

/// Stores the `rows` x `cols` part of the tile into C as element type E
/// (f16/bf16 rounded from the whole f32 sum, once).
template <typename E, bool Full>
SHARDGEN_INLINE void storeTile(const TileSums &tile, typename E::Storage *c, int64_t ldc,
                               int64_t rows, int64_t cols) {
  if constexpr (Full && __is_same(E, F32)) {
    for (int64_t r = 0; r < kTileRows; ++r) {
      storeVector(c + r * ldc, tile.lo[r]);
      storeVector(c + r * ldc + kVectorFloats, tile.hi[r]);
    }
#if defined(__F16C__)
  } else if constexpr (Full && __is_same(E, F16)) {
    // Whole vectors converted at once (the element loop below became 4-lane
    // conversions and extracts: 6 % of an f16 512 x 1024 x 256 dot); the
    // same rounding as floatToHalf's _Float16 cast.
    typedef _Float16 HalfVector __attribute__((vector_size(kVectorFloats * 2), aligned(2)));
    for (int64_t r = 0; r < kTileRows; ++r) {
      const HalfVector lo = __builtin_convertvector(tile.lo[r], HalfVector);
      const HalfVector hi = __builtin_convertvector(tile.hi[r], HalfVector);
      __builtin_memcpy(c + r * ldc, &lo, sizeof lo);
      __builtin_memcpy(c + r * ldc + kVectorFloats, &hi, sizeof hi);
    }
#endif
  } else {
    float part[kTileRows][kTileCols];
    for (int64_t r = 0; r < kTileRows; ++r) {
      storeVector(part[r], tile.lo[r]);
      storeVector(part[r] + kVectorFloats, tile.hi[r]);
    }
    const int64_t height = Full ? kTileRows : rows, width = Full ? kTileCols : cols;
    for (int64_t r = 0; r < height; ++r)
      for (int64_t j = 0; j < width; ++j)
        storeAt(c, r * ldc + j, E::store(part[r][j]));
  }
}

/// f32, f16 and bf16 widened to f32 as they are packed (exact), multiplied
/// by one f32 micro-kernel.
template <typename E> struct FloatPanels {
  using S = typename E::Storage;
  using Packed = float;
  static constexpr int64_t kDepth = kDepthBlock; // KC
  /// Packed rows (k steps) of a depth block of kc.
  static SHARDGEN_INLINE int64_t packedDepth(int64_t kc) { return kc; }

  /// Packs B[k0.., j0..] (kc x nc of a row-major [K, N], or of [N, K] when
  /// Transposed) into NR-wide panels, zero-padding the last one.
  template <bool Transposed>
  static void packB(const S *b, int64_t ldb, int64_t kc, int64_t nc, float *__restrict packed) {
    for (int64_t j0 = 0; j0 < nc; j0 += kTileCols) {
      const int64_t cols = nc - j0 < kTileCols ? nc - j0 : kTileCols;
      if constexpr (Transposed) {
        for (int64_t j = 0; j < kTileCols; ++j)
          for (int64_t k = 0; k < kc; ++k)
            packed[k * kTileCols + j] = j < cols ? E::load(loadAt(b, (j0 + j) * ldb + k)) : 0.0f;
      } else {
        for (int64_t k = 0; k < kc; ++k) {
          const S *row = b + k * ldb + j0;
          for (int64_t j = 0; j < kTileCols; ++j)
            packed[k * kTileCols + j] = j < cols ? E::load(loadAt(row, j)) : 0.0f;
        }
      }
      packed += kc * kTileCols;
    }
  }

  /// Packs A[i0.., k0..] (mc x kc of a row-major [M, K]) into MR-tall
  /// panels, k-major inside a panel, zero-padding the last one.
  static void packA(const S *a, int64_t lda, int64_t mc, int64_t kc, float *__restrict packed) {
    for (int64_t i0 = 0; i0 < mc; i0 += kTileRows) {
      const int64_t rows = mc - i0 < kTileRows ? mc - i0 : kTileRows;
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t r = 0; r < kTileRows; ++r)
          packed[k * kTileRows + r] = r < rows ? E::load(loadAt(a, (i0 + r) * lda + k)) : 0.0f;
      packed += kc * kTileRows;
    }
  }

  /// packedA[kc x MR] * packedB[kc x NR]: the tile lives in registers
  /// across the whole depth block.
  static SHARDGEN_INLINE TileSums multiply(int64_t kc, const float *__restrict packedA,
                                           const float *__restrict packedB) {
    TileSums tile = {};
    for (int64_t k = 0; k < kc; ++k) {
      const FloatVector b0 = loadVector(packedB + k * kTileCols);
      const FloatVector b1 = loadVector(packedB + k * kTileCols + kVectorFloats);
      for (int64_t r = 0; r < kTileRows; ++r) {
        const float a = packedA[k * kTileRows + r];
        tile.lo[r] = multiplyAddVector(a, b0, tile.lo[r]);
        tile.hi[r] = multiplyAddVector(a, b1, tile.hi[r]);
      }
    }
    return tile;
  }
};

#if defined(__AVX512BF16__) || defined(SHARDGEN_EMULATE_DPBF16)
// bf16 with AVX512_BF16: vdpbf16ps multiplies pairs of bf16 (two adjacent
// depths) and adds both products to an f32 lane, at twice the f32 FMA rate.
// Per Intel's definition each lane does two FMAs, the odd depth's product
// first, rounding to nearest even, with denormal inputs read as zero and
// denormal results flushed to zero (the reference interpreter's bound for a
// bf16 dot covers both: compiler/interp/ErrorBounds.cpp).
// SHARDGEN_EMULATE_DPBF16 computes that definition in plain code, for tests
// of this path on hosts without the instruction (test/codegen).
#define SHARDGEN_BF16_PAIRS 1
typedef uint32_t PairVector __attribute__((vector_size(kVectorFloats * 4), aligned(4)));

#if defined(SHARDGEN_EMULATE_DPBF16)
SHARDGEN_INLINE float flushDenormal(float x) {
  return __builtin_fabsf(x) < 0x1p-126f ? __builtin_copysignf(0.0f, x) : x;
}
SHARDGEN_INLINE float dotPairLane(float acc, uint32_t b, uint32_t a) {
  const float bHigh = flushDenormal(bfloat16ToFloat(static_cast<uint16_t>(b >> 16)));
  const float aHigh = flushDenormal(bfloat16ToFloat(static_cast<uint16_t>(a >> 16)));
  const float bLow = flushDenormal(bfloat16ToFloat(static_cast<uint16_t>(b)));
  const float aLow = flushDenormal(bfloat16ToFloat(static_cast<uint16_t>(a)));
  acc = flushDenormal(__builtin_fmaf(bHigh, aHigh, flushDenormal(acc)));
  return flushDenormal(__builtin_fmaf(bLow, aLow, acc));
}
#endif

/// acc[lane] += b.low * a.low + b.high * a.high for each lane's pair of b.
SHARDGEN_INLINE FloatVector dotPairs(FloatVector acc, PairVector b, uint32_t a) {
#if defined(SHARDGEN_EMULATE_DPBF16)
  for (int64_t lane = 0; lane < kVectorFloats; ++lane)
    acc[lane] = dotPairLane(acc[lane], b[lane], a);
  return acc;
#elif defined(__clang__)
  typedef __bf16 Bf16Vector __attribute__((vector_size(64)));
  return __builtin_ia32_dpbf16ps_512(acc, (Bf16Vector)b, (Bf16Vector)(PairVector{} + a));
#else
  typedef short Bf16Vector __attribute__((vector_size(64)));
  return __builtin_ia32_dpbf16ps_v16sf(acc, (Bf16Vector)b, (Bf16Vector)(PairVector{} + a));
#endif
}

/// bf16 packed as pairs along the depth (one 32-bit word: the even depth in
/// the low half), multiplied by vdpbf16ps.
struct Bf16PairPanels {
  using S = uint16_t;
  using Packed = uint32_t;
  static constexpr int64_t kDepth = 2 * kDepthBlock; // the same bytes per panel as f32
  static SHARDGEN_INLINE int64_t packedDepth(int64_t kc) { return (kc + 1) / 2; }
  static SHARDGEN_INLINE uint32_t pair(uint16_t even, uint16_t odd) {
    return static_cast<uint32_t>(even) | static_cast<uint32_t>(odd) << 16;
  }
  /// The pair of two adjacent depths: the 32-bit word there (x86 is
  /// little-endian: the even depth is its low half).
  static SHARDGEN_INLINE uint32_t wordAt(const S *even) {
    uint32_t word;
    __builtin_memcpy(&word, even, sizeof word);
    return word;
  }
  /// The pair at depths 2p, 2p + 1 of a row stored along the depth (the
  /// even depth alone at an odd kc's end).
  static SHARDGEN_INLINE uint32_t pairAt(const S *row, int64_t p, int64_t kc) {
    return 2 * p + 1 < kc ? wordAt(row + 2 * p) : pair(loadAt(row, 2 * p), 0);
  }

  template <bool Transposed>
  static void packB(const S *b, int64_t ldb, int64_t kc, int64_t nc, uint32_t *__restrict packed) {
    const int64_t pairs = packedDepth(kc);
    for (int64_t j0 = 0; j0 < nc; j0 += kTileCols) {
      const int64_t cols = nc - j0 < kTileCols ? nc - j0 : kTileCols;
      if constexpr (Transposed) { // B's rows are [N, K]: along the depth
        for (int64_t j = 0; j < kTileCols; ++j)
          for (int64_t p = 0; p < pairs; ++p)
            packed[p * kTileCols + j] = j < cols ? pairAt(b + (j0 + j) * ldb, p, kc) : 0u;
        packed += pairs * kTileCols;
        continue;
      }
      for (int64_t p = 0; p < pairs; ++p) {
        const S *even = b + 2 * p * ldb + j0;
        const bool hasOdd = 2 * p + 1 < kc;
        for (int64_t j = 0; j < kTileCols; ++j)
          packed[p * kTileCols + j] =
              j < cols ? pair(loadAt(even, j), hasOdd ? loadAt(even, ldb + j) : uint16_t(0)) : 0u;
      }
      packed += pairs * kTileCols;
    }
  }

  static void packA(const S *a, int64_t lda, int64_t mc, int64_t kc, uint32_t *__restrict packed) {
    const int64_t pairs = packedDepth(kc);
    for (int64_t i0 = 0; i0 < mc; i0 += kTileRows) {
      const int64_t rowCount = mc - i0 < kTileRows ? mc - i0 : kTileRows;
      if (rowCount == kTileRows && kc % 2 == 0) {
        // Whole panels of whole pairs: no test per element.
        for (int64_t p = 0; p < pairs; ++p)
          for (int64_t r = 0; r < kTileRows; ++r)
            packed[p * kTileRows + r] = wordAt(a + (i0 + r) * lda + 2 * p);
        packed += pairs * kTileRows;
        continue;
      }
      for (int64_t p = 0; p < pairs; ++p)
        for (int64_t r = 0; r < kTileRows; ++r) // rows past the panel's are not read
          packed[p * kTileRows + r] = r < rowCount ? pairAt(a + (i0 + r) * lda, p, kc) : 0u;
      packed += pairs * kTileRows;
    }
  }

  static SHARDGEN_INLINE TileSums multiply(int64_t pairs, const uint32_t *__restrict packedA,
                                           const uint32_t *__restrict packedB) {
    TileSums tile = {};
    for (int64_t p = 0; p < pairs; ++p) {
      PairVector b0, b1;
      __builtin_memcpy(&b0, packedB + p * kTileCols, sizeof b0);
      __builtin_memcpy(&b1, packedB + p * kTileCols + kVectorFloats, sizeof b1);
      for (int64_t r = 0; r < kTileRows; ++r) {
        const uint32_t a = packedA[p * kTileRows + r];
        tile.lo[r] = dotPairs(tile.lo[r], b0, a);
        tile.hi[r] = dotPairs(tile.hi[r], b1, a);
      }
    }
    return tile;
  }
};
#endif

/// How the blocked kernel packs and multiplies element type E's operands.
template <typename E> struct PanelsOf {
  using type = FloatPanels<E>;
};
#if defined(SHARDGEN_BF16_PAIRS)
template <> struct PanelsOf<BF16> {
  using type = Bf16PairPanels;
};
#endif

template <typename E>
inline constexpr bool isBlockedDot = __is_same(E, F32) || __is_same(E, F16) || __is_same(E, BF16);

inline int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// A dot without an epilogue: C is the product.
struct NoEpilogue {};

/// Applies a fused epilogue to the rows x cols block of C at `c` whose first
/// element is element `index` of the whole result (column `col`):
/// C = epilogue(i, column, C) element by element, while the block is in cache.
template <typename S, typename Epilogue>
SHARDGEN_INLINE void applyEpilogue(S *c, int64_t ldc, int64_t rows, int64_t cols, int64_t index,
                                   int64_t col, const Epilogue &epilogue) {
  if constexpr (__is_same(Epilogue, NoEpilogue)) {
    return;
  } else if constexpr (!__is_same(S, float)) {
    // f16/bf16 storage: the portable conversions (no F16C) have branches
    // clang cannot vectorize, and a forced vectorization that fails warns
    // (-Wpass-failed, clang -O3 without -march).
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < cols; ++j)
        storeAt(c, r * ldc + j, epilogue(index + r * ldc + j, col + j, loadAt(c, r * ldc + j)));
  } else {
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

/// One MR x NR tile of a depth block: its product added to the sums of the
/// blocks before (held in `sums`, f32), then either kept there or, after
/// the last block, stored into C as E with the epilogue applied.
template <typename E, typename Panels, bool Full, typename Epilogue>
SHARDGEN_INLINE void multiplyTile(int64_t depth, const typename Panels::Packed *panelA,
                                  const typename Panels::Packed *panelB, bool firstBlock,
                                  bool lastBlock, float *sums, typename E::Storage *c, int64_t ldc,
                                  int64_t rows, int64_t cols, int64_t index, int64_t col,
                                  const Epilogue &epilogue) {
  const TileSums product = Panels::multiply(depth, panelA, panelB);
  const TileSums tile = firstBlock ? addTile<Full, true>(product, sums, ldc, rows, cols)
                                   : addTile<Full, false>(product, sums, ldc, rows, cols);
  if (!lastBlock) {
    storeTile<F32, Full>(tile, sums, ldc, rows, cols);
    return;
  }
  storeTile<E, Full>(tile, c, ldc, rows, cols);
  applyEpilogue(c, ldc, rows, cols, index, col, epilogue);
}

/// C[M, N] = A[M, K] x B[K, N] for f32, f16 and bf16 (C is overwritten;
/// A's rows `lda` elements apart, B's `ldb`: rows of a wider tensor),
/// summed in f32, then the epilogue on each tile once its last depth block
/// is added (`first`: the index of C's first element in the whole result).
/// The sums of a tile stay in registers across a depth block; between
/// blocks they are kept in C (f32) or in an f32 scratch (f16 and bf16, which
/// round each element of C once, from its whole sum; no scratch when one
/// block covers K).
template <typename E, int64_t M, int64_t N, int64_t K, bool TransposedB = false,
          typename Epilogue = NoEpilogue>
void matmulBlocked(const typename E::Storage *a, int64_t lda, const typename E::Storage *b,
                   int64_t ldb, typename E::Storage *__restrict c, int64_t first = 0,
                   const Epilogue &epilogue = {}) {
  using Panels = typename PanelsOf<E>::type;
  using Packed = typename Panels::Packed;
  if constexpr (M == 0 || N == 0 || K == 0) {
    for (int64_t i = 0; i < M * N; ++i)
      storeAt(c, i, E::store(0.0f));
    applyEpilogue(c, N, M, N, first, 0, epilogue);
  } else {
    constexpr bool kOneBlock = K <= Panels::kDepth;
    constexpr bool kScratchSums = !__is_same(E, F32) && !kOneBlock;
    Scratch sumsBlock(kScratchSums ? M * N * int64_t(sizeof(float)) : 0);
    float *sums = nullptr;
    if constexpr (__is_same(E, F32))
      sums = c;
    else if constexpr (kScratchSums)
      sums = sumsBlock.as<float>();
    constexpr int64_t kc0 = K < Panels::kDepth ? K : Panels::kDepth;
    constexpr int64_t mc0 = M < kRowBlock ? M : kRowBlock;
    Scratch panelsB(roundUp(N, kTileCols) * Panels::packedDepth(kc0) * int64_t(sizeof(Packed)));
    Scratch panelsA(roundUp(mc0, kTileRows) * Panels::packedDepth(kc0) * int64_t(sizeof(Packed)));
    Packed *packedB = panelsB.as<Packed>();
    Packed *packedA = panelsA.as<Packed>();
    for (int64_t p0 = 0; p0 < K; p0 += Panels::kDepth) {
      const int64_t kc = K - p0 < Panels::kDepth ? K - p0 : Panels::kDepth;
      const int64_t depth = Panels::packedDepth(kc);
      const bool firstBlock = p0 == 0, lastBlock = p0 + kc == K;
      if constexpr (TransposedB)
        Panels::template packB<true>(b + p0, ldb, kc, N, packedB);
      else
        Panels::template packB<false>(b + p0 * ldb, ldb, kc, N, packedB);
      for (int64_t i0 = 0; i0 < M; i0 += kRowBlock) {
        const int64_t mc = M - i0 < kRowBlock ? M - i0 : kRowBlock;
        Panels::packA(a + i0 * lda + p0, lda, mc, kc, packedA);
        for (int64_t j0 = 0; j0 < N; j0 += kTileCols) {
          const int64_t cols = N - j0 < kTileCols ? N - j0 : kTileCols;
          const Packed *panelB = packedB + (j0 / kTileCols) * depth * kTileCols;
          for (int64_t r0 = 0; r0 < mc; r0 += kTileRows) {
            const int64_t rows = mc - r0 < kTileRows ? mc - r0 : kTileRows;
            const Packed *panelA = packedA + (r0 / kTileRows) * depth * kTileRows;
            const int64_t at = (i0 + r0) * N + j0;
            float *tileSums = sums == nullptr ? nullptr : sums + at;
            if (rows == kTileRows && cols == kTileCols)
              multiplyTile<E, Panels, true>(depth, panelA, panelB, firstBlock, lastBlock, tileSums,
                                            c + at, N, rows, cols, first + at, j0, epilogue);
            else
              multiplyTile<E, Panels, false>(depth, panelA, panelB, firstBlock, lastBlock, tileSums,
                                             c + at, N, rows, cols, first + at, j0, epilogue);
          }
        }
      }
    }
  }
}

/// Any element type: a plain i-k-j loop accumulating in the compute type
/// (f16/bf16 in f32), rounding once per element of C.
template <typename E, int64_t M, int64_t N, int64_t K, bool TransposedB>
void matmulGeneric(const typename E::Storage *a, int64_t lda, const typename E::Storage *b,
                   int64_t ldb, typename E::Storage *__restrict c) {
  auto bAt = [&](int64_t k, int64_t j) {
    return E::load(loadAt(b, TransposedB ? j * ldb + k : k * ldb + j));
  };
  using C = typename E::Compute;
  C *acc = new C[N > 0 ? N : 1];
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j)
      acc[j] = C(0);
    for (int64_t k = 0; k < K; ++k) {
      const C x = E::load(loadAt(a, i * lda + k));
      for (int64_t j = 0; j < N; ++j) {
        if constexpr (isBool<E>)
          acc[j] = acc[j] | (x & bAt(k, j));
        else
          acc[j] = math::add(acc[j], math::multiply(x, bAt(k, j)));
      }
    }
    for (int64_t j = 0; j < N; ++j)
      storeAt(c, i * N + j, E::store(acc[j]));
  }
  delete[] acc;
}

/// C[b] = A[b] x B[b], B[b] given as [N, K] when TransposedB (the packing
/// reads it in place: no transposed copy); with an epilogue (a fused
/// elementwise consumer), C = epilogue(i, column, product) for each element
/// i of C: the same operations on the same stored values as the unfused
/// steps, so the same bits. A's rows (of K) are `lda` elements apart, B's
/// (of N, or K when TransposedB) `ldb`: an operand read in place from a
/// wider tensor (a column block of a program input, InputBinding.h).
template <typename E, int64_t Batch, int64_t M, int64_t N, int64_t K, bool TransposedB = false,
          typename Epilogue = NoEpilogue>
inline void dotGeneralStrided(const typename E::Storage *a, int64_t lda,
                              const typename E::Storage *b, int64_t ldb,
                              typename E::Storage *__restrict c, const Epilogue &epilogue = {}) {
  const int64_t bRows = TransposedB ? N : K;
  for (int64_t batch = 0; batch < Batch; ++batch) {
    if constexpr (isBlockedDot<E>) {
      matmulBlocked<E, M, N, K, TransposedB>(a + batch * M * lda, lda, b + batch * bRows * ldb, ldb,
                                             c + batch * M * N, batch * M * N, epilogue);
    } else {
      matmulGeneric<E, M, N, K, TransposedB>(a + batch * M * lda, lda, b + batch * bRows * ldb, ldb,
                                             c + batch * M * N);
      applyEpilogue(c + batch * M * N, N, M, N, batch * M * N, 0, epilogue);
    }
  }
}

/// dotGeneralStrided on dense operands.
template <typename E, int64_t Batch, int64_t M, int64_t N, int64_t K, bool TransposedB = false,
          typename Epilogue = NoEpilogue>
inline void dotGeneral(const typename E::Storage *a, const typename E::Storage *b,
                       typename E::Storage *__restrict c, const Epilogue &epilogue = {}) {
  dotGeneralStrided<E, Batch, M, N, K, TransposedB>(a, K, b, TransposedB ? K : N, c, epilogue);
}

} // namespace shardgen::kernels
