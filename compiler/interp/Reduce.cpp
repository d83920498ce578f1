// reduce over dimensions, and the elementwise combination of several tensors
// that all_reduce, reduce_scatter and unreduced results need. Both apply a
// reducer (add mul max min and or) in a fixed order; floats accumulate in
// their compute type (f32 for f32/f16/bf16, as XLA's CPU backend) and round
// to the element type once, integers wrap.

#include <algorithm>
#include <type_traits>

#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/StridedLoop.h"

namespace shardgen::interp {
namespace {

template <typename Traits> using Accumulator = typename Traits::Compute;

template <typename Traits, Reducer R>
Accumulator<Traits> combine(Accumulator<Traits> a, Accumulator<Traits> b) {
  if constexpr (isBoolTraits<Traits>) {
    // On i1, add is OR and multiply is AND (StableHLO), as are max and min.
    if constexpr (R == Reducer::Add || R == Reducer::Max || R == Reducer::Or)
      return a | b;
    else
      return a & b;
  } else if constexpr (R == Reducer::Add) {
    return math::add(a, b);
  } else if constexpr (R == Reducer::Mul) {
    return math::multiply(a, b);
  } else if constexpr (R == Reducer::Max) {
    return math::maximum(a, b);
  } else if constexpr (R == Reducer::Min) {
    return math::minimum(a, b);
  } else if constexpr (R == Reducer::And) {
    return a & b;
  } else {
    return a | b;
  }
}

/// Calls fn(std::integral_constant<Reducer, r>{}) so loops specialise on it.
/// `and`/`or` on floats are rejected here.
template <typename Traits, typename Fn> void dispatchReducer(Reducer reducer, Fn &&fn) {
  switch (reducer) {
  case Reducer::Add:
    return fn(std::integral_constant<Reducer, Reducer::Add>{});
  case Reducer::Mul:
    return fn(std::integral_constant<Reducer, Reducer::Mul>{});
  case Reducer::Max:
    return fn(std::integral_constant<Reducer, Reducer::Max>{});
  case Reducer::Min:
    return fn(std::integral_constant<Reducer, Reducer::Min>{});
  case Reducer::And:
  case Reducer::Or:
    if constexpr (isFloatTraits<Traits>) {
      unsupported("reducer \"" + std::string(reducerName(reducer)) +
                  "\" is not defined on floating-point tensors");
    } else {
      if (reducer == Reducer::And)
        return fn(std::integral_constant<Reducer, Reducer::And>{});
      return fn(std::integral_constant<Reducer, Reducer::Or>{});
    }
  }
}

template <typename Traits>
Literal reduce(const Literal &operand, const Literal &init, const ReduceAttrs &attrs) {
  using S = typename Traits::Storage;
  using C = typename Traits::Compute;
  using Acc = Accumulator<Traits>;
  const auto isReduced = [&](int64_t d) {
    return std::find(attrs.dimensions.begin(), attrs.dimensions.end(), d) != attrs.dimensions.end();
  };
  Shape shape;
  for (int64_t d = 0; d < operand.type().rank(); ++d)
    if (!isReduced(d))
      shape.push_back(operand.shape()[d]);
  Literal out(TensorType{operand.elementType(), shape});

  // Walk the operand in row-major order; the output offset ignores reduced
  // dims, so each output element sees its inputs in row-major order.
  const std::vector<int64_t> outStrides = denseStrides(shape);
  StridedView target{0, {}};
  for (int64_t d = 0, kept = 0; d < operand.type().rank(); ++d)
    target.strides.push_back(isReduced(d) ? 0 : outStrides[kept++]);

  std::vector<Acc> acc(out.numElements(), static_cast<Acc>(Traits::load(init.as<S>()[0])));
  const S *in = operand.as<S>();
  dispatchReducer<Traits>(attrs.reducer, [&](auto reducer) {
    forEachOffsetPair(operand.shape(), StridedView{0, denseStrides(operand.shape())}, target,
                      [&](int64_t s, int64_t d) {
                        acc[d] =
                            combine<Traits, decltype(reducer)::value>(acc[d], Traits::load(in[s]));
                      });
  });
  S *result = out.as<S>();
  for (size_t i = 0; i < acc.size(); ++i)
    result[i] = Traits::store(static_cast<C>(acc[i]));
  return out;
}

template <typename Traits>
Literal combineAll(const std::vector<const Literal *> &operands, Reducer reducer) {
  using S = typename Traits::Storage;
  using C = typename Traits::Compute;
  using Acc = Accumulator<Traits>;
  const Literal &first = *operands.front();
  std::vector<Acc> acc(first.numElements());
  for (size_t i = 0; i < acc.size(); ++i)
    acc[i] = Traits::load(first.as<S>()[i]);
  dispatchReducer<Traits>(reducer, [&](auto r) {
    for (size_t k = 1; k < operands.size(); ++k) {
      const S *in = operands[k]->as<S>();
      for (size_t i = 0; i < acc.size(); ++i)
        acc[i] = combine<Traits, decltype(r)::value>(acc[i], Traits::load(in[i]));
    }
  });
  Literal out(first.type());
  S *result = out.as<S>();
  for (size_t i = 0; i < acc.size(); ++i)
    result[i] = Traits::store(static_cast<C>(acc[i]));
  return out;
}

} // namespace

Literal evalReduce(const Literal &operand, const Literal &init, const ReduceAttrs &attrs) {
  return dispatchElementType(operand.elementType(), [&](auto traits) {
    return reduce<decltype(traits)>(operand, init, attrs);
  });
}

Literal combineElementwise(const std::vector<const Literal *> &operands, Reducer reducer) {
  return dispatchElementType(operands.front()->elementType(), [&](auto traits) {
    return combineAll<decltype(traits)>(operands, reducer);
  });
}

} // namespace shardgen::interp
