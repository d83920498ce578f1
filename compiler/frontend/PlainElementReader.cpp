#include "compiler/frontend/PlainElementReader.h"

#include <algorithm>

#include "compiler/frontend/OpAttributeKeys.h"

namespace shardgen {

namespace {

/// Ops read here: their JSON path has no rule beyond the common keys and,
/// for the last three, integer-array attributes.
bool isPlainKind(OpKind kind) {
  switch (kind) {
  case OpKind::DotGeneral:
  case OpKind::Transpose:
  case OpKind::BroadcastInDim:
    return true;
  case OpKind::Constant: // value
  case OpKind::Iota:     // nullary, attributes
  case OpKind::AxisIndex:
  case OpKind::ShardingGroup: // no result
  case OpKind::Distribute:    // a distribution
  case OpKind::ManualComputation:
    return false;
  default:
    return attributeKeys(kind).empty();
  }
}

/// Ops whose result type cannot be inferred (the JSON path requires it).
bool needsDeclaredType(OpKind kind) {
  return kind == OpKind::Iota || kind == OpKind::Reshape || kind == OpKind::Convert ||
         kind == OpKind::BroadcastInDim;
}

} // namespace

bool PlainElementReader::onlyKeys(std::initializer_list<std::string_view> allowed,
                                  std::span<const std::string_view> moreAllowed) const {
  return std::all_of(element_.members().begin(), element_.members().end(), [&](const auto &m) {
    return std::find(allowed.begin(), allowed.end(), m.key) != allowed.end() ||
           std::find(moreAllowed.begin(), moreAllowed.end(), m.key) != moreAllowed.end();
  });
}

bool PlainElementReader::newName(std::string_view key, std::string_view &name) const {
  const FlatMember *member = element_.find(key);
  if (!member || member->kind != FlatMember::Kind::String || member->escaped ||
      member->raw.empty() || names_.find(member->raw))
    return false;
  name = member->raw;
  return true;
}

bool PlainElementReader::readOptionalType(std::string_view key, UniquedOptional<TensorType> &type) {
  const FlatMember *member = element_.find(key);
  if (!member)
    return true;
  if (!flatString(*member, text_))
    return false;
  type = types_.parse(text_, nullptr);
  return type.has_value();
}

bool PlainElementReader::readOptionalSharding(std::optional<TensorSharding> &sharding) {
  const FlatMember *member = element_.find("sharding");
  if (!member)
    return true;
  if (!flatString(*member, text_))
    return false;
  std::string error;
  sharding = parseSharding(text_, &error);
  return sharding.has_value();
}

bool PlainElementReader::readInput(std::string_view text, const std::string &pointer,
                                   RegionArgument &input) {
  std::string_view name;
  UniquedOptional<TensorType> type;
  std::optional<TensorSharding> sharding;
  if (!element_.scan(text) || !onlyKeys({"name", "type", "sharding"}) || !newName("name", name) ||
      !readOptionalType("type", type) || !type || !readOptionalSharding(sharding))
    return false;
  input.pointer = pointer;
  input.sharding = sharding; // uniqued: the one copy is made there
  input.value = graph_.addValue(std::string(name), type);
  names_.insert(name, input.value);
  return true;
}

bool PlainElementReader::readAttributes(OpKind kind, Attributes &attrs) {
  auto integers = [&](std::string_view key, bool required, std::vector<int64_t> &values) {
    const FlatMember *member = element_.find(key);
    return member ? flatIntegers(*member, values) : !required;
  };
  switch (kind) {
  case OpKind::DotGeneral: {
    DotGeneralAttrs dot;
    if (!integers("lhs_batching_dimensions", false, dot.lhsBatchingDimensions) ||
        !integers("rhs_batching_dimensions", false, dot.rhsBatchingDimensions) ||
        !integers("lhs_contracting_dimensions", false, dot.lhsContractingDimensions) ||
        !integers("rhs_contracting_dimensions", false, dot.rhsContractingDimensions))
      return false;
    attrs = std::move(dot);
    return true;
  }
  case OpKind::Transpose: {
    TransposeAttrs transpose;
    if (!integers("permutation", true, transpose.permutation))
      return false;
    attrs = std::move(transpose);
    return true;
  }
  case OpKind::BroadcastInDim: {
    BroadcastInDimAttrs broadcast;
    if (!integers("broadcast_dimensions", true, broadcast.broadcastDimensions))
      return false;
    attrs = std::move(broadcast);
    return true;
  }
  default:
    attrs = NoAttrs{};
    return true;
  }
}

bool PlainElementReader::readOp(std::string_view text, const std::string &pointer, Op &op) {
  if (!element_.scan(text))
    return false;
  const FlatMember *kindMember = element_.find("op");
  if (!kindMember || kindMember->kind != FlatMember::Kind::String || kindMember->escaped)
    return false;
  std::optional<OpKind> kind = parseOpKind(kindMember->raw);
  if (!kind || !isPlainKind(*kind) ||
      !onlyKeys({"op", "operands", "result", "type", "sharding"}, attributeKeys(*kind)))
    return false;
  const FlatMember *operands = element_.find("operands");
  std::string_view result;
  UniquedOptional<TensorType> type;
  std::optional<TensorSharding> sharding;
  Attributes attrs;
  if (!operands || !flatStrings(*operands, strings_) || !newName("result", result) ||
      !readOptionalType("type", type) || (needsDeclaredType(*kind) && !type) ||
      !readOptionalSharding(sharding) || (*kind == OpKind::ShardingConstraint && !sharding) ||
      !readAttributes(*kind, attrs))
    return false;
  std::vector<ValueId> operandIds;
  operandIds.reserve(strings_.size());
  for (std::string_view name : strings_) {
    std::optional<int64_t> id = names_.find(name);
    if (!id)
      return false;
    operandIds.push_back(*id);
  }
  op.kind = *kind;
  op.pointer = pointer;
  op.operands.assign(operandIds.begin(), operandIds.end());
  op.declaredTypes.clear();
  if (type) // none given (the usual): no entries, as the JSON path
    op.declaredTypes.push_back(type);
  op.shardings.clear();
  op.shardings.push_back(sharding);
  op.distributions.assign(1, std::nullopt);
  op.attrs = std::move(attrs);
  ValueId id = graph_.addValue(std::string(result));
  names_.insert(result, id);
  op.results.assign(1, id);
  return true;
}

} // namespace shardgen
