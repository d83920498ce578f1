// shardgen kernel library: memory a step needs besides its values' arena
// (the arena itself, transposed operands, packed panels, transfer slots).
// Blocks come from the runtime's pool (acquireArena): a program called
// again gets the same blocks back, instead of new ones the allocator maps
// and the kernel faults in page by page on every call (with the threads of
// a call gone, their allocator arenas give large blocks back to the system).
#pragma once

#include "kernels/elements.h"
#include "shardgen/runtime.h"

namespace shardgen::kernels {

namespace rt = shardgen::runtime;

/// One block from the runtime's pool, back to it on scope exit (also when
/// a collective throws because another device failed); none for 0 bytes.
struct Scratch {
  unsigned char *data;
  int64_t bytes;
  explicit Scratch(int64_t bytes)
      : data(bytes > 0 ? rt::acquireArena(bytes) : nullptr), bytes(bytes) {}
  ~Scratch() { rt::releaseArena(data, bytes); }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  template <typename T> T *as() { return reinterpret_cast<T *>(data); }
};

} // namespace shardgen::kernels
