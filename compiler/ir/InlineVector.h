#pragma once
// A vector whose first N elements live inside the object, for the
// per-operand and per-result members of Op: a large graph has millions of
// ops with one or two of each, and a std::vector costs a 32-byte malloc
// chunk per op and member besides its own 24 bytes (LLVM's SmallVector does
// the same; the IR does not link LLVM). Past N the elements move to the heap
// as in std::vector. The std::vector operations the IR uses are here; it
// converts to std::span.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <utility>

namespace shardgen {

template <typename T, uint32_t N> class InlineVector {
  static_assert(N >= 1, "an InlineVector keeps at least one element inline");

public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T &;
  using const_reference = const T &;
  using pointer = T *;
  using const_pointer = const T *;
  using iterator = T *;
  using const_iterator = const T *;

  InlineVector() = default;
  InlineVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  explicit InlineVector(size_type count) { resize(count); }
  InlineVector(size_type count, const T &value) { assign(count, value); }
  template <std::input_iterator It> InlineVector(It first, It last) { assign(first, last); }
  InlineVector(const InlineVector &other) { assign(other.begin(), other.end()); }
  InlineVector(InlineVector &&other) noexcept { takeFrom(other); }
  InlineVector &operator=(const InlineVector &other) {
    if (this != &other)
      assign(other.begin(), other.end());
    return *this;
  }
  InlineVector &operator=(InlineVector &&other) noexcept {
    if (this != &other) {
      release();
      takeFrom(other);
    }
    return *this;
  }
  InlineVector &operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~InlineVector() { release(); }

  size_type size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_type capacity() const { return capacity_; }
  T *data() { return isInline() ? inlineData() : heap_; }
  const T *data() const { return isInline() ? inlineData() : heap_; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  T &operator[](size_type i) { return data()[i]; }
  const T &operator[](size_type i) const { return data()[i]; }
  T &at(size_type i) { return data()[checked(i)]; }
  const T &at(size_type i) const { return data()[checked(i)]; }
  T &front() { return data()[0]; }
  const T &front() const { return data()[0]; }
  T &back() { return data()[size_ - 1]; }
  const T &back() const { return data()[size_ - 1]; }

  template <typename... Args> T &emplace_back(Args &&...args) {
    if (size_ < capacity_)
      return *::new (data() + size_++) T(std::forward<Args>(args)...);
    T value(std::forward<Args>(args)...); // args may refer to an element
    // At least N + 1: GCC's -Warray-bounds cannot tell capacity_ > 0.
    grow(std::max<size_type>(size_type{capacity_} * 2, N + 1));
    return *::new (data() + size_++) T(std::move(value));
  }
  void push_back(const T &value) { emplace_back(value); }
  void push_back(T &&value) { emplace_back(std::move(value)); }
  void pop_back() { std::destroy_at(data() + --size_); }

  void reserve(size_type count) {
    if (count > capacity_)
      grow(count);
  }
  void resize(size_type count) {
    reserve(count);
    while (size_ < count)
      ::new (data() + size_++) T();
    truncate(count);
  }
  void resize(size_type count, const T &value) {
    if (count > capacity_) {
      T copy(value); // value may be an element
      grow(count);
      fillTo(count, copy);
      return;
    }
    fillTo(count, value);
    truncate(count);
  }
  void clear() { truncate(0); }

  template <std::input_iterator It> void assign(It first, It last) {
    clear();
    if constexpr (std::forward_iterator<It>)
      reserve(static_cast<size_type>(std::distance(first, last)));
    for (; first != last; ++first)
      emplace_back(*first);
  }
  void assign(size_type count, const T &value) {
    clear();
    reserve(count);
    fillTo(count, value);
  }

  friend bool operator==(const InlineVector &a, const InlineVector &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  /// Also against a std::vector or array of the same elements.
  friend bool operator==(const InlineVector &a, std::span<const T> b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  bool isInline() const { return capacity_ == N; }
  T *inlineData() { return std::launder(reinterpret_cast<T *>(inline_)); }
  const T *inlineData() const { return std::launder(reinterpret_cast<const T *>(inline_)); }
  size_type checked(size_type i) const {
    if (i >= size_)
      throw std::out_of_range("InlineVector::at");
    return i;
  }
  void fillTo(size_type count, const T &value) {
    while (size_ < count)
      ::new (data() + size_++) T(value);
  }
  void truncate(size_type count) {
    while (size_ > count)
      pop_back();
  }
  /// Moves the elements to a heap block of `count` (> capacity) slots.
  void grow(size_type count) {
    std::allocator<T> allocator;
    T *block = allocator.allocate(count);
    std::uninitialized_move(begin(), end(), block);
    std::destroy(begin(), end());
    if (!isInline())
      allocator.deallocate(heap_, capacity_);
    heap_ = block;
    capacity_ = static_cast<uint32_t>(count);
  }
  /// Destroys the elements and frees the heap block; leaves the object empty.
  void release() {
    clear();
    if (!isInline())
      std::allocator<T>().deallocate(heap_, capacity_);
    capacity_ = N;
  }
  /// Takes `other`'s elements (its heap block, or moves its inline ones);
  /// leaves `other` empty. This object must be empty and inline.
  void takeFrom(InlineVector &other) noexcept {
    if (other.isInline()) {
      std::uninitialized_move(other.begin(), other.end(), inlineData());
      size_ = other.size_;
      other.clear();
      return;
    }
    heap_ = other.heap_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.size_ = 0;
    other.capacity_ = N;
  }

  union {
    alignas(T) std::byte inline_[N * sizeof(T)];
    T *heap_;
  };
  uint32_t size_ = 0;
  uint32_t capacity_ = N; // N: the elements are inline
};

} // namespace shardgen
