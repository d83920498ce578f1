#pragma once
// One field of an op's attribute schema: where the JSON reader and writer
// and the MLIR importer and writer find it (key, property name, pretty
// keyword), what kind of value it holds, whether it may be absent, and the
// member of the op's attribute struct (ir/Attributes.h) that holds it. Each
// attribute struct lists its fields (`static std::span<const AttrField>
// schema()`); the readers and writers walk that list instead of naming keys.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "runtime/include/shardgen/reducer.h"

namespace shardgen {

enum class ComparisonDirection;
enum class BarrierDirection;
struct TensorSharding;
struct OpShardingRule;
class Literal;
template <typename T> class BoxedOptional;

/// What a field holds, so a reader knows how to parse it and a writer how
/// to print it. The kind follows from the member's C++ type (attrField).
enum class AttrKind : uint8_t {
  Int,                 // int64_t
  Ints,                // std::vector<int64_t>
  String,              // std::string
  Strings,             // std::vector<std::string>
  ComparisonDirection, // EQ, NE, LT, LE, GT, GE
  BarrierDirection,    // NONE, FORWARD, BACKWARD, BOTH
  Reducer,             // add, mul, max, min, and, or
  OptionalReducer,     // std::optional<Reducer>: absent unless given (a reduce with a body)
  Shardings,           // std::vector<TensorSharding>
  ShardingRule,        // BoxedOptional<OpShardingRule>: absent unless given
  Constant,            // the constant's Literal: read with the result type
  Region,              // a body: no member, the graph reader reads it
  Bool,                // bool: a hint (gather's indices_are_sorted)
  Object,              // a struct of Int and Ints fields with a schema of its own
                       // (#stablehlo.gather<...>): a JSON object
  IntPairs,            // std::vector<std::array<int64_t, 2>>: a window's padding [[lo, hi], ...]
  Bools,               // std::vector<bool>: a convolution's window_reversal
};

/// How a region-valued field's region takes part in the program.
enum class RegionRole : uint8_t {
  /// Its ops run as steps of the program, on tensors: a manual_computation's
  /// body. Propagation, partitioning, the interpreter and codegen enter it.
  Program,
  /// A function of scalars the op applies per element group (a reduce's
  /// body): its ops are no steps; the op's kernel runs it (the interpreter's
  /// scalar-region evaluator, a generated scalar function).
  Scalar,
};

enum class AttrPresence : uint8_t {
  Required, // absent is an error
  Optional, // absent takes the struct's default; always written back
  WhenGiven // absent takes the default; written back only when given
};

struct AttrField {
  std::string_view json;    // the JSON key
  std::string_view mlir;    // the property name in MLIR's generic form
  std::string_view keyword; // `keyword = value` in the pretty form ("": the syntax places it)
  AttrKind kind = AttrKind::Int;
  AttrPresence presence = AttrPresence::Required;
  /// The member in a struct of the schema's type (null for a Region).
  void *(*member)(void *attrs) = nullptr;
  /// WhenGiven fields with a flag recording it (null: given iff set).
  bool *(*given)(void *attrs) = nullptr;
  RegionRole role = RegionRole::Program; // a Region field's
  /// An Object field's own fields (Int and Ints, by their JSON keys and
  /// MLIR names).
  std::span<const AttrField> (*nested)() = nullptr;
  /// A Region field whose regions see the values of the regions around the
  /// op (StableHLO's control flow: while, case, if are not isolated from
  /// above); a manual computation's or reduce's body sees its arguments only.
  bool capturing = false;
  /// A Region field holding any number of regions (case's branches): a JSON
  /// array of region objects.
  bool list = false;

