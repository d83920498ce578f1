#include "compiler/frontend/AttributeReader.h"

#include "compiler/frontend/JsonAccess.h"
#include "compiler/frontend/TextFields.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ops/OpTable.h"

namespace shardgen {

namespace {

std::vector<TensorSharding> readShardings(const Json &json, const PointerRef &pointer) {
  const Json &array = readArray(json, pointer);
  std::vector<TensorSharding> shardings;
  for (size_t i = 0; i < array.size(); ++i)
    shardings.push_back(readSharding(array[i], PointerRef(pointer, i)));
  return shardings;
}

void readField(const AttrField &field, const Json &json, const PointerRef &pointer, void *attrs);

/// An Object field's JSON object: its own fields by their keys, no others.
void readObject(const AttrField &field, const Json &json, const PointerRef &pointer, void *object) {
  const std::string at = pointer.str();
  if (!json.is_object())
    fail(at, "expected an object, got " + std::string(jsonKindName(json)));
  JsonObject fields(json, at, field.json);
  std::vector<std::string_view> keys;
  for (const AttrField &inner : field.nested()) {
    keys.push_back(inner.json);
    if (inner.presence == AttrPresence::Required)
      readField(inner, fields.require(inner.json), fields.at(inner.json), object);
    else if (const Json *value = fields.find(inner.json))
      readField(inner, *value, fields.at(inner.json), object);
  }
  fields.checkKeys({}, keys);
}

/// [[lo, hi], ...]: a window's padding.
std::vector<std::array<int64_t, 2>> readIntPairs(const Json &json, const PointerRef &pointer) {
  const Json &array = readArray(json, pointer);
  std::vector<std::array<int64_t, 2>> pairs;
  for (size_t i = 0; i < array.size(); ++i) {
    const PointerRef at(pointer, i);
    std::vector<int64_t> pair = readIntegerArray(array[i], at);
    if (pair.size() != 2)
      fail(at.str(),
           "expected a pair [low, high], got " + std::to_string(pair.size()) + " integers");
    pairs.push_back({pair[0], pair[1]});
  }
  return pairs;
}

std::vector<bool> readBools(const Json &json, const PointerRef &pointer) {
  const Json &array = readArray(json, pointer);
  std::vector<bool> values;
  for (size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_boolean())
      fail(PointerRef(pointer, i).str(), "expected true or false");
    values.push_back(array[i].get<bool>());
  }
  return values;
}

/// Reads `field`'s value `json` (at `pointer`) into its member.
void readField(const AttrField &field, const Json &json, const PointerRef &pointer, void *attrs) {
  switch (field.kind) {
  case AttrKind::Int:
    field.in<int64_t>(attrs) = readInteger(json, pointer);
    return;
  case AttrKind::Ints:
    field.in<std::vector<int64_t>>(attrs) = readIntegerArray(json, pointer);
    return;
  case AttrKind::String:
    field.in<std::string>(attrs) = readString(json, pointer);
    return;
  case AttrKind::Strings:
    field.in<std::vector<std::string>>(attrs) = readStringArray(json, pointer);
    return;
  case AttrKind::ComparisonDirection:
    field.in<ComparisonDirection>(attrs) = readComparisonDirection(json, pointer);
    return;
  case AttrKind::BarrierDirection:
    field.in<BarrierDirection>(attrs) = readBarrierDirection(json, pointer);
    return;
  case AttrKind::Reducer:
    field.in<Reducer>(attrs) = readReducer(json, pointer);
    return;
  case AttrKind::OptionalReducer:
    field.in<std::optional<Reducer>>(attrs) = readReducer(json, pointer);
    return;
  case AttrKind::Shardings:
    field.in<std::vector<TensorSharding>>(attrs) = readShardings(json, pointer);
    return;
  case AttrKind::ShardingRule:
    field.in<BoxedOptional<OpShardingRule>>(attrs) = readShardingRule(json, pointer);
    return;
  case AttrKind::Bool:
    if (!json.is_boolean())
      fail(pointer.str(), "expected true or false, got " + std::string(jsonKindName(json)));
    field.in<bool>(attrs) = json.get<bool>();
    return;
  case AttrKind::Object:
    readObject(field, json, pointer, field.member(attrs));
    return;
  case AttrKind::IntPairs:
    field.in<std::vector<std::array<int64_t, 2>>>(attrs) = readIntPairs(json, pointer);
    return;
  case AttrKind::Bools:
    field.in<std::vector<bool>>(attrs) = readBools(json, pointer);
    return;
  case AttrKind::Constant: // with the result type: the graph reader's
  case AttrKind::Region:   // a scope of its own: the graph reader's
    return;
  }
}

} // namespace

Attributes readAttributes(OpKind kind, const JsonObject &op) {
  Attributes attrs = emptyAttributes(kind);
  void *fields = attributeStruct(attrs);
  for (const AttrField &field : attributeSchema(kind)) {
    if (field.kind == AttrKind::Constant || field.kind == AttrKind::Region)
      continue;
    if (field.presence == AttrPresence::Required) {
      readField(field, op.require(field.json), op.at(field.json), fields);
    } else if (const Json *value = op.find(field.json)) {
      readField(field, *value, op.at(field.json), fields);
      if (field.given)
        *field.given(fields) = true;
    }
  }
  completeDefaults(attrs);
  return attrs;
}

} // namespace shardgen
