#include "compiler/frontend/AttributeWriter.h"

#include "compiler/frontend/ConstantValue.h"
#include "compiler/ops/OpTable.h"

namespace shardgen {

namespace {

Json shardingsToJson(const std::vector<TensorSharding> &shardings) {
  Json array = Json::array();
  for (const auto &sharding : shardings)
    array.push_back(printSharding(sharding));
  return array;
}

Json fieldToJson(const AttrField &field, const void *attrs);

/// An Object field's fields, as a JSON object.
Json objectToJson(const AttrField &field, const void *object) {
  Json json = Json::object();
  for (const AttrField &inner : field.nested())
    json[std::string(inner.json)] = fieldToJson(inner, object);
  return json;
}

/// The JSON of `field` in `attrs`; null when the field is not written.
Json fieldToJson(const AttrField &field, const void *attrs) {
  switch (field.kind) {
  case AttrKind::Int:
    return field.in<int64_t>(attrs);
  case AttrKind::Ints:
    return field.in<std::vector<int64_t>>(attrs);
  case AttrKind::String:
    return field.in<std::string>(attrs);
  case AttrKind::Strings:
    return field.in<std::vector<std::string>>(attrs);
  case AttrKind::ComparisonDirection:
    return comparisonDirectionName(field.in<ComparisonDirection>(attrs));
  case AttrKind::BarrierDirection:
    return barrierDirectionName(field.in<BarrierDirection>(attrs));
  case AttrKind::Reducer:
    return reducerName(field.in<Reducer>(attrs));
  case AttrKind::OptionalReducer: {
    const auto &reducer = field.in<std::optional<Reducer>>(attrs);
    return reducer ? Json(reducerName(*reducer)) : Json();
  }
  case AttrKind::Shardings:
    return shardingsToJson(field.in<std::vector<TensorSharding>>(attrs));
  case AttrKind::ShardingRule: {
    // Canonical text, like shardings: a pass may have changed the rule.
    const auto &rule = field.in<BoxedOptional<OpShardingRule>>(attrs);
    return rule ? Json(printOpShardingRule(*rule)) : Json();
  }
  case AttrKind::Bool:
    return field.in<bool>(attrs);
  case AttrKind::Object:
    return objectToJson(field, field.member(const_cast<void *>(attrs)));
  case AttrKind::Constant:
    return constantValueToJson(field.in<ConstantAttrs>(attrs));
  case AttrKind::Region: // the graph writer's
    return Json();
  case AttrKind::IntPairs:
    return field.in<std::vector<std::array<int64_t, 2>>>(attrs);
  case AttrKind::Bools:
    return field.in<std::vector<bool>>(attrs);
  }
  return Json();
}

} // namespace

JsonFields attributesToJson(const Attributes &attrs) {
  return std::visit(
      [](const auto &alternative) {
        JsonFields fields;
        for (const AttrField &field : alternative.schema()) {
          if (field.given && !field.isGiven(&alternative))
            continue;
          Json value = fieldToJson(field, &alternative);
          if (!value.is_null())
            fields.emplace_back(field.json, std::move(value));
        }
        return fields;
      },
      attrs);
}

} // namespace shardgen
