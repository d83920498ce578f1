#include "compiler/interp/ScalarRegion.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

#include "compiler/interp/ElementFunctions.h"
#include "compiler/ir/InternalError.h"

namespace shardgen::interp {
namespace {

// A register R is a uint64_t (every element type but complex<f64>) or a
// ScalarBits (a body holding a complex<f64> value): the bits of the
// element's storage in its low bytes, the rest zero.
template <typename Traits> constexpr bool fits(size_t registerBytes) {
  return sizeof(typename Traits::Storage) <= registerBytes;
}

template <typename Traits, typename R> typename Traits::Storage storage(const R &bits) {
  static_assert(fits<Traits>(sizeof(R)));
  typename Traits::Storage value;
  std::memcpy(&value, static_cast<const void *>(&bits), sizeof value);
  return value;
}

template <typename Traits, typename R> typename Traits::Compute load(const R &bits) {
  return Traits::load(storage<Traits>(bits));
}

template <typename Traits, typename R> R store(typename Traits::Compute value) {
  static_assert(fits<Traits>(sizeof(R)));
  const typename Traits::Storage storage = Traits::store(value);
  R bits{};
  std::memcpy(static_cast<void *>(&bits), &storage, sizeof storage);
  return bits;
}

template <typename R> R predicate(bool value) {
  const uint64_t word = value ? 1 : 0;
  R bits{};
  std::memcpy(static_cast<void *>(&bits), &word, sizeof word);
  return bits;
}

uint64_t lowWord(uint64_t bits) { return bits; }
uint64_t lowWord(const ScalarBits &bits) { return bits.words[0]; }

// The steps, one template per op family; `Scalar` is the op's scalar
// function (ElementFunctions.h), R the register.
template <typename R, typename Traits, typename Scalar>
void unaryStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[1]] = store<Traits, R>(Scalar::template apply<Traits>(load<Traits>(r[s[0]])));
}

template <typename R, typename Traits, typename Scalar>
void binaryStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[2]] = store<Traits, R>(
      Scalar::template apply<Traits>(load<Traits>(r[s[0]]), load<Traits>(r[s[1]])));
}

template <typename R, typename Traits, ComparisonDirection Direction>
void compareStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[2]] = predicate<R>(compare(Direction, load<Traits>(r[s[0]]), load<Traits>(r[s[1]])));
}

template <typename R, typename Traits, ComparisonDirection Direction>
void totalOrderStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[2]] = predicate<R>(compare(Direction, totalOrderKey<Traits>(storage<Traits>(r[s[0]])),
                                 totalOrderKey<Traits>(storage<Traits>(r[s[1]]))));
}

template <typename R> void selectStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[3]] = lowWord(r[s[0]]) != 0 ? r[s[1]] : r[s[2]];
}

template <typename R, typename Traits> void clampStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[3]] = store<Traits, R>(math::minimum(
      math::maximum(load<Traits>(r[s[1]]), load<Traits>(r[s[0]])), load<Traits>(r[s[2]])));
}

template <typename R, typename From, typename To> void convertStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[1]] = store<To, R>(convertElement<From, To>(load<From>(r[s[0]])));
}

template <typename R, typename Traits> void isFiniteStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[1]] = predicate<R>(std::isfinite(load<Traits>(r[s[0]])));
}

template <typename R, typename Traits, ComparisonDirection Direction>
ScalarRegion::StepFn compareStepFn(bool totalOrder) {
  return totalOrder ? &totalOrderStep<R, Traits, Direction> : &compareStep<R, Traits, Direction>;
}

template <typename R, typename Traits>
ScalarRegion::StepFn compareFn(ComparisonDirection direction, bool totalOrder) {
  switch (direction) {
  case ComparisonDirection::EQ:
    return compareStepFn<R, Traits, ComparisonDirection::EQ>(totalOrder);
  case ComparisonDirection::NE:
    return compareStepFn<R, Traits, ComparisonDirection::NE>(totalOrder);
  case ComparisonDirection::LT:
    return compareStepFn<R, Traits, ComparisonDirection::LT>(totalOrder);
  case ComparisonDirection::LE:
    return compareStepFn<R, Traits, ComparisonDirection::LE>(totalOrder);
  case ComparisonDirection::GT:
    return compareStepFn<R, Traits, ComparisonDirection::GT>(totalOrder);
  case ComparisonDirection::GE:
    return compareStepFn<R, Traits, ComparisonDirection::GE>(totalOrder);
  }
  return nullptr;
}

