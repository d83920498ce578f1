#pragma once
// The value names of one scope while a graph is read: an open-addressing hash
// table over copies of the names in a few large blocks (the ops' JSON is
// parsed one op at a time, so the document's strings do not stay). A graph of
// a million values looks names up a few million times; std::unordered_map (a
// node per name, a modulo per lookup) was most of the reader's time outside
// parsing.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <sys/mman.h>
#include <vector>

namespace shardgen {

/// Blocks of 2 MiB and more on transparent huge pages (where the kernel
/// offers them on request): a lookup in the slot table of a million names
/// (16 MB) then misses the caches but not the TLB as well.
template <typename T> struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = size_t{1} << 21;

  HugePageAllocator() = default;
  template <typename U> explicit HugePageAllocator(const HugePageAllocator<U> &) {}

  T *allocate(size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < kHugePage)
      return std::allocator<T>().allocate(n);
    size_t rounded = (bytes + kHugePage - 1) & ~(kHugePage - 1);
    void *block = std::aligned_alloc(kHugePage, rounded);
    if (!block)
      throw std::bad_alloc();
    ::madvise(block, rounded, MADV_HUGEPAGE); // a hint: no huge pages is fine
    return static_cast<T *>(block);
  }
  void deallocate(T *block, size_t n) {
    if (n * sizeof(T) < kHugePage)
      std::allocator<T>().deallocate(block, n);
    else
      std::free(block);
  }
  bool operator==(const HugePageAllocator &) const { return true; }
};

class NameTable {
public:
  /// Room for `count` names in all without growing.
  void reserve(size_t count) {
    if (count * 4 > slots_.size() * 3)
      rehash(capacityFor(count));
    if (count > entries_.capacity()) // geometric: insert reserves one more each time
      entries_.reserve(std::max(count, 2 * entries_.capacity()));
  }

  size_t size() const { return entries_.size(); }

  std::optional<int64_t> find(std::string_view name) const {
    if (slots_.empty())
      return std::nullopt;
    uint32_t hash = hashOf(name);
    for (size_t i = hash & mask(); slots_[i].used(); i = (i + 1) & mask())
      if (slots_[i].hash == hash && entries_[slots_[i].entry - 1].name() == name)
        return entries_[slots_[i].entry - 1].id;
    return std::nullopt;
  }

  /// Adds `name` (not empty, shorter than 4 GiB; fewer than 4G names);
  /// false (and nothing changes) when it is already there.
  bool insert(std::string_view name, int64_t id) {
    reserve(entries_.size() + 1);
    uint32_t hash = hashOf(name);
    size_t i = hash & mask();
    for (; slots_[i].used(); i = (i + 1) & mask())
      if (slots_[i].hash == hash && entries_[slots_[i].entry - 1].name() == name)
        return false;
    entries_.push_back(Entry{keep(name), static_cast<uint32_t>(name.size()), id});
    slots_[i] = Slot{hash, static_cast<uint32_t>(entries_.size())};
    return true;
  }

private:
  /// 8 bytes, so the table of a million names (a cache miss per probe: it
  /// is far larger than the caches) is 16 MB; the names and ids are in
  /// `entries_`, in definition order, where recent ones stay cached.
  struct Slot {
    uint32_t hash = 0;
    uint32_t entry = 0; // index + 1 into entries_; 0: a free slot
    bool used() const { return entry != 0; }
  };
  struct Entry {
    const char *data;
    uint32_t size;
    int64_t id;
    std::string_view name() const { return {data, size}; }
  };

  /// FNV-1a, then a multiply-shift mix so the low bits (the slot) depend on
  /// every byte: names often differ only in their last digits.
  static uint32_t hashOf(std::string_view name) {
    uint64_t hash = 1469598103934665603ull;
    for (char c : name) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
    hash ^= hash >> 29;
    hash *= 0xbf58476d1ce4e5b9ull;
    return static_cast<uint32_t>(hash >> 32);
  }

  static size_t capacityFor(size_t count) {
    size_t capacity = 16;
    while (capacity * 3 < count * 4) // at most 3/4 full: short probe runs
      capacity *= 2;
    return capacity;
  }

  size_t mask() const { return slots_.size() - 1; }

  void rehash(size_t capacity) {
    std::vector<Slot, HugePageAllocator<Slot>> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    for (const Slot &slot : old) {
      if (!slot.used())
        continue;
      size_t i = slot.hash & mask();
      while (slots_[i].used())
        i = (i + 1) & mask();
      slots_[i] = slot;
    }
  }

  /// A copy of `name` that stays where it is.
  const char *keep(std::string_view name) {
    constexpr size_t kBlockSize = 1 << 16;
    if (blocks_.empty() || blockUsed_ + name.size() > blockSize_) {
      blockSize_ = std::max(kBlockSize, name.size());
      blocks_.push_back(std::make_unique<char[]>(blockSize_));
      blockUsed_ = 0;
    }
    char *copy = blocks_.back().get() + blockUsed_;
    std::copy(name.begin(), name.end(), copy);
    blockUsed_ += name.size();
    return copy;
  }

  std::vector<Slot, HugePageAllocator<Slot>> slots_;
  std::vector<Entry, HugePageAllocator<Entry>> entries_; // looked up at random too
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t blockUsed_ = 0, blockSize_ = 0;
};

} // namespace shardgen
