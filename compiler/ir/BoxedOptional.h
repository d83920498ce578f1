#pragma once
// An optional value kept on the heap: 8 bytes where it is absent, for rare,
// large members of structs a graph holds millions of (an op's attributes
// are a variant as large as its largest alternative). Copies are deep; the
// std::optional operations the IR uses are here.

#include <memory>
#include <optional>
#include <utility>

namespace shardgen {

template <typename T> class BoxedOptional {
public:
  BoxedOptional() = default;
  BoxedOptional(std::nullopt_t) {}                                          // NOLINT: as optional
  BoxedOptional(T value) : value_(std::make_unique<T>(std::move(value))) {} // NOLINT: as optional
  BoxedOptional(const std::optional<T> &other) // NOLINT: converts as optional does
      : value_(other ? std::make_unique<T>(*other) : nullptr) {}
  BoxedOptional(const BoxedOptional &other) : value_(copyOf(other)) {}
  BoxedOptional(BoxedOptional &&) noexcept = default;
  BoxedOptional &operator=(const BoxedOptional &other) {
    if (this != &other)
      value_ = copyOf(other);
    return *this;
  }
  BoxedOptional &operator=(BoxedOptional &&) noexcept = default;
  ~BoxedOptional() = default;

  operator std::optional<T>() const { // NOLINT: converts as optional does
    return value_ ? std::optional<T>(*value_) : std::nullopt;
  }

  bool has_value() const { return value_ != nullptr; } // NOLINT: std::optional's name
  explicit operator bool() const { return has_value(); }
  T &operator*() { return *value_; }
  const T &operator*() const { return *value_; }
  T *operator->() { return value_.get(); }
  const T *operator->() const { return value_.get(); }
  void reset() { value_.reset(); }

  friend bool operator==(const BoxedOptional &a, const BoxedOptional &b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }
  friend bool operator==(const BoxedOptional &a, const std::optional<T> &b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }

private:
  static std::unique_ptr<T> copyOf(const BoxedOptional &other) {
    return other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
  }
  std::unique_ptr<T> value_;
};

} // namespace shardgen
