#include "compiler/interp/ScalarRegion.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

#include "compiler/interp/ElementFunctions.h"
#include "compiler/ir/InternalError.h"

namespace shardgen::interp {
namespace {

template <typename Traits> typename Traits::Storage storage(const ScalarBits &bits) {
  static_assert(sizeof(typename Traits::Storage) <= sizeof bits.words);
  typename Traits::Storage value;
  std::memcpy(&value, bits.words, sizeof value);
  return value;
}

template <typename Traits> typename Traits::Compute load(const ScalarBits &bits) {
  return Traits::load(storage<Traits>(bits));
}

template <typename Traits> ScalarBits store(typename Traits::Compute value) {
  const typename Traits::Storage storage = Traits::store(value);
  ScalarBits bits;
  std::memcpy(bits.words, &storage, sizeof storage);
  return bits;
}

ScalarBits predicate(bool value) { return ScalarBits{{value ? 1u : 0u, 0}}; }

// The steps, one template per op family; `Scalar` is the op's ScalarOp
// (ElementFunctions.h).
template <typename Traits, typename Scalar> void unaryStep(ScalarBits *r, const int32_t *s) {
  r[s[1]] = store<Traits>(Scalar::template apply<Traits>(load<Traits>(r[s[0]])));
}

template <typename Traits, typename Scalar> void binaryStep(ScalarBits *r, const int32_t *s) {
  r[s[2]] =
      store<Traits>(Scalar::template apply<Traits>(load<Traits>(r[s[0]]), load<Traits>(r[s[1]])));
}

template <typename Traits, ComparisonDirection Direction>
void compareStep(ScalarBits *r, const int32_t *s) {
  r[s[2]] = predicate(compare(Direction, load<Traits>(r[s[0]]), load<Traits>(r[s[1]])));
}

template <typename Traits, ComparisonDirection Direction>
void totalOrderStep(ScalarBits *r, const int32_t *s) {
  r[s[2]] = predicate(compare(Direction, totalOrderKey<Traits>(storage<Traits>(r[s[0]])),
                              totalOrderKey<Traits>(storage<Traits>(r[s[1]]))));
}

void selectStep(ScalarBits *r, const int32_t *s) { r[s[3]] = r[s[0]].isTrue() ? r[s[1]] : r[s[2]]; }

template <typename Traits> void clampStep(ScalarBits *r, const int32_t *s) {
  r[s[3]] = store<Traits>(math::minimum(math::maximum(load<Traits>(r[s[1]]), load<Traits>(r[s[0]])),
                                        load<Traits>(r[s[2]])));
}

template <typename From, typename To> void convertStep(ScalarBits *r, const int32_t *s) {
  r[s[1]] = store<To>(convertElement<From, To>(load<From>(r[s[0]])));
}

template <typename Traits> void isFiniteStep(ScalarBits *r, const int32_t *s) {
  r[s[1]] = predicate(std::isfinite(load<Traits>(r[s[0]])));
}

template <typename Traits, ComparisonDirection Direction>
ScalarRegion::StepFn compareStepFn(bool totalOrder) {
  return totalOrder ? &totalOrderStep<Traits, Direction> : &compareStep<Traits, Direction>;
}

template <typename Traits>
ScalarRegion::StepFn compareFn(ComparisonDirection direction, bool totalOrder) {
  switch (direction) {
  case ComparisonDirection::EQ:
    return compareStepFn<Traits, ComparisonDirection::EQ>(totalOrder);
  case ComparisonDirection::NE:
    return compareStepFn<Traits, ComparisonDirection::NE>(totalOrder);
  case ComparisonDirection::LT:
    return compareStepFn<Traits, ComparisonDirection::LT>(totalOrder);
  case ComparisonDirection::LE:
    return compareStepFn<Traits, ComparisonDirection::LE>(totalOrder);
  case ComparisonDirection::GT:
    return compareStepFn<Traits, ComparisonDirection::GT>(totalOrder);
  case ComparisonDirection::GE:
    return compareStepFn<Traits, ComparisonDirection::GE>(totalOrder);
  }
  return nullptr;
}

/// The step of each per-element op outside the unary and binary families,
/// on operands of traits T: one specialization per ElementwiseOther row (a
/// row without one fails to build in stepFnOf).
template <OpKind K> struct OtherStep;
template <> struct OtherStep<OpKind::Compare> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &, const Op &op) {
    const auto &attrs = op.attr<CompareAttrs>();
    return compareFn<T>(attrs.direction, attrs.totalOrder());
  }
};
template <> struct OtherStep<OpKind::Select> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &, const Op &) {
    return &selectStep;
  }
};
template <> struct OtherStep<OpKind::Clamp> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &graph, const Op &op) {
    if constexpr (isComplexTraits<T>)
      unsupported(notDefined(op.kind, graph.type(op.operands[1]).elementType));
    else
      return &clampStep<T>;
  }
};
template <> struct OtherStep<OpKind::Convert> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &graph, const Op &op) {
    return dispatchElementType(graph.type(op.results[0]).elementType,
                               [](auto to) -> ScalarRegion::StepFn {
                                 return &convertStep<T, decltype(to)>;
                               });
  }
};

