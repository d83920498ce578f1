// shardgen kernel library: how kernels read and write buffers.
//
// Buffers are bytes of one arena that the buffer plan reuses for values of
// different types, and data movement copies elements as unsigned words of
// their width. A typed access (`out[i] = x` through a float *) to bytes that
// last held another type is undefined behaviour, and type-based alias
// analysis does exploit it: GCC reordered a word copy across the float
// stores it was meant to read. So every buffer access is a byte copy of one
// element: well defined whatever the bytes held before, and both GCC and
// clang lower it to a single (vectorizable) load or store. (A may_alias
// typedef is no fix: GCC drops the attribute on a type that depends on a
// template parameter.)
#pragma once

#include "kernels/elements.h"

namespace shardgen::kernels {

/// Element k of the buffer `p` points into.
template <typename S> SHARDGEN_INLINE S loadAt(const S *p, int64_t k) {
  S value;
  __builtin_memcpy(&value, p + k, sizeof(S));
  return value;
}

template <typename T> struct NonDeduced {
  using type = T;
};

/// Sets element k of the buffer `p` points into (`value` converts to S).
template <typename S>
SHARDGEN_INLINE void storeAt(S *p, int64_t k, typename NonDeduced<S>::type value) {
  __builtin_memcpy(p + k, &value, sizeof(S));
}

} // namespace shardgen::kernels
