#include "compiler/frontend/GraphWriter.h"

#include <algorithm>

#include "compiler/frontend/AttributeWriter.h"
#include "compiler/frontend/DistributionJson.h"
#include "compiler/frontend/FlatGraphText.h"
#include "compiler/frontend/JsonPrinter.h"
#include "compiler/ops/OpTable.h"

namespace shardgen {

namespace {

class GraphWriter {
public:
  explicit GraphWriter(const Graph &graph) : graph_(graph) {}
  Json write() const;
  /// write() printed to `sink`, without holding the whole document.
  void writeStreamed(const JsonObjectStream::Sink &sink) const;

private:
  Json meshToJson(const Mesh &mesh) const;
  Json argumentToJson(const RegionArgument &argument) const;
  Json outputToJson(const RegionResult &result) const;
  Json opToJson(const Op &op) const;
  Json opsToJson(const Region &region) const;
  Json bodyToJson(const Region &body) const;
  const std::string &nameOf(ValueId id) const { return graph_.value(id).name; }
  Json namesOf(std::span<const ValueId> ids) const;

  const Graph &graph_;
};

/// An empty object with room for `members` (an ordered_json object is a
/// vector of key/value pairs whose growth copies the keys).
Json objectWithRoom(size_t members) {
  Json object = Json::object();
  object.get_ref<Json::object_t &>().reserve(members);
  return object;
}

void appendMetadata(Json &object, const Metadata &metadata) {
  for (const auto &[key, text] : metadata)
    object[key] = Json::parse(text);
}

/// The metadata, with `originKey` set to `origin` (in its place if the file
/// had that key, else after the others).
void appendMetadata(Json &object, const Metadata &metadata, const char *originKey, Json origin) {
  appendMetadata(object, metadata);
  object[originKey] = std::move(origin);
}

/// A slot's sharding or distribution, its metadata and its typed origin (if
/// propagation set one).
void appendSlot(Json &object, const RegionArgument &slot) {
  if (slot.sharding)
    object["sharding"] = printSharding(*slot.sharding);
  if (slot.distribution)
    object["distribution"] = distributionToJson(*slot.distribution);
  if (slot.origin)
    appendMetadata(object, slot.metadata, "_origin", slot.origin->str());
  else
    appendMetadata(object, slot.metadata);
}

/// An op's metadata and its results' origins: `_origin` for one result
/// written in the singular form, else `_origins`.
void appendOpMetadata(Json &object, const Op &op) {
  if (op.origins.empty()) {
    appendMetadata(object, op.metadata);
    return;
  }
  if (op.origins.size() == 1 && !op.pluralResults) {
    appendMetadata(object, op.metadata, "_origin", op.origins[0].str());
    return;
  }
  Json origins = Json::array();
  for (const ShardingOrigin &origin : op.origins)
    origins.push_back(origin.str());
  appendMetadata(object, op.metadata, "_origins", std::move(origins));
}

/// Per-result optional entries: one value, or an array with one entry per
/// result (null where unset, or where a pass left the vector short); nothing
/// when no entry is set.
template <typename Entries, typename ToJson>
void writePerResult(Json &object, const char *singular, const char *plural, bool pluralForm,
                    size_t numResults, const Entries &entries, ToJson toJson) {
  if (std::none_of(entries.begin(), entries.end(), [](const auto &e) { return e.has_value(); }))
    return;
  if (!pluralForm) {
    object[singular] = toJson(*entries[0]);
    return;
  }
  Json array = Json::array();
  for (size_t i = 0; i < numResults; ++i)
    array.push_back(i < entries.size() && entries[i] ? Json(toJson(*entries[i])) : Json(nullptr));
  object[plural] = std::move(array);
}

Json GraphWriter::write() const {
  Json top = Json::object();
  top["format"] = "shardgen-graph";
  top["version"] = 1;
  if (!graph_.name.empty())
    top["name"] = graph_.name;
  Json meshes = Json::array();
  for (const auto &mesh : graph_.meshes)
    meshes.push_back(meshToJson(mesh));
  top["meshes"] = std::move(meshes);
  Json inputs = Json::array();
  for (const auto &argument : graph_.main.args)
    inputs.push_back(argumentToJson(argument));
  top["inputs"] = std::move(inputs);
  top["ops"] = opsToJson(graph_.main);
  Json outputs = Json::array();
  for (const auto &result : graph_.main.results)
    outputs.push_back(outputToJson(result));
  top["outputs"] = std::move(outputs);
  appendMetadata(top, graph_.metadata);
  return top;
}

void GraphWriter::writeStreamed(const JsonObjectStream::Sink &sink) const {
  // The same members as write(), each op printed as soon as it is built;
  // flat ones (nearly all) straight to text.
  JsonObjectStream top(sink);
  top.member("format", "shardgen-graph");
  top.member("version", 1);
  if (!graph_.name.empty())
    top.member("name", graph_.name);
  top.objectArray("meshes", graph_.meshes.size(),
                  [&](size_t i) { return meshToJson(graph_.meshes[i]); });
  const Region &main = graph_.main;
  top.objectArrayText("inputs", main.args.size(), [&](size_t i, std::string &out) {
    if (!printFlatInput(graph_, main.args[i], out))
      printJsonAt(argumentToJson(main.args[i]), 4, out);
  });
  top.objectArrayText("ops", main.ops.size(), [&](size_t i, std::string &out) {
    if (!printFlatOp(graph_, main.ops[i], out))
      printJsonAt(opToJson(main.ops[i]), 4, out);
  });
  top.objectArrayText("outputs", main.results.size(), [&](size_t i, std::string &out) {
    if (!printFlatOutput(graph_, main.results[i], out))
      printJsonAt(outputToJson(main.results[i]), 4, out);
  });
  Json metadata = Json::object();
  appendMetadata(metadata, graph_.metadata);
  for (auto it = metadata.begin(); it != metadata.end(); ++it)
    top.member(it.key(), it.value());
  top.finish();
}

Json GraphWriter::outputToJson(const RegionResult &result) const {
  Json output = objectWithRoom(4);
  output["value"] = nameOf(result.value);
  appendSlot(output, result);
  return output;
}

Json GraphWriter::meshToJson(const Mesh &mesh) const {
  Json object = Json::object();
  object["name"] = mesh.name;
  Json axes = Json::array();
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    Json axis{{"name", mesh.axes[i].name}, {"size", mesh.axes[i].size}};
    if (i < mesh.axisMetadata.size())
      appendMetadata(axis, mesh.axisMetadata[i]);
    axes.push_back(std::move(axis));
  }
  object["axes"] = std::move(axes);
  if (!mesh.deviceIds.empty())
    object["device_ids"] = mesh.deviceIds;
  appendMetadata(object, mesh.metadata);
  return object;
}

Json GraphWriter::argumentToJson(const RegionArgument &argument) const {
  const Value &value = graph_.value(argument.value);
  Json object = objectWithRoom(4 + argument.metadata.size());
  object["name"] = value.name;
  if (value.type)
    object["type"] = printType(*value.type);
  appendSlot(object, argument);
  return object;
}

Json GraphWriter::namesOf(std::span<const ValueId> ids) const {
  Json names = Json::array();
  for (ValueId id : ids)
    names.push_back(nameOf(id));
  return names;
}

Json GraphWriter::opsToJson(const Region &region) const {
  Json ops = Json::array();
  for (const auto &op : region.ops)
    ops.push_back(opToJson(op));
  return ops;
}

Json GraphWriter::opToJson(const Op &op) const {
  Json object = objectWithRoom(8 + op.metadata.size());
  object["op"] = op.name();
  bool nullary = opRow(op.kind).operands.size == 0;
  if (!nullary || !op.operands.empty())
    object["operands"] = namesOf(op.operands);
  bool plural = op.pluralResults || op.results.size() != 1;
  if (op.kind != OpKind::ShardingGroup) { // which has no result
    if (plural)
      object["results"] = namesOf(op.results);
    else
      object["result"] = nameOf(op.results[0]);
    writePerResult(object, "type", "types", plural, op.results.size(), op.declaredTypes,
                   [](const TensorType &type) { return printType(type); });
    writePerResult(object, "sharding", "shardings", plural, op.results.size(), op.shardings,
                   [](const TensorSharding &sharding) { return printSharding(sharding); });
    writePerResult(object, "distribution", "distributions", plural, op.results.size(),
                   op.distributions, distributionToJson);
  }

  JsonFields fields = attributesToJson(op.attrs);
  size_t region = 0; // the op's regions, by its schema's region fields
  for (const AttrField &field : attributeSchema(op.kind)) {
    if (field.kind != AttrKind::Region || region >= op.regions.size())
      continue;
    if (!field.list) {
      fields.emplace_back(field.json, bodyToJson(op.regions[region++]));
      continue;
    }
    Json list = Json::array(); // the op's remaining regions
    while (region < op.regions.size())
      list.push_back(bodyToJson(op.regions[region++]));
    fields.emplace_back(field.json, std::move(list));
  }
  for (std::string_view key : attributeKeys(op.kind))
    for (auto &[fieldKey, value] : fields)
      if (fieldKey == key)
        object[std::string(key)] = std::move(value);
  appendOpMetadata(object, op);
  return object;
}

Json GraphWriter::bodyToJson(const Region &body) const {
  Json object = Json::object();
  Json args = Json::array();
  for (const auto &argument : body.args)
    args.push_back(argumentToJson(argument));
  object["args"] = std::move(args);
  object["ops"] = opsToJson(body);
  Json returned = Json::array();
  for (const auto &result : body.results)
    returned.push_back(nameOf(result.value));
  object["return"] = std::move(returned);
  appendMetadata(object, body.metadata);
  return object;
}

} // namespace

std::string writeGraph(const Graph &graph) {
  std::string text;
  writeGraph(graph, [&](std::string_view chunk) { text += chunk; });
  return text;
}

void writeGraph(const Graph &graph, const std::function<void(std::string_view)> &sink) {
  GraphWriter writer(graph);
  const Region &main = graph.main;
  // With an array of objects the document spans lines: print it op by op
  // (the peak memory of large graphs). Else it may fit on one line.
  if (!graph.meshes.empty() || !main.args.empty() || !main.ops.empty() || !main.results.empty()) {
    writer.writeStreamed(sink);
    sink("\n");
    return;
  }
  sink(printJson(writer.write()) + "\n");
}

} // namespace shardgen