/// The step of each per-element op outside the unary and binary families,
/// on operands of traits T: one specialization per ElementwiseOther row (a
/// row without one fails to build in stepFnOf).
template <OpKind K> struct OtherStep;
template <> struct OtherStep<OpKind::Compare> {
  template <typename R, typename T> static ScalarRegion::StepFn of(const Graph &, const Op &op) {
    const auto &attrs = op.attr<CompareAttrs>();
    return compareFn<R, T>(attrs.direction, attrs.totalOrder());
  }
};
template <> struct OtherStep<OpKind::Select> {
  template <typename R, typename T> static ScalarRegion::StepFn of(const Graph &, const Op &) {
    return &selectStep<R>;
  }
};
template <> struct OtherStep<OpKind::Clamp> {
  template <typename R, typename T> static ScalarRegion::StepFn of(const Graph &, const Op &) {
    return &clampStep<R, T>;
  }
};
template <> struct OtherStep<OpKind::Convert> {
  template <typename R, typename T>
  static ScalarRegion::StepFn of(const Graph &graph, const Op &op) {
    return dispatchElementType(graph.type(op.results[0]).elementType,
                               [](auto to) -> ScalarRegion::StepFn {
                                 using To = decltype(to);
                                 if constexpr (!fits<To>(sizeof(R)))
                                   return nullptr; // a complex<f64> result: 16-byte registers
                                 else
                                   return &convertStep<R, T, To>;
                               });
  }
};

template <> struct OtherStep<OpKind::IsFinite> {
  template <typename R, typename T>
  static ScalarRegion::StepFn of(const Graph &graph, const Op &op) {
    if constexpr (!isFloatTraits<T>)
      unsupported(notDefined(op.kind, graph.type(op.operands[0]).elementType));
    else
      return &isFiniteStep<R, T>;
  }
};

/// reduce_precision's format is an attribute, which steps do not hold: the
/// verifier keeps it out of scalar bodies (ScalarRegionVerifier.cpp).
template <> struct OtherStep<OpKind::ReducePrecision> {
  template <typename R, typename T> static ScalarRegion::StepFn of(const Graph &, const Op &op) {
    SHARDGEN_CHECK(false, std::string(op.name()) + " in a scalar body (verify refuses it)");
    return nullptr;
  }
};

/// real and imag of a complex value, or of a float value (itself, and +0);
/// complex of two float parts; abs of a complex value (its modulus).
template <typename R, typename T, bool Imaginary> void partStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  if constexpr (isComplexTraits<T>) {
    const typename T::Compute x = load<T>(r[s[0]]);
    r[s[1]] = store<ComplexPartTraits<T>, R>(Imaginary ? x.im : x.re);
  } else {
    r[s[1]] = Imaginary ? R{} : r[s[0]];
  }
}

template <typename R, typename Part> void complexStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  using C = std::conditional_t<std::is_same_v<Part, F32Traits>, C64Traits, C128Traits>;
  r[s[2]] = store<C, R>({load<Part>(r[s[0]]), load<Part>(r[s[1]])});
}

template <typename R, typename T> void complexAbsStep(void *file, const int32_t *s) {
  R *r = static_cast<R *>(file);
  r[s[1]] = store<ComplexPartTraits<T>, R>(runtime::elements::complexmath::abs(load<T>(r[s[0]])));
}

template <> struct OtherStep<OpKind::Real> {
  template <typename R, typename T> static ScalarRegion::StepFn of(const Graph &, const Op &) {
    return &partStep<R, T, false>;
  }
};
template <> struct OtherStep<OpKind::Imag> {
  template <typename R, typename T> static ScalarRegion::StepFn of(const Graph &, const Op &) {
    return &partStep<R, T, true>;
  }
};
template <> struct OtherStep<OpKind::Complex> {
  template <typename R, typename T>
  static ScalarRegion::StepFn of(const Graph &graph, const Op &op) {
    if constexpr (std::is_same_v<T, F64Traits> && !fits<C128Traits>(sizeof(R)))
      return nullptr; // a complex<f64> result: 16-byte registers
    else if constexpr (std::is_same_v<T, F32Traits> || std::is_same_v<T, F64Traits>)
      return &complexStep<R, T>;
    else
      unsupported(notDefined(op.kind, graph.type(op.operands[0]).elementType));
  }
};

