// shardgen kernel library: how kernels read and write buffers.
//
// Buffers are bytes of one arena that the buffer plan reuses for values of
// different types, and data movement copies elements as unsigned words of
// their width. A typed access (`out[i] = x` through a float *) to bytes that
// last held another type is undefined behaviour, and type-based alias
// analysis does exploit it: GCC reordered a word copy across the float
// stores it was meant to read. So every buffer access is a byte copy of one
// element: well defined whatever the bytes held before, and both GCC and
// clang lower it to a single (vectorizable) load or store. (A may_alias
// typedef is no fix: GCC drops the attribute on a type that depends on a
// template parameter.)
#pragma once

#include "kernels/elements.h"

namespace shardgen::kernels {

/// f32 lanes of the target's vectors. SSE only: wider vectors would be
/// emulated, and passing them between functions changes the ABI (GCC and
/// clang warn).
#if defined(__AVX512F__)
inline constexpr int64_t kVectorFloats = 16;
#elif defined(__AVX__)
inline constexpr int64_t kVectorFloats = 8;
#else
inline constexpr int64_t kVectorFloats = 4;
#endif

/// Element k of the buffer `p` points into.
template <typename S> SHARDGEN_INLINE S loadAt(const S *p, int64_t k) {
  S value;
  __builtin_memcpy(&value, p + k, sizeof(S));
  return value;
}

template <typename T> struct NonDeduced {
  using type = T;
};

/// Sets element k of the buffer `p` points into (`value` converts to S).
template <typename S>
SHARDGEN_INLINE void storeAt(S *p, int64_t k, typename NonDeduced<S>::type value) {
  __builtin_memcpy(p + k, &value, sizeof(S));
}

// Streaming (non-temporal) stores for outputs too large to stay in cache: a
// normal store first reads the line it writes, a third more memory traffic
// for a two-input elementwise op. Written as inline assembly so that GCC and
// clang emit the same instruction without <immintrin.h> (the JIT would parse
// it for every program).
#if defined(__x86_64__) && defined(__SSE2__)
#define SHARDGEN_STREAMING_STORES 1
inline constexpr int64_t kStreamLineBytes = kVectorFloats * 4; // one vector register
typedef unsigned char StreamLine __attribute__((vector_size(kStreamLineBytes)));

/// Writes `bytes` (a multiple of kStreamLineBytes) from `from` to `to`
/// (aligned to kStreamLineBytes) past the caches (volatile: nothing in this
/// function reads what the stores write, so they must not be dropped).
SHARDGEN_INLINE void streamBytes(void *to, const void *from, int64_t bytes) {
  for (int64_t at = 0; at < bytes; at += kStreamLineBytes) {
    StreamLine line;
    __builtin_memcpy(&line, static_cast<const unsigned char *>(from) + at, sizeof line);
    auto *target = reinterpret_cast<StreamLine *>(static_cast<unsigned char *>(to) + at);
#if defined(__AVX__)
    asm volatile("vmovntdq %1, %0" : "=m"(*target) : "x"(line));
#else
    asm volatile("movntdq %1, %0" : "=m"(*target) : "x"(line));
#endif
  }
}

/// Orders the streaming stores before whatever follows (another device may
/// read the output once this one reaches its next barrier).
SHARDGEN_INLINE void streamFence() { asm volatile("sfence" ::: "memory"); }

/// Copies `bytes` from `from` to `to`, the whole stream lines of `to`
/// written past the caches, the partial lines at either end normally (the
/// caller fences once after its last copy).
SHARDGEN_INLINE void streamCopy(void *to, const void *from, int64_t bytes) {
  auto *out = static_cast<unsigned char *>(to);
  const auto *in = static_cast<const unsigned char *>(from);
  const int64_t misaligned = int64_t(reinterpret_cast<__UINTPTR_TYPE__>(out) % kStreamLineBytes);
  const int64_t head = misaligned == 0 ? 0 : kStreamLineBytes - misaligned;
  if (bytes < head + kStreamLineBytes) {
    __builtin_memcpy(out, in, size_t(bytes));
    return;
  }
  const int64_t body = (bytes - head) / kStreamLineBytes * kStreamLineBytes;
  __builtin_memcpy(out, in, size_t(head));
  streamBytes(out + head, in + head, body);
  __builtin_memcpy(out + head + body, in + head + body, size_t(bytes - head - body));
}
#else
// Without streaming stores a copy is a plain one, with nothing to fence.
SHARDGEN_INLINE void streamCopy(void *to, const void *from, int64_t bytes) {
  __builtin_memcpy(to, from, size_t(bytes));
}
SHARDGEN_INLINE void streamFence() {}
#endif

/// Outputs of at least this many bytes are written with streaming stores
/// (larger than a core's share of a last-level cache: the next step would
/// read them from memory anyway).
inline constexpr int64_t kStreamingBytes = int64_t(8) << 20;

/// out[i] = value(i) for i in [begin, end): the elementwise kernels' loop.
/// Element i reads only element i of each input (out may even be one of
/// them): no dependence between iterations. Said explicitly, because with
/// byte-copy stores clang's vectorizer gave up on long bodies (tanh: 2.4x
/// slower, bench_codegen_elementwise). `Interleave` vectors per iteration
/// (two; eight in the tiles of large 16-bit outputs, see storeAll): a long
/// body (exp, tanh) is otherwise bound by its dependency chain's latency.
///
/// `Vectorize` false: a plain loop, for bodies no vector form can take (the
/// 8-, 6- and 4-bit floats' conversions branch per element), where a forced
/// vectorization that fails warns (clang's -Wpass-failed).
template <bool Vectorize = true, int Interleave = 2, typename S, typename Value>
SHARDGEN_INLINE void storeRange(S *__restrict out, int64_t begin, int64_t end, const Value &value) {
  if constexpr (isComplexStorage<S> ||
                !Vectorize) { // libm calls and unfused products: no vector form
    for (int64_t i = begin; i < end; ++i)
      storeAt(out, i, value(i));
    return;
  }
  if constexpr (Interleave > 2 && sizeof(S) == 2) {
    // f16, bf16 (computed in f32), i16: an f32 vector's lanes; clang picked
    // 32 (words), which with eight vectors per iteration spilled its masks
    // (bf16 a + b 2.8x slower).
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety) vectorize_width(kVectorFloats)                         \
    interleave_count(Interleave)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
    for (int64_t i = begin; i < end; ++i)
      storeAt(out, i, value(i));
    return;
  }
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety) interleave_count(Interleave)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
  for (int64_t i = begin; i < end; ++i)
    storeAt(out, i, value(i));
}

