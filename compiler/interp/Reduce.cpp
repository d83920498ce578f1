// reduce over dimensions, and the elementwise combination of several tensors
// that all_reduce, reduce_scatter and unreduced results need. Both apply a
// reducer (add mul max min and or) in a fixed order; floats accumulate in
// their compute type (f32 for f32/f16/bf16, as XLA's CPU backend) and round
// to the element type once, integers wrap. A reduce with any other body
// (several inputs, argmax's comparison) runs it through the scalar-region
// evaluator, in the same order.

#include <algorithm>
#include <type_traits>

#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/ScalarRegion.h"
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
    if constexpr (isFloatTraits<Traits> || isComplexTraits<Traits>) {
      unsupported("reducer \"" + std::string(reducerName(reducer)) +
                  "\" is not defined on floating-point or complex tensors");
    } else {
      if (reducer == Reducer::And)
        return fn(std::integral_constant<Reducer, Reducer::And>{});
      return fn(std::integral_constant<Reducer, Reducer::Or>{});
    }
  }
}

/// The result shape of reducing `shape` over `dims`, and the strides that
/// map an input offset to its output offset (0 along reduced dims): a walk
/// of the input in row-major order then shows each output element its
/// inputs in row-major order.
StridedView reducedTarget(const Shape &shape, const std::vector<int64_t> &dims, Shape &kept) {
  const auto isReduced = [&](int64_t d) {
    return std::find(dims.begin(), dims.end(), d) != dims.end();
  };
  kept.clear();
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    if (!isReduced(d))
      kept.push_back(shape[d]);
  const std::vector<int64_t> outStrides = denseStrides(kept);
  StridedView target{0, {}};
  for (int64_t d = 0, k = 0; d < static_cast<int64_t>(shape.size()); ++d)
    target.strides.push_back(isReduced(d) ? 0 : outStrides[k++]);
  return target;
}

template <typename Traits>
Literal reduce(const Literal &operand, const Literal &init, const std::vector<int64_t> &dims,
               Reducer reducer) {
  using S = typename Traits::Storage;
  using C = typename Traits::Compute;
  using Acc = Accumulator<Traits>;
  Shape shape;
  const StridedView target = reducedTarget(operand.shape(), dims, shape);
  Literal out(TensorType{operand.elementType(), shape});

  std::vector<Acc> acc(out.numElements(), static_cast<Acc>(Traits::load(init.as<S>()[0])));
  const S *in = operand.as<S>();
  dispatchReducer<Traits>(reducer, [&](auto reducer) {
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

Literal evalReduce(const Literal &operand, const Literal &init, const std::vector<int64_t> &dims,
                   Reducer reducer) {
  return dispatchElementType(operand.elementType(), [&](auto traits) {
    return reduce<decltype(traits)>(operand, init, dims, reducer);
  });
}

std::vector<Literal> evalReduceRegion(std::span<const Literal *const> inputs,
                                      std::span<const Literal *const> inits,
                                      const std::vector<int64_t> &dims, const ScalarRegion &body) {
  const size_t n = inputs.size();
  Shape shape;
  const StridedView target = reducedTarget(inputs[0]->shape(), dims, shape);
  std::vector<Literal> out;
  for (const Literal *input : inputs)
    out.emplace_back(TensorType{input->elementType(), shape});
  const int64_t count = out[0].numElements();
  // Per output element, its n accumulators (scalar bits), each from its init.
  std::vector<ScalarBits> acc(static_cast<size_t>(count) * n);
  for (int64_t e = 0; e < count; ++e)
    for (size_t i = 0; i < n; ++i)
      acc[static_cast<size_t>(e) * n + i] = loadScalarBits(*inits[i], 0);
  // acc = body(acc..., x...) for each element in row-major order, as the
  // simple reducers fold.
  std::vector<ScalarBits> arguments(2 * n), results(n);
  forEachOffsetPair(inputs[0]->shape(), StridedView{0, denseStrides(inputs[0]->shape())}, target,
                    [&](int64_t s, int64_t d) {
                      ScalarBits *a = acc.data() + d * static_cast<int64_t>(n);
                      for (size_t i = 0; i < n; ++i) {
                        arguments[i] = a[i];
                        arguments[n + i] = loadScalarBits(*inputs[i], s);
                      }
                      body.run(arguments, results);
                      std::copy(results.begin(), results.end(), a);
                    });
  for (int64_t e = 0; e < count; ++e)
    for (size_t i = 0; i < n; ++i)
      storeScalarBits(out[i], e, acc[static_cast<size_t>(e) * n + i]);
  return out;
}

Literal combineElementwise(const std::vector<const Literal *> &operands, Reducer reducer) {
  return dispatchElementType(operands.front()->elementType(), [&](auto traits) {
    return combineAll<decltype(traits)>(operands, reducer);
  });
}

} // namespace shardgen::interp
