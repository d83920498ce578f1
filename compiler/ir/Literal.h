#pragma once
// A dense tensor value in row-major order: constants in the IR, and the values
// the reference interpreter and .npy I/O exchange. i1 is one byte (0 or 1);
// f16/bf16 hold their 16-bit patterns; complex<f32>/complex<f64> hold
// (real, imaginary) pairs of their part type.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "compiler/ir/TensorType.h"

namespace shardgen {

class Literal {
public:
  Literal() = default;
  /// A zero-filled tensor of `type`.
  explicit Literal(TensorType type);

  const TensorType &type() const { return type_; }
  ElementType elementType() const { return type_.elementType; }
  const Shape &shape() const { return type_.shape; }
  int64_t numElements() const { return type_.numElements(); }
  size_t byteSize() const { return bytes_.size(); }
  std::byte *data() { return bytes_.data(); }
  const std::byte *data() const { return bytes_.data(); }

  template <typename T> T *as() { return reinterpret_cast<T *>(bytes_.data()); }
  template <typename T> const T *as() const { return reinterpret_cast<const T *>(bytes_.data()); }

  /// Element access by linear index through the widest type of its kind;
  /// f16/bf16 convert to and from float, integers wrap on store; a float
  /// read or stored as an integer saturates (NaN is 0).
  double getFloat(int64_t index) const;
  /// Integers and i1 (unsigned ones zero-extend; ui64 gives its bits: 2^63
  /// and above read negative, getFloat reads them right).
  int64_t getInt(int64_t index) const;
  /// An integer element in decimal (ui64's above 2^63 too).
  std::string integerText(int64_t index) const;
  void setFloat(int64_t index, double value);
  void setInt(int64_t index, int64_t value);
  /// Complex elements: getFloat/setFloat read and write the real part
  /// (setFloat zeroes the imaginary one); getImag is 0 for other types and
  /// setComplex sets a real element's value to `real`.
  double getImag(int64_t index) const;
  void setComplex(int64_t index, double real, double imag);

  /// Row-major strides in elements.
  std::vector<int64_t> strides() const;

  /// Bitwise equality of type and contents.
  bool operator==(const Literal &other) const = default;

private:
  TensorType type_;
  std::vector<std::byte> bytes_;
};

} // namespace shardgen