/// out[i] = value(i) for i in [0, N), large outputs streamed: normal stores
/// up to the first line boundary, then whole tiles computed into L1 and
/// streamed out, then the rest. Tiles of f16 and bf16 take eight vectors
/// per iteration: a long chain of theirs is bound by its arithmetic (the
/// roundings between ops), and more independent work in flight makes bf16/
/// f16 tanh(a * x + b) 20-25% faster, for a loop body whose compile time
/// only outputs this large repay; f32 chains, bound by memory, were 5-15%
/// slower so (bench_codegen_elementwise).
template <typename S, int64_t N, bool Vectorize = true, typename Value>
SHARDGEN_INLINE void storeAll(S *__restrict out, const Value &value) {
#if defined(SHARDGEN_STREAMING_STORES)
  constexpr int64_t kTileElements = 1024 / int64_t(sizeof(S)); // 1 KiB: stays in L1
  constexpr int kTileInterleave = sizeof(S) == 2 ? 8 : 2;
  if constexpr (N * int64_t(sizeof(S)) >= kStreamingBytes) {
    const auto address = reinterpret_cast<__UINTPTR_TYPE__>(out);
    if (address % sizeof(S) == 0) {
      const int64_t head = int64_t((-address) % kStreamLineBytes) / int64_t(sizeof(S));
      storeRange<Vectorize>(out, 0, head, value);
      int64_t i = head;
      for (; i + kTileElements <= N; i += kTileElements) {
        alignas(64) S tile[kTileElements];
        storeRange<Vectorize, kTileInterleave>(tile, 0, kTileElements,
                                               [&](int64_t k) { return value(i + k); });
        streamBytes(out + i, tile, sizeof tile);
      }
      storeRange<Vectorize>(out, i, N, value);
      streamFence();
      return;
    }
  }
#endif
  storeRange<Vectorize>(out, 0, N, value);
}

} // namespace shardgen::kernels
