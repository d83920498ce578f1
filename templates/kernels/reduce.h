// shardgen kernel library: reductions. Floats accumulate in their compute
// type (f32 for f32/f16/bf16, as the reference interpreter and XLA's CPU
// backend) and round once; integers wrap; on i1, add and max are `or`, mul
// and min are `and`.
#pragma once

#include "kernels/layout.h"

namespace shardgen::kernels {

template <typename E> using Accumulator = typename E::Compute;

#define SHARDGEN_REDUCER(Name, general, boolean)                                                   \
  struct Name {                                                                                    \
    template <typename E, typename A> static SHARDGEN_INLINE A apply(A a, A b) {                   \
      if constexpr (isBool<E>)                                                                     \
        return boolean;                                                                            \
      else                                                                                         \
        return general;                                                                            \
    }                                                                                              \
  };
SHARDGEN_REDUCER(ReduceAdd, math::add(a, b), A(a | b))
SHARDGEN_REDUCER(ReduceMul, math::multiply(a, b), A(a &b))
SHARDGEN_REDUCER(ReduceMax, math::maximum(a, b), A(a | b))
SHARDGEN_REDUCER(ReduceMin, math::minimum(a, b), A(a &b))
SHARDGEN_REDUCER(ReduceAnd, A(a &b), A(a &b))
SHARDGEN_REDUCER(ReduceOr, A(a | b), A(a | b))
#undef SHARDGEN_REDUCER

/// `Kept` walks the output elements (input strides of the kept dims, output
/// dense strides); `Reduced` walks the reduced dims of one output element in
/// row-major order.
template <typename E, typename Red, int RK, Walk<RK> Kept, int RR, Walk<RR> Reduced>
inline void reduce(const typename E::Storage *__restrict in, const typename E::Storage *init,
                   typename E::Storage *__restrict out) {
  using A = Accumulator<E>;
  const A start = static_cast<A>(E::load(loadAt(init, 0)));
  forEach<RK, Kept>(0, 0, [&](int64_t base, int64_t o) {
    A acc = start;
    forEach<RR, Reduced>(base, 0, [&](int64_t i, int64_t) {
      acc = Red::template apply<E, A>(acc, static_cast<A>(E::load(loadAt(in, i))));
    });
    storeAt(out, o, E::store(static_cast<typename E::Compute>(acc)));
  });
}

/// Combines `count` buffers of N elements (`parts[k]`, in order) into `out`.
template <typename E, typename Red, int64_t N>
inline void combine(const typename E::Storage *const *parts, int64_t count,
                    typename E::Storage *__restrict out) {
  using A = Accumulator<E>;
  for (int64_t i = 0; i < N; ++i) {
    A acc = static_cast<A>(E::load(loadAt(parts[0], i)));
    for (int64_t k = 1; k < count; ++k)
      acc = Red::template apply<E, A>(acc, static_cast<A>(E::load(loadAt(parts[k], i))));
    storeAt(out, i, E::store(static_cast<typename E::Compute>(acc)));
  }
}

} // namespace shardgen::kernels
