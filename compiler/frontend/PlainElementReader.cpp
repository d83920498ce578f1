#include "compiler/frontend/PlainElementReader.h"

#include <algorithm>

#include "compiler/ops/OpTable.h"

namespace shardgen {

namespace {

/// Ops read here: one result, operands required, no key beyond the common
/// ones but integer-list attributes, and no slot of their own (a
/// distribute's distribution).
bool isPlainKind(OpKind kind) {
  const OpRow &row = opRow(kind);
  if (row.operands.minimum() == 0 && !row.operands.variadic())
    return false; // nullary: the `operands` key is optional
  if (row.results != ResultArity::One && row.results != ResultArity::Declared)
    return false;
  if (kind == OpKind::Distribute)
    return false;
  for (const AttrField &field : row.schema())
    if (field.kind != AttrKind::Ints)
      return false;
  return true;
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
  attrs = emptyAttributes(kind);
  void *fields = attributeStruct(attrs);
  for (const AttrField &field : attributeSchema(kind)) { // integer lists (isPlainKind)
    const FlatMember *member = element_.find(field.json);
    if (!member) {
      if (field.presence == AttrPresence::Required)
        return false;
      continue;
    }
    if (!flatIntegers(*member, field.in<std::vector<int64_t>>(fields)))
      return false;
    if (field.given)
      *field.given(fields) = true;
  }
  completeDefaults(attrs);
  return true;
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
      !readOptionalType("type", type) || (opRow(*kind).results == ResultArity::Declared && !type) ||
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
