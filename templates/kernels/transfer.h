// shardgen kernel library: scratch memory for steps that need it besides the
// arena. Transfers the runtime has no direct primitive for (uneven pieces,
// sub-axes, explicit device pairs) all-gather every device's piece into
// per-device slots of a Scratch block, then each device assembles its own
// result from the slots it needs with compile-time box copies
// (compiler/codegen/TransferEmitter.cpp).
#pragma once

#include "kernels/elements.h"
#include "shardgen/runtime.h"

namespace shardgen::kernels {

namespace rt = shardgen::runtime;

/// Owns one heap block; frees it on scope exit (also when a collective throws
/// because another device failed).
struct Scratch {
  unsigned char *data;
  explicit Scratch(int64_t bytes) : data(new unsigned char[bytes > 0 ? bytes : 1]) {}
  ~Scratch() { delete[] data; }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
};

/// A device's arena for one call, from the runtime's pool and back to it on
/// scope exit (also when a collective throws).
struct PooledArena {
  unsigned char *data;
  int64_t bytes;
  explicit PooledArena(int64_t bytes) : data(rt::acquireArena(bytes)), bytes(bytes) {}
  ~PooledArena() { rt::releaseArena(data, bytes); }
  PooledArena(const PooledArena &) = delete;
  PooledArena &operator=(const PooledArena &) = delete;
};

} // namespace shardgen::kernels
