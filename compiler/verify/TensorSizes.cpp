// Sizes every later stage computes in int64_t: refused here when they
// would overflow, so no stage after verify has to check.

#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/Verifier.h"

namespace shardgen {

namespace {

bool bytesFit(const TensorType &type) {
  int64_t bytes = static_cast<int64_t>(elementByteWidth(type.elementType));
  for (int64_t d : type.shape)
    if (__builtin_mul_overflow(bytes, d, &bytes))
      return false;
  return true;
}

} // namespace

void checkTensorSizes(const Graph &graph) {
  for (const Value &value : graph.values)
    if (value.type && !bytesFit(*value.type))
      throw GraphError(value.pointer(), "tensor \"" + value.name + "\" of type " +
                                            printType(*value.type) +
                                            " is too large: its size in bytes exceeds 2^63 - 1");
}

} // namespace shardgen
