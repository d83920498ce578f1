#pragma once
// Typed attributes of each op, as a variant: an op holds exactly the struct
// of its kind (or NoAttrs). Defaults are the spec's defaults.

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "compiler/ir/BoxedOptional.h"
#include "compiler/ir/Literal.h"
#include "compiler/ir/OpShardingRule.h"
#include "compiler/ir/Sharding.h"

namespace shardgen {

enum class ComparisonDirection { EQ, NE, LT, LE, GT, GE };
enum class Reducer { Add, Mul, Max, Min, And, Or };
enum class BarrierDirection { None, Forward, Backward, Both };

std::string_view comparisonDirectionName(ComparisonDirection d);
std::optional<ComparisonDirection> parseComparisonDirection(std::string_view text);
std::string_view reducerName(Reducer r);
std::optional<Reducer> parseReducer(std::string_view text);
std::string_view barrierDirectionName(BarrierDirection d);
std::optional<BarrierDirection> parseBarrierDirection(std::string_view text);

struct NoAttrs {};
struct ConstantAttrs {
  /// The result type.
  TensorType type;
  /// Every element, row-major; for a splat, the one element they all are
  /// (a rank-0 literal, zero when the type has no elements). A splat is not
  /// expanded until a kernel needs it (expanded()), so a small file cannot
  /// make a command allocate a huge constant before its memory is checked.
  Literal elements;
  bool splat = false; // written back as one number

  /// A constant of every element of `value` (its type is the constant's).
  static ConstantAttrs dense(Literal value);
  /// `type` filled with `element`, a rank-0 literal of its element type.
  static ConstantAttrs splatOf(TensorType type, Literal element);
  /// The whole tensor (a splat repeated: this allocates its size).
  Literal expanded() const;
  /// Element `index` (as Literal::getFloat/getInt), without expanding.
  double getFloat(int64_t index) const { return elements.getFloat(splat ? 0 : index); }
  int64_t getInt(int64_t index) const { return elements.getInt(splat ? 0 : index); }
};
struct IotaAttrs {
  int64_t iotaDimension = 0;
};
struct CompareAttrs {
  ComparisonDirection direction = ComparisonDirection::EQ;
};
struct DotGeneralAttrs {
  std::vector<int64_t> lhsBatchingDimensions, rhsBatchingDimensions;
  std::vector<int64_t> lhsContractingDimensions, rhsContractingDimensions;
};
/// The dims of a rank-`rank` dot_general operand that are neither batching
/// nor contracting, in order: the operand's free dims in the result.
std::vector<int64_t> dotGeneralFreeDims(int64_t rank, const std::vector<int64_t> &batching,
                                        const std::vector<int64_t> &contracting);

struct TransposeAttrs {
  std::vector<int64_t> permutation;
};
struct BroadcastInDimAttrs {
  std::vector<int64_t> broadcastDimensions;
};
struct ReduceAttrs {
  std::vector<int64_t> dimensions;
  Reducer reducer = Reducer::Add;
};
struct ConcatenateAttrs {
  int64_t dimension = 0;
};
struct SliceAttrs {
  std::vector<int64_t> startIndices, limitIndices;
  std::vector<int64_t> strides; // all 1s when not given
  bool stridesGiven = false;
};
struct PadAttrs {
  std::vector<int64_t> edgePaddingLow, edgePaddingHigh, interiorPadding;
};
struct ReverseAttrs {
  std::vector<int64_t> dimensions;
};
struct PropagationBarrierAttrs {
  BarrierDirection allowedDirection = BarrierDirection::None;
};
struct CustomCallAttrs {
  std::string callTargetName;
  /// Boxed: a rule is large and rare, and the variant of every op would be
  /// as large as it.
  BoxedOptional<OpShardingRule> shardingRule;
  std::string shardingRuleText; // as written, for diagnostics and write-back
};
struct ShardingGroupAttrs {
  int64_t groupId = 0;
};
struct ManualComputationAttrs {
  std::vector<TensorSharding> inShardings;
  std::vector<TensorSharding> outShardings;
  std::vector<std::string> manualAxes;
};
struct AllReduceAttrs {
  std::vector<std::string> axes;
  Reducer reducer = Reducer::Add;
};
struct AllGatherAttrs {
  std::vector<std::string> axes;
  int64_t dimension = 0;
};
struct ReduceScatterAttrs {
  std::vector<std::string> axes;
  int64_t dimension = 0;
  Reducer reducer = Reducer::Add;
};
struct AllToAllAttrs {
  std::vector<std::string> axes;
  int64_t splitDimension = 0, concatDimension = 0;
};
struct CollectivePermuteAttrs {
  std::vector<std::string> axes;
  int64_t shift = 0;
};
struct AxisIndexAttrs {
  std::string axis;
};

using Attributes =
    std::variant<NoAttrs, ConstantAttrs, IotaAttrs, CompareAttrs, DotGeneralAttrs, TransposeAttrs,
                 BroadcastInDimAttrs, ReduceAttrs, ConcatenateAttrs, SliceAttrs, PadAttrs,
                 ReverseAttrs, PropagationBarrierAttrs, CustomCallAttrs, ShardingGroupAttrs,
                 ManualComputationAttrs, AllReduceAttrs, AllGatherAttrs, ReduceScatterAttrs,
                 AllToAllAttrs, CollectivePermuteAttrs, AxisIndexAttrs>;

/// An op's attributes, boxed: the variant is as large as its largest
/// alternative (104 bytes) and most ops of a large graph have none, so an op
/// holds a pointer, null for NoAttrs. Reads see the variant.
class OpAttributes {
public:
  OpAttributes() = default;
  template <typename T>
    requires(!std::same_as<std::decay_t<T>, OpAttributes> &&
             std::is_constructible_v<Attributes, T &&>)
  OpAttributes(T &&attrs) // NOLINT: converts as the variant does
      : box_(std::make_unique<Attributes>(std::forward<T>(attrs))) {
    if (std::holds_alternative<NoAttrs>(*box_))
      box_.reset();
  }
  OpAttributes(const OpAttributes &other)
      : box_(other.box_ ? std::make_unique<Attributes>(*other.box_) : nullptr) {}
  OpAttributes(OpAttributes &&) noexcept = default;
  OpAttributes &operator=(const OpAttributes &other) {
    if (this != &other)
      box_ = other.box_ ? std::make_unique<Attributes>(*other.box_) : nullptr;
    return *this;
  }
  OpAttributes &operator=(OpAttributes &&) noexcept = default;
  ~OpAttributes() = default;

  const Attributes &get() const { return box_ ? *box_ : none(); }
  operator const Attributes &() const { return get(); } // NOLINT: reads as the variant
  /// The variant to change in place (boxes NoAttrs when empty).
  Attributes &mutableGet() {
    if (!box_)
      box_ = std::make_unique<Attributes>();
    return *box_;
  }

private:
  static const Attributes &none() {
    static const Attributes kNone;
    return kNone;
  }
  std::unique_ptr<Attributes> box_;
};

} // namespace shardgen
