#pragma once
// A vector of per-result entries that holds one entry in place: nearly every
// op has one result, and a std::vector would cost its 24 bytes plus a 32-byte
// heap block per op of a million-op graph for an 8-byte handle. Only for
// small trivially copyable entries (uniqued handles); the std::vector
// operations the IR uses are here.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <type_traits>

namespace shardgen {

template <typename T> class PerResult {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "entries are copied as bytes");

public:
  PerResult() = default;
  PerResult(std::initializer_list<T> entries) {
    for (const T &entry : entries)
      push_back(entry);
  }
  PerResult(const PerResult &other) { *this = other; }
  PerResult(PerResult &&other) noexcept { swap(other); }
  PerResult &operator=(const PerResult &other) {
    if (this != &other) {
      clear();
      reserve(other.size_);
      std::copy(other.begin(), other.end(), begin());
      size_ = other.size_;
    }
    return *this;
  }
  PerResult &operator=(PerResult &&other) noexcept {
    PerResult moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~PerResult() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T *data() { return onHeap() ? storage_.many : &storage_.one; }
  const T *data() const { return onHeap() ? storage_.many : &storage_.one; }
  T *begin() { return data(); }
  T *end() { return data() + size_; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + size_; }
  T &operator[](size_t i) { return data()[i]; }
  const T &operator[](size_t i) const { return data()[i]; }
  T &back() { return data()[size_ - 1]; }
  T &at(size_t i) { return data()[checked(i)]; }
  const T &at(size_t i) const { return data()[checked(i)]; }

  void clear() {
    release();
    size_ = 0;
  }
  /// New entries are value-initialised (empty handles).
  void resize(size_t size) {
    reserve(size);
    std::fill(data() + std::min(size, static_cast<size_t>(size_)), data() + size, T{});
    size_ = static_cast<uint32_t>(size);
  }
  void push_back(const T &entry) {
    T copy = entry; // `entry` may live in this vector
    if (size_ == capacity_)
      reserve(size_t{capacity_} * 2);
    data()[size_++] = copy;
  }
  void reserve(size_t capacity) {
    if (capacity <= capacity_)
      return;
    T *many = new T[capacity];
    std::copy(begin(), end(), many);
    release();
    storage_.many = many;
    capacity_ = static_cast<uint32_t>(capacity);
  }

  friend bool operator==(const PerResult &a, const PerResult &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  bool onHeap() const { return capacity_ > 1; }
  size_t checked(size_t i) const {
    if (i >= size_)
      throw std::out_of_range("PerResult::at");
    return i;
  }
  /// Frees the heap block, back to the one entry in place (size not kept).
  void release() {
    if (onHeap())
      delete[] storage_.many;
    std::construct_at(&storage_.one); // the active member again
    capacity_ = 1;
  }
  void swap(PerResult &other) noexcept {
    std::swap(storage_, other.storage_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  union Storage {
    T one;
    T *many;
    Storage() : one() {}
  } storage_;
  uint32_t size_ = 0;
  uint32_t capacity_ = 1; // 1: `one` holds the entry
};

} // namespace shardgen