template <> struct OtherStep<OpKind::IsFinite> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &graph, const Op &op) {
    if constexpr (!isFloatTraits<T>)
      unsupported(notDefined(op.kind, graph.type(op.operands[0]).elementType));
    else
      return &isFiniteStep<T>;
  }
};

/// reduce_precision's format is an attribute, which steps do not hold: the
/// verifier keeps it out of scalar bodies (ScalarRegionVerifier.cpp).
template <> struct OtherStep<OpKind::ReducePrecision> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &, const Op &op) {
    SHARDGEN_CHECK(false, std::string(op.name()) + " in a scalar body (verify refuses it)");
    return nullptr;
  }
};

/// real and imag of a complex value, or of a float value (itself, and +0);
/// complex of two float parts; abs of a complex value (its modulus).
template <typename T, bool Imaginary> void partStep(ScalarBits *r, const int32_t *s) {
  if constexpr (isComplexTraits<T>) {
    const typename T::Compute x = load<T>(r[s[0]]);
    r[s[1]] = store<ComplexPartTraits<T>>(Imaginary ? x.im : x.re);
  } else {
    r[s[1]] = Imaginary ? ScalarBits{} : r[s[0]];
  }
}

template <typename Part> void complexStep(ScalarBits *r, const int32_t *s) {
  using C = std::conditional_t<std::is_same_v<Part, F32Traits>, C64Traits, C128Traits>;
  r[s[2]] = store<C>({load<Part>(r[s[0]]), load<Part>(r[s[1]])});
}

template <typename T> void complexAbsStep(ScalarBits *r, const int32_t *s) {
  r[s[1]] =
      store<ComplexPartTraits<T>>(runtime::elements::complexmath::abs(load<T>(r[s[0]])));
}

template <> struct OtherStep<OpKind::Real> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &, const Op &) {
    return &partStep<T, false>;
  }
};
template <> struct OtherStep<OpKind::Imag> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &, const Op &) {
    return &partStep<T, true>;
  }
};
template <> struct OtherStep<OpKind::Complex> {
  template <typename T> static ScalarRegion::StepFn of(const Graph &graph, const Op &op) {
    if constexpr (std::is_same_v<T, F32Traits> || std::is_same_v<T, F64Traits>)
      return &complexStep<T>;
    else
      unsupported(notDefined(op.kind, graph.type(op.operands[0]).elementType));
  }
};

