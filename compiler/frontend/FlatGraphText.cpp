#include "compiler/frontend/FlatGraphText.h"

#include <algorithm>

#include "compiler/frontend/AttributeWriter.h"
#include "compiler/frontend/FlatObjectPrinter.h"
#include "compiler/frontend/JsonPrinter.h"
#include "compiler/ops/OpTable.h"

namespace shardgen {

namespace {

constexpr size_t kIndent = 4; // an element of a top-level array

std::vector<std::string_view> namesOf(const Graph &graph, std::span<const ValueId> ids) {
  std::vector<std::string_view> names;
  names.reserve(ids.size());
  for (ValueId id : ids)
    names.emplace_back(graph.value(id).name);
  return names;
}

/// Per-result entries (optionals or boxed ones): whether any is set.
template <typename Entries> bool anySet(const Entries &entries) {
  return std::any_of(entries.begin(), entries.end(), [](const auto &e) { return e.has_value(); });
}

/// As the JSON writer's writePerResult: one value, or one entry per result
/// (null where unset); nothing when none is set.
template <typename Entries, typename Print>
void printPerResult(FlatObjectPrinter &object, std::string_view singular, std::string_view plural,
                    bool pluralForm, size_t numResults, const Entries &entries, Print print) {
  if (!anySet(entries))
    return;
  if (!pluralForm) {
    object.string(singular, print(*entries[0]));
    return;
  }
  std::string &out = object.key(plural);
  out += '[';
  for (size_t i = 0; i < numResults; ++i) {
    if (i)
      out += ", ";
    if (i < entries.size() && entries[i])
      appendJsonString(print(*entries[i]), out);
    else
      out += "null";
  }
  out += ']';
}

/// The op's attribute fields in the writer's order, or false when one is
/// not flat.
bool flatAttributes(const Op &op, JsonFields &ordered) {
  JsonFields fields = attributesToJson(op.attrs);
  for (std::string_view key : attributeKeys(op.kind))
    for (auto &[fieldKey, value] : fields)
      if (fieldKey == key) {
        if (!isFlatJson(value))
          return false;
        ordered.emplace_back(key, std::move(value));
      }
  return true;
}

void printOrigins(FlatObjectPrinter &object, const Op &op) {
  if (op.origins.empty())
    return;
  if (op.origins.size() == 1 && !op.pluralResults) {
    object.string("_origin", op.origins[0].str());
    return;
  }
  std::vector<std::string> texts;
  texts.reserve(op.origins.size());
  for (const ShardingOrigin &origin : op.origins)
    texts.push_back(origin.str());
  object.stringArray("_origins", {texts.begin(), texts.end()});
}

/// A slot's sharding and origin; false when it has more (a distribution,
/// metadata).
bool isFlatSlot(const RegionArgument &slot) { return !slot.distribution && slot.metadata.empty(); }

void printSlot(FlatObjectPrinter &object, const RegionArgument &slot) {
  if (slot.sharding)
    object.string("sharding", printSharding(*slot.sharding));
  if (slot.origin)
    object.string("_origin", slot.origin->str());
}

} // namespace

bool printFlatOp(const Graph &graph, const Op &op, std::string &out) {
  JsonFields attributes;
  if (!op.regions.empty() || !op.metadata.empty() || anySet(op.distributions) ||
      !flatAttributes(op, attributes))
    return false;
  FlatObjectPrinter object(out, kIndent);
  object.string("op", op.name());
  bool nullary = opRow(op.kind).operands.size == 0;
  if (!nullary || !op.operands.empty())
    object.stringArray("operands", namesOf(graph, op.operands));
  bool plural = op.pluralResults || op.results.size() != 1;
  if (op.kind != OpKind::ShardingGroup) { // which has no result
    if (plural)
      object.stringArray("results", namesOf(graph, op.results));
    else
      object.string("result", graph.value(op.results[0]).name);
    printPerResult(object, "type", "types", plural, op.results.size(), op.declaredTypes,
                   [](const TensorType &type) { return printType(type); });
    printPerResult(object, "sharding", "shardings", plural, op.results.size(), op.shardings,
                   [](const TensorSharding &sharding) { return printSharding(sharding); });
  }
  for (const auto &[key, value] : attributes)
    printJsonInline(value, object.key(key));
  printOrigins(object, op);
  object.finish();
  return true;
}

bool printFlatInput(const Graph &graph, const RegionArgument &input, std::string &out) {
  if (!isFlatSlot(input))
    return false;
  const Value &value = graph.value(input.value);
  FlatObjectPrinter object(out, kIndent);
  object.string("name", value.name);
  if (value.type)
    object.string("type", printType(*value.type));
  printSlot(object, input);
  object.finish();
  return true;
}

bool printFlatOutput(const Graph &graph, const RegionResult &output, std::string &out) {
  if (!isFlatSlot(output))
    return false;
  FlatObjectPrinter object(out, kIndent);
  object.string("value", graph.value(output.value).name);
  printSlot(object, output);
  object.finish();
  return true;
}

} // namespace shardgen
