#include "compiler/verify/VerifyUtil.h"

#include "compiler/ir/Diagnostic.h"

namespace shardgen::verify {

std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    return std::nullopt;
  return out;
}

std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out))
    return std::nullopt;
  return out;
}

std::string formatList(const std::vector<int64_t> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += ", ";
    out += std::to_string(values[i]);
  }
  return out + "]";
}

std::string quotedOpName(const Op &op) { return "\"" + std::string(op.name()) + "\""; }

std::string attrPointer(const Op &op, const std::string &key) {
  return joinPointer(op.pointer, key);
}

std::string resultTypePointer(const Op &op, size_t index) {
  return op.pluralResults ? joinPointer(joinPointer(op.pointer, "types"), index)
                          : joinPointer(op.pointer, "type");
}

std::string resultShardingPointer(const Op &op, size_t index) {
  return op.pluralResults ? joinPointer(joinPointer(op.pointer, "shardings"), index)
                          : joinPointer(op.pointer, "sharding");
}

void checkTypeSize(const TensorType &type, const std::string &pointer) {
  for (int64_t dim : type.shape)
    if (dim < 0)
      fail(pointer, "dimension sizes must be non-negative, got " + printType(type));
  if (!hasBoundedSize(type))
    fail(pointer, "tensor type " + printType(type) + " has too many elements");
}

} // namespace shardgen::verify
