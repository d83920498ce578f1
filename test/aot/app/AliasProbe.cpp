// The kernel library's contract with the buffer plan, checked under the
// compiler and flags of the build: a buffer's bytes may be written as one
// type and read as another (floats by a kernel, then unsigned words by a
// data-movement copy, and back). GCC 12 -O2 broke this when kernels accessed
// buffers through typed pointers: it returned a float it had stored instead
// of reloading the word written over it. Each probe gets two pointers to the
// same bytes that the compiler cannot prove equal.
//   alias_probe    exits 0 when every probe reads what was written last

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "kernels/kernels.h"

using namespace shardgen::kernels;

namespace {

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  return bits;
}

/// A float store, a word fill over it, a float load.
__attribute__((noinline)) float fillOverFloat(float *asFloat, uint32_t *asWord) {
  storeAt(asFloat, 0, 1.0f);
  fill<uint32_t, 1>(asWord, bitsOf(2.0f));
  return loadAt(asFloat, 0);
}

/// A float kernel writes, a word copy (as of a transpose) reads the same bytes.
__attribute__((noinline)) void copyAfterKernel(const float *in, float *asFloat, uint32_t *asWord,
                                               uint32_t *out) {
  unary<F32, OpNegate, 4>(in, asFloat);
  stridedCopy<uint32_t, 1, Walk<1>{{4}, {-1}, {1}, 3, 0}>(asWord, out);
}

/// A word copy writes, a float kernel reads the same bytes.
__attribute__((noinline)) void kernelAfterCopy(const uint32_t *in, uint32_t *asWord, float *asFloat,
                                               float *out) {
  storeAt(asFloat, 0, 5.0f);
  copy<uint32_t, 4>(in, asWord);
  binary<F32, OpAdd, 4>(asFloat, asFloat, out);
}

} // namespace

int main() {
  alignas(16) unsigned char bytes[16] = {};
  // Launder the pointer so that no compiler sees the two views are one buffer.
  unsigned char *volatile laundered = bytes;
  float *asFloat = reinterpret_cast<float *>(laundered);
  uint32_t *asWord = reinterpret_cast<uint32_t *>(laundered);
  int failures = 0;

  if (fillOverFloat(asFloat, asWord) != 2.0f) {
    std::printf("fill of words over a float store: the float store won\n");
    ++failures;
  }

  const float in[4] = {1, 2, 3, 4};
  uint32_t words[4];
  copyAfterKernel(in, asFloat, asWord, words);
  for (int k = 0; k < 4; ++k)
    if (words[k] != bitsOf(-in[3 - k])) {
      std::printf("word copy after a float kernel: element %d is stale\n", k);
      ++failures;
    }

  const uint32_t source[4] = {bitsOf(1), bitsOf(2), bitsOf(3), bitsOf(4)};
  float sums[4];
  kernelAfterCopy(source, asWord, asFloat, sums);
  for (int k = 0; k < 4; ++k)
    if (sums[k] != 2.0f * static_cast<float>(k + 1)) {
      std::printf("float kernel after a word copy: element %d is stale\n", k);
      ++failures;
    }
  return failures == 0 ? 0 : 1;
}
