// shardgen kernel library: rng_bit_generator, bit for bit as XLA's CPU
// backend (xla/hlo/builder/lib/prng.cc, rng_bit_generator_expander.cc).
//
// A device computes only its piece of the output: each element's word
// comes from the counter of its own position in the global output, so
// the pieces of a sharded output are exactly the global stream's.
//   THREE_FRY (Threefry2x32-20, key state[0], counter state[1]): 64-bit
//     element e is block counter + e; a 32-bit (or narrower: its low bits)
//     element takes word i % 2 of the block at its index in the shape
//     halved along dim Split (i its index along that dim, halved there).
//   PHILOX (Philox4x32-10, key state[0], 128-bit counter (state[1],
//     state[2]) or for two words (state[1], state[0])): block b gives its
//     four words in order to elements 4b.. (64 bits: pairs, low first).
// The new state (replicated) advances the counter by Advance blocks, the
// count for the whole output: the same on every device.
#pragma once

#include "kernels/memory.h"

namespace shardgen::kernels {

namespace rng {

struct Words2 {
  uint32_t w[2];
};
struct Words4 {
  uint32_t w[4];
};

SHARDGEN_INLINE uint32_t rotl32(uint32_t v, int distance) {
  return (v << distance) | (v >> (32 - distance)); // distance in [6, 29]
}

SHARDGEN_INLINE Words2 threefry2x32(uint32_t k0, uint32_t k1, uint64_t counter) {
  constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  uint32_t x0 = static_cast<uint32_t>(counter) + ks[0];
  uint32_t x1 = static_cast<uint32_t>(counter >> 32) + ks[1];
  for (uint32_t group = 0; group < 5; ++group) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = rotl32(x1, kRotations[(group % 2) * 4 + r]) ^ x0;
    }
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + group + 1u;
  }
  return {{x0, x1}};
}

SHARDGEN_INLINE Words4 philox4x32(uint32_t k0, uint32_t k1, uint64_t low, uint64_t high) {
  uint32_t x0 = static_cast<uint32_t>(low), x1 = static_cast<uint32_t>(low >> 32);
  uint32_t x2 = static_cast<uint32_t>(high), x3 = static_cast<uint32_t>(high >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(x0) * 0xD2511F53u;
    const uint64_t p1 = static_cast<uint64_t>(x2) * 0xCD9E8D57u;
    const uint32_t y0 = static_cast<uint32_t>(p1 >> 32) ^ x1 ^ k0;
    const uint32_t y2 = static_cast<uint32_t>(p0 >> 32) ^ x3 ^ k1;
    x1 = static_cast<uint32_t>(p1);
    x3 = static_cast<uint32_t>(p0);
    x0 = y0;
    x2 = y2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {{x0, x1, x2, x3}};
}

} // namespace rng

/// The piece of the output a device makes: the global extents, the piece's
/// offset and extents (rank R; a scalar is R = 1 of extent 1).
template <int R> struct RngPiece {
  int64_t global[R];
  int64_t offset[R];
  int64_t extent[R];
};

/// Algorithm: 0 THREE_FRY, 1 PHILOX. W: the output's storage word (its
/// width decides 64-bit or 32-bit words). Split: THREE_FRY's halved dim.
template <typename W, int Algorithm, int StateSize, int R, RngPiece<R> P, int Split,
          uint64_t Advance>
SHARDGEN_INLINE void rngBitGenerator(const uint64_t *__restrict state,
                                     uint64_t *__restrict newState, W *__restrict out) {
  constexpr bool kWide = sizeof(W) == 8;
  uint64_t s[3] = {0, 0, 0};
  for (int i = 0; i < StateSize; ++i)
    s[i] = loadAt(state, i);
  const uint32_t k0 = static_cast<uint32_t>(s[0]), k1 = static_cast<uint32_t>(s[0] >> 32);
  const uint64_t counter = s[1];
  const uint64_t high = StateSize == 3 ? s[2] : s[0]; // PHILOX's counter, high word
  // Global strides: of the output, and (THREE_FRY 32-bit) of the half shape.
  int64_t stride[R], halfStride[R];
  int64_t step = 1, halfStep = 1;
  for (int d = R - 1; d >= 0; --d) {
    stride[d] = step;
    halfStride[d] = halfStep;
    step *= P.global[d];
    halfStep *= d == Split ? (P.global[d] + 1) / 2 : P.global[d];
  }
  int64_t index[R] = {};
  int64_t n = 1;
  for (int d = 0; d < R; ++d)
    n *= P.extent[d];
  uint64_t cachedBlock = ~uint64_t{0};
  rng::Words4 words4 = {{0, 0, 0, 0}};
  rng::Words2 words2 = {{0, 0}};
  for (int64_t i = 0; i < n; ++i) {
    uint64_t linear = 0, half = 0;
    int64_t splitIndex = 0;
    for (int d = 0; d < R; ++d) {
      const int64_t g = P.offset[d] + index[d];
      linear += static_cast<uint64_t>(g * stride[d]);
      half += static_cast<uint64_t>((d == Split ? g / 2 : g) * halfStride[d]);
      if (d == Split)
        splitIndex = g;
    }
    uint64_t word = 0;
    if constexpr (Algorithm == 0) {
      const uint64_t block = kWide ? linear : half;
      if (block != cachedBlock) {
        words2 = rng::threefry2x32(k0, k1, counter + block);
        cachedBlock = block;
      }
      word = kWide ? (words2.w[0] | static_cast<uint64_t>(words2.w[1]) << 32)
                   : words2.w[splitIndex % 2];
    } else {
      const uint64_t block = kWide ? linear / 2 : linear / 4;
      if (block != cachedBlock) {
        const uint64_t low = counter + block;
        words4 = rng::philox4x32(k0, k1, low, high + (low < counter ? 1u : 0u));
        cachedBlock = block;
      }
      word = kWide ? (words4.w[2 * (linear % 2)] |
                      static_cast<uint64_t>(words4.w[2 * (linear % 2) + 1]) << 32)
                   : words4.w[linear % 4];
    }
    storeAt(out, i, static_cast<W>(word));
    for (int d = R - 1; d >= 0; --d) { // the next local index, row-major
      if (++index[d] < P.extent[d])
        break;
      index[d] = 0;
    }
  }
  const uint64_t advanced = counter + Advance;
  storeAt(newState, 0, s[0]);
  storeAt(newState, 1, advanced);
  if constexpr (StateSize == 3)
    storeAt(newState, 2, s[2] + (advanced < counter ? 1u : 0u));
}

} // namespace shardgen::kernels
