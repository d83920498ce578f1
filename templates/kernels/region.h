// shardgen kernel library: what scalar bodies (a reduce's region that is no
// simple reducer: argmax, several inputs) need beside the elementwise
// functors. The generated code defines each body as a struct whose static
// apply(accumulators..., elements..., results&...) runs its ops in order,
// every result rounded to its element type as the interpreter rounds it.
#pragma once

#include "kernels/memory.h"

namespace shardgen::kernels {

/// A scalar of storage type S from its bits (a body's constant).
template <typename S> SHARDGEN_INLINE S fromBits(uint64_t bits) {
  static_assert(sizeof(S) <= sizeof bits, "a complex constant is built from its parts' bits");
  S value;
  __builtin_memcpy(&value, &bits, sizeof(S));
  return value;
}

} // namespace shardgen::kernels