/// The step function of `op` (of kind K), whose first operand has element
/// type `type`.
template <OpKind K>
ScalarRegion::StepFn stepFnOf(const Graph &graph, const Op &op, ElementType type) {
  return dispatchElementType(type, [&](auto traits) -> ScalarRegion::StepFn {
    using T = decltype(traits);
    constexpr OpCategory family = opCategory(K);
    if constexpr (K == OpKind::Abs && isComplexTraits<T>) { // a real result
      return &complexAbsStep<T>;
    } else if constexpr (family == OpCategory::ElementwiseUnary ||
                         family == OpCategory::ElementwiseBinary) {
      if constexpr (!hasScalarOp<K, family, T>())
        unsupported(notDefined(K, type));
      else if constexpr (family == OpCategory::ElementwiseUnary)
        return &unaryStep<T, ScalarOpOn<K, T>>;
      else
        return &binaryStep<T, ScalarOpOn<K, T>>;
    } else if constexpr (family == OpCategory::ElementwiseOther) {
      return OtherStep<K>::template of<T>(graph, op);
    } else { // not per element: verify keeps it out of scalar bodies
      SHARDGEN_CHECK(false, "the scalar-region evaluator cannot run " + std::string(op.name()));
      return nullptr;
    }
  });
}

using StepFnBuilder = ScalarRegion::StepFn (*)(const Graph &, const Op &, ElementType);
constexpr auto kStepFns =
    tableByKind([](auto kind) -> StepFnBuilder { return &stepFnOf<decltype(kind)::value>; });

} // namespace

ScalarBits loadScalarBits(const Literal &tensor, int64_t index) {
  const size_t width = elementByteWidth(tensor.elementType());
  ScalarBits bits;
  std::memcpy(bits.words, tensor.data() + index * static_cast<int64_t>(width), width);
  return bits;
}

void storeScalarBits(Literal &tensor, int64_t index, ScalarBits bits) {
  const size_t width = elementByteWidth(tensor.elementType());
  std::memcpy(tensor.data() + index * static_cast<int64_t>(width), bits.words, width);
}

ScalarRegion::ScalarRegion(const Graph &graph, const Region &region) {
  std::unordered_map<ValueId, int32_t> slotOf;
  auto slot = [&](ValueId v) {
    auto [it, inserted] = slotOf.try_emplace(v, static_cast<int32_t>(initial_.size()));
    if (inserted)
      initial_.emplace_back();
    return it->second;
  };
  for (const RegionArgument &arg : region.args)
    argumentSlots_.push_back(slot(arg.value));
  for (const Op &op : region.ops) {
    if (op.kind == OpKind::Constant) {
      initial_[static_cast<size_t>(slot(op.results[0]))] =
          loadScalarBits(op.attr<ConstantAttrs>().elements, 0);
      continue;
    }
    Step step;
    SHARDGEN_CHECK(op.operands.size() <= 3 && op.results.size() == 1,
                   "a scalar body op with " + std::to_string(op.operands.size()) + " operands");
    size_t k = 0;
    for (ValueId operand : op.operands)
      step.slots[k++] = slot(operand);
    step.slots[k] = slot(op.results[0]);
    // select's and clamp's element type is their second operand's.
    const size_t typed = op.kind == OpKind::Select || op.kind == OpKind::Clamp ? 1 : 0;
    step.fn = entryFor(kStepFns, op.kind)(graph, op, graph.type(op.operands[typed]).elementType);
    steps_.push_back(step);
  }
  for (const RegionResult &result : region.results)
    resultSlots_.push_back(slot(result.value));
  registers_ = initial_;
}

void ScalarRegion::run(std::span<const ScalarBits> arguments,
                       std::span<ScalarBits> results) const {
  ScalarBits *r = registers_.data();
  for (size_t i = 0; i < argumentSlots_.size(); ++i)
    r[argumentSlots_[i]] = arguments[i];
  for (const Step &step : steps_)
    step.fn(r, step.slots);
  for (size_t j = 0; j < resultSlots_.size(); ++j)
    results[j] = r[resultSlots_[j]];
}

} // namespace shardgen::interp