  template <typename T> T &in(void *attrs) const { return *static_cast<T *>(member(attrs)); }
  template <typename T> const T &in(const void *attrs) const {
    return *static_cast<const T *>(member(const_cast<void *>(attrs)));
  }
  bool isGiven(const void *attrs) const { return *given(const_cast<void *>(attrs)); }
};

namespace detail {
template <typename T> struct AttrKindOf;
template <> struct AttrKindOf<int64_t> {
  static constexpr AttrKind value = AttrKind::Int;
};
template <> struct AttrKindOf<std::vector<int64_t>> {
  static constexpr AttrKind value = AttrKind::Ints;
};
template <> struct AttrKindOf<std::string> {
  static constexpr AttrKind value = AttrKind::String;
};
template <> struct AttrKindOf<std::vector<std::string>> {
  static constexpr AttrKind value = AttrKind::Strings;
};
template <> struct AttrKindOf<ComparisonDirection> {
  static constexpr AttrKind value = AttrKind::ComparisonDirection;
};
template <> struct AttrKindOf<BarrierDirection> {
  static constexpr AttrKind value = AttrKind::BarrierDirection;
};
template <> struct AttrKindOf<runtime::Reducer> {
  static constexpr AttrKind value = AttrKind::Reducer;
};
template <> struct AttrKindOf<std::optional<runtime::Reducer>> {
  static constexpr AttrKind value = AttrKind::OptionalReducer;
};
template <> struct AttrKindOf<std::vector<TensorSharding>> {
  static constexpr AttrKind value = AttrKind::Shardings;
};
template <> struct AttrKindOf<BoxedOptional<OpShardingRule>> {
  static constexpr AttrKind value = AttrKind::ShardingRule;
};
template <> struct AttrKindOf<bool> {
  static constexpr AttrKind value = AttrKind::Bool;
};
template <> struct AttrKindOf<Literal> {
  static constexpr AttrKind value = AttrKind::Constant;
};

template <> struct AttrKindOf<std::vector<std::array<int64_t, 2>>> {
  static constexpr AttrKind value = AttrKind::IntPairs;
};
template <> struct AttrKindOf<std::vector<bool>> {
  static constexpr AttrKind value = AttrKind::Bools;
};

template <typename> struct MemberOf;
template <typename S, typename M> struct MemberOf<M S::*> {
  using Struct = S;
  using Type = M;
};

template <auto Member> void *memberAccess(void *attrs) {
  using Struct = typename MemberOf<decltype(Member)>::Struct;
  return &(static_cast<Struct *>(attrs)->*Member);
}
template <auto Flag> bool *flagAccess(void *attrs) {
  using Struct = typename MemberOf<decltype(Flag)>::Struct;
  return &(static_cast<Struct *>(attrs)->*Flag);
}
} // namespace detail

/// The field of member `Member` (`&TransposeAttrs::permutation`); its kind
/// is the member's type's.
template <auto Member>
constexpr AttrField attrField(std::string_view json, std::string_view mlir,
                              std::string_view keyword,
                              AttrPresence presence = AttrPresence::Required) {
  using Type = typename detail::MemberOf<decltype(Member)>::Type;
  return AttrField{json,     mlir,
                   keyword,  detail::AttrKindOf<Type>::value,
                   presence, &detail::memberAccess<Member>,
                   nullptr};
}

/// A WhenGiven field whose presence member `Flag` records (slice strides).
template <auto Member, auto Flag>
constexpr AttrField givenAttrField(std::string_view json, std::string_view mlir,
                                   std::string_view keyword) {
  AttrField field = attrField<Member>(json, mlir, keyword, AttrPresence::WhenGiven);
  field.given = &detail::flagAccess<Flag>;
  return field;
}

/// An Object field: member `Member` is a struct whose own schema() lists
/// its Int and Ints fields (a StableHLO dimension-numbers attribute).
template <auto Member>
constexpr AttrField objectAttrField(std::string_view json, std::string_view mlir) {
  using Type = typename detail::MemberOf<decltype(Member)>::Type;
  AttrField field{
      json,   mlir, "", AttrKind::Object, AttrPresence::Required, &detail::memberAccess<Member>,
      nullptr};
  field.nested = &Type::schema;
  return field;
}

/// A region-valued key (a manual computation's body, a reduce's): the
/// graph reader and writer read and write the op's regions by these keys,
/// in order.
constexpr AttrField regionField(std::string_view json,
                                AttrPresence presence = AttrPresence::Required,
                                RegionRole role = RegionRole::Program) {
  return AttrField{json, "", "", AttrKind::Region, presence, nullptr, nullptr, role};
}

/// A control-flow op's region (while's cond and body, if's branches): a
/// program region that sees the enclosing regions' values.
constexpr AttrField controlRegionField(std::string_view json) {
  AttrField field = regionField(json);
  field.capturing = true;
  return field;
}

/// Any number of control-flow regions under one key (case's branches).
constexpr AttrField controlRegionListField(std::string_view json) {
  AttrField field = controlRegionField(json);
  field.list = true;
  return field;
}

} // namespace shardgen
