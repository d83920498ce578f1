// The pool behind acquireArena/releaseArena (runtime.h): blocks given back
// wait, by size, for the next call of a program that needs that many bytes
// (each device's arena and its steps' scratch: packed dot panels, permuted
// operands, transfer slots). Bounded in blocks and bytes, so a run of many
// devices or one huge program holds no more than 1 GiB after it returns.

#include <cstdint>
#include <map>
#include <mutex>

#include "shardgen/runtime.h"

namespace shardgen::runtime {
namespace {

constexpr size_t kMaxPooledBlocks = 64;
constexpr int64_t kMaxPooledBytes = int64_t(1) << 30;

struct ArenaPool {
  std::mutex mutex;
  std::multimap<int64_t, unsigned char *> blocks; // by size
  int64_t pooledBytes = 0;

  ~ArenaPool() {
    for (auto &[bytes, data] : blocks)
      delete[] data;
  }
};

ArenaPool &pool() {
  static ArenaPool instance;
  return instance;
}

int64_t blockBytes(int64_t bytes) { return bytes > 0 ? bytes : 1; }

} // namespace

unsigned char *acquireArena(int64_t bytes) {
  bytes = blockBytes(bytes);
  {
    ArenaPool &arenas = pool();
    std::lock_guard<std::mutex> lock(arenas.mutex);
    if (auto it = arenas.blocks.find(bytes); it != arenas.blocks.end()) {
      unsigned char *data = it->second;
      arenas.blocks.erase(it);
      arenas.pooledBytes -= bytes;
      return data;
    }
  }
  return new unsigned char[bytes];
}

void releaseArena(unsigned char *data, int64_t bytes) {
  if (!data)
    return;
  bytes = blockBytes(bytes);
  {
    ArenaPool &arenas = pool();
    std::lock_guard<std::mutex> lock(arenas.mutex);
    if (arenas.blocks.size() < kMaxPooledBlocks && arenas.pooledBytes + bytes <= kMaxPooledBytes) {
      arenas.blocks.emplace(bytes, data);
      arenas.pooledBytes += bytes;
      return;
    }
  }
  delete[] data;
}

} // namespace shardgen::runtime
