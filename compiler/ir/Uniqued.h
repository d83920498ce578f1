#pragma once
// An optional immutable value stored once per process: equal values share
// one allocation, so the millions of IR slots of a large graph, which hold a
// handful of distinct types or shardings, cost a pointer each (MLIR uniques
// its types and attributes in its context for the same reason). Equality is
// pointer equality. Stored values live until the process ends: they are as
// many as the distinct values a process ever read, which the input bounds.
//
// The std::optional operations the IR uses are here; a slot is changed by
// assigning a new value, never in place.

#include <cstddef>
#include <optional>

namespace shardgen {

/// The process's one copy of `value` (thread-safe). Instantiated in
/// Uniqued.cpp for the types the IR uniques.
template <typename T> const T *uniquedInstance(const T &value);

template <typename T> class UniquedOptional {
public:
  UniquedOptional() = default;
  UniquedOptional(std::nullopt_t) {}                                  // NOLINT: as optional
  UniquedOptional(const T &value) : value_(uniquedInstance(value)) {} // NOLINT: as optional
  UniquedOptional(const std::optional<T> &other) // NOLINT: converts as optional does
      : value_(other ? uniquedInstance(*other) : nullptr) {}

  operator std::optional<T>() const { // NOLINT: converts as optional does
    return value_ ? std::optional<T>(*value_) : std::nullopt;
  }

  bool has_value() const { return value_ != nullptr; } // NOLINT: std::optional's name
  explicit operator bool() const { return has_value(); }
  const T &operator*() const { return *value_; }
  const T *operator->() const { return value_; }
  /// The shared instance (null when empty): equal values, equal pointers.
  const T *get() const { return value_; }
  void reset() { value_ = nullptr; }

  friend bool operator==(const UniquedOptional &a, const UniquedOptional &b) {
    return a.value_ == b.value_;
  }
  friend bool operator==(const UniquedOptional &a, const std::optional<T> &b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a.value_ == *b);
  }
  friend bool operator==(const UniquedOptional &a, const T &b) {
    return a.has_value() && *a.value_ == b;
  }

private:
  const T *value_ = nullptr;
};

} // namespace shardgen