/// The step function of `op` (of kind K), whose first operand has element
/// type `type`, on registers R; null when a value does not fit in R.
template <OpKind K, typename R>
ScalarRegion::StepFn stepFnOf(const Graph &graph, const Op &op, ElementType type) {
  return dispatchElementType(type, [&](auto traits) -> ScalarRegion::StepFn {
    using T = decltype(traits);
    constexpr OpCategory family = opCategory(K);
    if constexpr (!fits<T>(sizeof(R))) {
      return nullptr;
    } else if constexpr (K == OpKind::Abs && isComplexTraits<T>) { // a real result
      return &complexAbsStep<R, T>;
    } else if constexpr (family == OpCategory::ElementwiseUnary ||
                         family == OpCategory::ElementwiseBinary) {
      if constexpr (!hasScalarOp<K, family, T>())
        unsupported(notDefined(K, type));
      else if constexpr (family == OpCategory::ElementwiseUnary)
        return &unaryStep<R, T, ScalarOpOn<K, T>>;
      else
        return &binaryStep<R, T, ScalarOpOn<K, T>>;
    } else if constexpr (family == OpCategory::ElementwiseOther) {
      return OtherStep<K>::template of<R, T>(graph, op);
    } else { // not per element: verify keeps it out of scalar bodies
      SHARDGEN_CHECK(false, "the scalar-region evaluator cannot run " + std::string(op.name()));
      return nullptr;
    }
  });
}

using StepFnBuilder = ScalarRegion::StepFn (*)(const Graph &, const Op &, ElementType);
template <typename R>
constexpr auto kStepFns =
    tableByKind([](auto kind) -> StepFnBuilder { return &stepFnOf<decltype(kind)::value, R>; });

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

namespace {

/// Whether a value of `region` needs 16-byte registers (complex<f64>).
bool needsWideRegisters(const Graph &graph, const Region &region) {
  auto wide = [&](ValueId v) { return elementByteWidth(graph.type(v).elementType) > 8; };
  for (const RegionArgument &arg : region.args)
    if (wide(arg.value))
      return true;
  for (const Op &op : region.ops)
    for (ValueId result : op.results)
      if (wide(result))
        return true;
  return false;
}

uint64_t toRegister(const ScalarBits &bits, uint64_t *) { return bits.words[0]; }
ScalarBits toRegister(const ScalarBits &bits, ScalarBits *) { return bits; }
ScalarBits fromRegister(uint64_t bits) { return ScalarBits{{bits, 0}}; }
ScalarBits fromRegister(const ScalarBits &bits) { return bits; }

} // namespace

ScalarRegion::ScalarRegion(const Graph &graph, const Region &region)
    : wide_(needsWideRegisters(graph, region)) {
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
    const ElementType type = graph.type(op.operands[typed]).elementType;
    step.fn = wide_ ? entryFor(kStepFns<ScalarBits>, op.kind)(graph, op, type)
                    : entryFor(kStepFns<uint64_t>, op.kind)(graph, op, type);
    SHARDGEN_CHECK(step.fn != nullptr, std::string(op.name()) + " has a value wider than the " +
                                           "scalar body's registers");
    steps_.push_back(step);
  }
  for (const RegionResult &result : region.results)
    resultSlots_.push_back(slot(result.value));
  for (const ScalarBits &bits : initial_) {
    wideRegisters_.push_back(bits);
    narrowRegisters_.push_back(bits.words[0]);
  }
  if (wide_)
    narrowRegisters_.clear();
  else
    wideRegisters_.clear();
}

template <typename R>
void ScalarRegion::runOn(R *r, std::span<const ScalarBits> arguments,
                         std::span<ScalarBits> results) const {
  for (size_t i = 0; i < argumentSlots_.size(); ++i)
    r[argumentSlots_[i]] = toRegister(arguments[i], r);
  for (const Step &step : steps_)
    step.fn(r, step.slots);
  for (size_t j = 0; j < resultSlots_.size(); ++j)
    results[j] = fromRegister(r[resultSlots_[j]]);
}

void ScalarRegion::run(std::span<const ScalarBits> arguments, std::span<ScalarBits> results) const {
  if (wide_)
    runOn(wideRegisters_.data(), arguments, results);
  else
    runOn(narrowRegisters_.data(), arguments, results);
}

} // namespace shardgen::interp
