#include "compiler/frontend/GraphReader.h"

#include <iostream>
#include <iterator>

#include "compiler/frontend/AttributeReader.h"
#include "compiler/frontend/ConstantValue.h"
#include "compiler/frontend/DistributionJson.h"
#include "compiler/frontend/GraphText.h"
#include "compiler/frontend/JsonAccess.h"
#include "compiler/frontend/JsonParsing.h"
#include "compiler/frontend/NameTable.h"
#include "compiler/frontend/OriginMetadata.h"
#include "compiler/frontend/PlainElementReader.h"
#include "compiler/frontend/PlainJsonParser.h"
#include "compiler/frontend/TextFields.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ops/OpTable.h"

namespace shardgen {

namespace {

constexpr std::string_view kFormatName = "shardgen-graph";
constexpr int64_t kFormatVersion = 1;

/// The names visible in one region (the graph, or one manual body: a body sees
/// no outer names; a control-flow region sees its enclosing regions' names).
struct Scope {
  NameTable names;
  /// The enclosing region's scope, for a control-flow region (null: none).
  const Scope *outer = nullptr;
  /// The region's op array and the op being read, to tell a name defined
  /// later apart from one never defined.
  const Json *ops = nullptr;
  size_t currentOp = 0;
};

/// Whether `ops[from..]` defines `name` as a result (a tolerant look: those
/// ops are not read yet).
bool definedLater(const Json &ops, size_t from, const std::string &name) {
  for (size_t i = from; i < ops.size(); ++i) {
    if (!ops[i].is_object())
      continue;
    auto result = ops[i].find("result");
    if (result != ops[i].end() && *result == name)
      return true;
    auto results = ops[i].find("results");
    if (results != ops[i].end() && results->is_array())
      for (const Json &entry : *results)
        if (entry == name)
          return true;
  }
  return false;
}

/// Ops without operands may leave out the `operands` key.
bool isNullary(OpKind kind) {
  const OperandList &operands = opRow(kind).operands;
  return operands.minimum() == 0 && !operands.variadic();
}

/// Ops whose result type cannot be inferred from operands and attributes.
bool needsDeclaredType(OpKind kind) { return opRow(kind).results == ResultArity::Declared; }

class GraphReader {
public:
  /// `texts`, when given, hold the texts of the graph's inputs and ops
  /// (`root`'s "inputs" and "ops" are then empty): each is parsed when its
  /// turn comes.
  /// `source`, when given, is the text they are views of: pages read are
  /// given back (GraphText::release).
  explicit GraphReader(Graph &graph, const DocumentWithElementTexts *texts = nullptr,
                       GraphText *source = nullptr)
      : graph_(graph), texts_(texts), source_(source) {}
  void read(const Json &root);

private:
  size_t expectedValueCount(const JsonObject &top) const;
  Mesh readMesh(const Json &json, const std::string &pointer);
  RegionArgument readArgument(const Json &json, const std::string &pointer, const std::string &what,
                              Scope &scope);
  void readOps(const Json &json, const std::string &pointer, Region &region, Scope &scope);
  Op readOp(const Json &json, const std::string &pointer, Scope &scope);
  void defineResults(const JsonObject &object, Op &op, Scope &scope);
  void readDeclaredTypes(const JsonObject &object, Op &op);
  void readResultShardings(const JsonObject &object, Op &op);
  void readResultDistributions(const JsonObject &object, Op &op);
  /// An op's region (`what`: "manual_computation body", "reduce body"); it
  /// sees the names of `outer` (a control-flow region's) or none.
  void readRegion(const Json &json, const std::string &pointer, const std::string &what,
                  Region &region, const Scope *outer = nullptr);
  /// The op's regions, by its schema's region fields in order.
  void readRegions(const JsonObject &object, Op &op, const Scope &scope);

  ValueId lookup(const Json &json, const PointerRef &pointer, const Scope &scope);
  /// Defines the name `json` (a string at `pointer`) for a value.
  ValueId define(const Json &json, const PointerRef &pointer, UniquedOptional<TensorType> type,
                 Scope &scope);

  void readOpTexts(const std::vector<std::string_view> &texts, const std::string &pointer,
                   Region &region, Scope &scope);

  /// Done with the text before `end` (a read element's end).
  void doneBefore(std::string_view element) {
    if (source_)
      source_->release(element.data() + element.size());
  }

  Graph &graph_;
  const DocumentWithElementTexts *texts_;
  TypeTextCache types_; // a graph repeats a handful of types
  GraphText *source_;
};

/// One value per input and per op (exact unless ops have several results or
/// bodies): reserved, so that the vector of a million values does not double
/// past the need.
size_t GraphReader::expectedValueCount(const JsonObject &top) const {
  auto size = [&](std::string_view key) {
    const Json *array = top.find(key);
    return array && array->is_array() ? array->size() : 0;
  };
  size_t count = size("inputs") + size("ops");
  if (texts_)
    count += texts_->inputTexts.size() + texts_->opTexts.size();
  return count;
}

void GraphReader::read(const Json &root) {
  JsonObject top(root, "", "the graph");
  std::string format = readString(top.require("format"), top.at("format"));
  if (format != kFormatName)
    fail(top.pointerTo("format"),
         "unsupported format \"" + format + "\" (expected \"" + std::string(kFormatName) + "\")");
  int64_t version = readInteger(top.require("version"), top.at("version"));
  if (version != kFormatVersion)
    fail(top.pointerTo("version"), "unsupported version " + std::to_string(version) +
                                       " (this shardgen reads version " +
                                       std::to_string(kFormatVersion) + ")");
  graph_.metadata =
      top.checkKeys({"format", "version", "name", "meshes", "inputs", "ops", "outputs"});
  if (const Json *name = top.find("name"))
    graph_.name = readString(*name, top.at("name"));

  if (const Json *meshes = top.find("meshes")) {
    readArray(*meshes, top.at("meshes"));
    for (size_t i = 0; i < meshes->size(); ++i)
      graph_.meshes.push_back(readMesh((*meshes)[i], joinPointer(top.pointerTo("meshes"), i)));
  }

  graph_.values.reserve(expectedValueCount(top));
  Scope scope;
  const Json &inputs = readArray(top.require("inputs"), top.at("inputs"));
  if (texts_) {
    graph_.main.args.reserve(texts_->inputTexts.size());
    scope.names.reserve(texts_->inputTexts.size());
    PlainElementReader plain(graph_, scope.names);
    std::string inputsPointer = top.pointerTo("inputs");
    for (size_t i = 0; i < texts_->inputTexts.size(); ++i) {
      std::string pointer = joinPointer(inputsPointer, i);
      RegionArgument argument;
      if (!plain.readInput(texts_->inputTexts[i], pointer, argument))
        argument = readArgument(parseElementText(texts_->inputTexts[i]), pointer, "input", scope);
      graph_.main.args.push_back(std::move(argument));
      doneBefore(texts_->inputTexts[i]);
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    graph_.main.args.push_back(
        readArgument(inputs[i], joinPointer(top.pointerTo("inputs"), i), "input", scope));

  readOps(top.require("ops"), top.pointerTo("ops"), graph_.main, scope);

  const Json &outputs = readArray(top.require("outputs"), top.at("outputs"));
  for (size_t i = 0; i < outputs.size(); ++i) {
    JsonObject output(outputs[i], joinPointer(top.pointerTo("outputs"), i), "output");
    RegionResult result;
    result.pointer = output.pointer();
    result.metadata = output.checkKeys({"value", "sharding", "distribution"});
    result.value = lookup(output.require("value"), output.at("value"), scope);
    if (const Json *sharding = output.find("sharding"))
      result.sharding = readSharding(*sharding, output.at("sharding"));
    if (const Json *distribution = output.find("distribution"))
      result.distribution = readDistribution(*distribution, output.pointerTo("distribution"));
    graph_.main.results.push_back(std::move(result));
  }

  graph_.linkDefinitions();
  takeOriginsFromMetadata(graph_); // what propagation wrote: typed again
}

Mesh GraphReader::readMesh(const Json &json, const std::string &pointer) {
  JsonObject object(json, pointer, "mesh");
  Mesh mesh;
  mesh.pointer = pointer;
  mesh.metadata = object.checkKeys({"name", "axes", "device_ids"});
  mesh.name = readString(object.require("name"), object.at("name"));
  // A maximal or empty mesh has no axes; "axes": [] is the same.
  if (const Json *axes = object.find("axes")) {
    readArray(*axes, object.at("axes"));
    for (size_t i = 0; i < axes->size(); ++i) {
      JsonObject axis((*axes)[i], joinPointer(object.pointerTo("axes"), i), "mesh axis");
      Metadata metadata = axis.checkKeys({"name", "size"});
      if (!metadata.empty()) {
        mesh.axisMetadata.resize(axes->size());
        mesh.axisMetadata[i] = std::move(metadata);
      }
      mesh.axes.push_back(MeshAxis{readString(axis.require("name"), axis.at("name")),
                                   readInteger(axis.require("size"), axis.at("size"))});
    }
  }
  if (const Json *ids = object.find("device_ids"))
    mesh.deviceIds = readIntegerArray(*ids, object.at("device_ids"));
  return mesh;
}

RegionArgument GraphReader::readArgument(const Json &json, const std::string &pointer,
                                         const std::string &what, Scope &scope) {
  JsonObject object(json, pointer, what);
  RegionArgument argument;
  argument.pointer = pointer;
  // Only graph inputs may be distributed (spec); in a body it is an unknown key.
  argument.metadata = what == "input"
                          ? object.checkKeys({"name", "type", "sharding", "distribution"})
                          : object.checkKeys({"name", "type", "sharding"});
  const Json &name = object.require("name");
  UniquedOptional<TensorType> type = readType(object.require("type"), object.at("type"), types_);
  if (const Json *sharding = object.find("sharding"))
    argument.sharding = readSharding(*sharding, object.at("sharding"));
  if (const Json *distribution = object.find("distribution"))
    argument.distribution = readDistribution(*distribution, object.pointerTo("distribution"));
  argument.value = define(name, object.at("name"), type, scope);
  return argument;
}

void GraphReader::readOps(const Json &json, const std::string &pointer, Region &region,
                          Scope &scope) {
  const Json &ops = readArray(json, pointer);
  if (texts_ && &region == &graph_.main) {
    readOpTexts(texts_->opTexts, pointer, region, scope);
    return;
  }
  region.ops.reserve(ops.size());
  scope.names.reserve(scope.names.size() + ops.size());
  scope.ops = &ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    scope.currentOp = i;
    region.ops.push_back(readOp(ops[i], joinPointer(pointer, i), scope));
  }
  scope.ops = nullptr; // region results see every op
}

/// One op at a time: straight from its text when it is a usual one, else
/// through its document. No look-ahead for names used before their
/// definition: any error here makes readGraph read the whole document again,
/// which reports it.
void GraphReader::readOpTexts(const std::vector<std::string_view> &texts,
                              const std::string &pointer, Region &region, Scope &scope) {
  region.ops.reserve(texts.size());
  scope.names.reserve(scope.names.size() + texts.size());
  PlainElementReader plain(graph_, scope.names);
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string opPointer = joinPointer(pointer, i);
    Op op;
    if (!plain.readOp(texts[i], opPointer, op))
      op = readOp(parseElementText(texts[i]), opPointer, scope);
    region.ops.push_back(std::move(op));
    doneBefore(texts[i]);
  }
}

Op GraphReader::readOp(const Json &json, const std::string &pointer, Scope &scope) {
  Op op;
  op.pointer = pointer;
  {
    JsonObject untyped(json, pointer, "op");
    std::string name = readString(untyped.require("op"), untyped.at("op"));
    auto kind = parseOpKind(name);
    if (!kind)
      fail(untyped.pointerTo("op"), "unknown op \"" + name + "\"");
    op.kind = *kind;
  }
  JsonObject object(json, pointer, "op", op.name());
  if (op.kind == OpKind::ShardingGroup) {
    for (std::string_view key : {"result", "results"})
      if (object.has(key))
        fail(object.pointerTo(key), "\"sharding_group\" has no result");
    op.metadata = object.checkKeys({"op", "operands"}, attributeKeys(op.kind));
  } else {
    op.metadata = object.checkKeys({"op", "operands", "result", "results", "type", "types",
                                    "sharding", "shardings", "distribution", "distributions"},
                                   attributeKeys(op.kind));
  }

  if (!isNullary(op.kind) || object.has("operands")) {
    PointerRef operandsPointer = object.at("operands");
    const Json &operands = readArray(object.require("operands"), operandsPointer);
    op.operands.reserve(operands.size());
    for (size_t i = 0; i < operands.size(); ++i)
      op.operands.push_back(lookup(operands[i], PointerRef(operandsPointer, i), scope));
  }

  bool single = object.has("result"), plural = object.has("results");
  if (single && plural)
    fail(object.pointerTo("results"), "an op has either \"result\" or \"results\", not both");
  if (op.kind != OpKind::ShardingGroup && !single && !plural)
    object.require("result");
  op.pluralResults = plural;
  size_t numResults = single   ? 1
                      : plural ? readArray(*object.find("results"), object.at("results")).size()
                               : 0;
  op.declaredTypes.resize(numResults);
  op.shardings.resize(numResults);
  op.distributions.resize(numResults);
  readDeclaredTypes(object, op);
  readResultShardings(object, op);
  readResultDistributions(object, op);

  if (op.kind == OpKind::Constant) {
    std::optional<TensorType> declared =
        op.declaredTypes.empty() ? std::nullopt : op.declaredTypes[0];
    op.attrs = readConstantValue(object.require("value"), object.pointerTo("value"), declared,
                                 object.pointerTo(op.pluralResults ? "types" : "type"));
    // Inference takes a constant's type from here.
    if (!op.declaredTypes.empty())
      op.declaredTypes[0] = op.attr<ConstantAttrs>().type;
  } else {
    op.attrs = readAttributes(op.kind, object);
  }
  readRegions(object, op, scope);
  defineResults(object, op, scope);
  return op;
}

void GraphReader::readRegions(const JsonObject &object, Op &op, const Scope &scope) {
  for (const AttrField &field : attributeSchema(op.kind)) {
    if (field.kind != AttrKind::Region)
      continue;
    const Json *region = field.presence == AttrPresence::Required ? &object.require(field.json)
                                                                  : object.find(field.json);
    if (!region)
      continue;
    const std::string what = std::string(op.name()) + " " + std::string(field.json);
    const Scope *outer = field.capturing ? &scope : nullptr;
    if (!field.list) {
      readRegion(*region, object.pointerTo(field.json), what, op.regions.add(), outer);
      continue;
    }
    const Json &list = readArray(*region, object.at(field.json));
    for (size_t i = 0; i < list.size(); ++i)
      readRegion(list[i], joinPointer(object.pointerTo(field.json), i), what, op.regions.add(),
                 outer);
  }
}

void GraphReader::defineResults(const JsonObject &object, Op &op, Scope &scope) {
  if (const Json *result = object.find("result")) {
    op.results.push_back(define(*result, object.at("result"), std::nullopt, scope));
  } else if (const Json *results = object.find("results")) {
    PointerRef resultsPointer = object.at("results");
    op.results.reserve(results->size());
    for (size_t i = 0; i < results->size(); ++i)
      op.results.push_back(
          define((*results)[i], PointerRef(resultsPointer, i), std::nullopt, scope));
  }
}

namespace {
/// `type`/`sharding` go with `result`, `types`/`shardings` with `results`.
void checkPluralAgreement(const JsonObject &object, const Op &op, std::string_view singular,
                          std::string_view plural) {
  if (op.pluralResults && object.has(singular))
    fail(object.pointerTo(singular), "\"" + std::string(singular) + "\" goes with \"result\"; " +
                                         "an op with \"results\" uses \"" + std::string(plural) +
                                         "\"");
  if (!op.pluralResults && object.has(plural))
    fail(object.pointerTo(plural), "\"" + std::string(plural) + "\" goes with \"results\"; " +
                                       "an op with one \"result\" uses \"" + std::string(singular) +
                                       "\"");
}

/// The entries of a `types`/`shardings` array, one per result (null: none given).
const Json &perResultArray(const JsonObject &object, std::string_view key, size_t numResults) {
  const Json &array = readArray(*object.find(key), object.at(key));
  if (array.size() != numResults)
    fail(object.pointerTo(key), "expected " + std::to_string(numResults) + " entries in \"" +
                                    std::string(key) + "\" (one per result), got " +
                                    std::to_string(array.size()));
  return array;
}
} // namespace

void GraphReader::readDeclaredTypes(const JsonObject &object, Op &op) {
  checkPluralAgreement(object, op, "type", "types");
  if (!op.pluralResults && object.has("type")) {
    op.declaredTypes[0] = readType(*object.find("type"), object.at("type"), types_);
  } else if (op.pluralResults && object.has("types")) {
    const Json &types = perResultArray(object, "types", op.declaredTypes.size());
    for (size_t i = 0; i < types.size(); ++i)
      if (!types[i].is_null())
        op.declaredTypes[i] = readType(types[i], joinPointer(object.pointerTo("types"), i), types_);
  }
  if (needsDeclaredType(op.kind) && !op.declaredTypes.empty() && !op.declaredTypes[0])
    fail(object.pointerTo(op.pluralResults ? "types" : "type"),
         "\"" + std::string(op.name()) + "\" needs a result \"type\"");
  // None given (the usual): no entries. A constant's entry takes its
  // value's type once read.
  if (op.kind != OpKind::Constant &&
      std::none_of(op.declaredTypes.begin(), op.declaredTypes.end(),
                   [](const UniquedOptional<TensorType> &type) { return type.has_value(); }))
    op.declaredTypes = {};
}

void GraphReader::readResultShardings(const JsonObject &object, Op &op) {
  checkPluralAgreement(object, op, "sharding", "shardings");
  if (!op.pluralResults && object.has("sharding")) {
    op.shardings[0] = readSharding(*object.find("sharding"), object.at("sharding"));
  } else if (op.pluralResults && object.has("shardings")) {
    const Json &shardings = perResultArray(object, "shardings", op.shardings.size());
    for (size_t i = 0; i < shardings.size(); ++i)
      if (!shardings[i].is_null())
        op.shardings[i] = readSharding(shardings[i], joinPointer(object.pointerTo("shardings"), i));
  }
  // The constraint is the op's whole point.
  if (op.kind == OpKind::ShardingConstraint && (op.shardings.empty() || !op.shardings[0]))
    object.require(op.pluralResults ? "shardings" : "sharding");
}

/// Like shardings; `propagate` writes them on op results, and they are the
/// `distribute` op's own attribute.
void GraphReader::readResultDistributions(const JsonObject &object, Op &op) {
  checkPluralAgreement(object, op, "distribution", "distributions");
  if (!op.pluralResults && object.has("distribution")) {
    op.distributions[0] =
        readDistribution(*object.find("distribution"), object.pointerTo("distribution"));
  } else if (op.pluralResults && object.has("distributions")) {
    const Json &distributions = perResultArray(object, "distributions", op.distributions.size());
    for (size_t i = 0; i < distributions.size(); ++i)
      if (!distributions[i].is_null())
        op.distributions[i] =
            readDistribution(distributions[i], joinPointer(object.pointerTo("distributions"), i));
  }
  if (op.kind == OpKind::Distribute && (op.distributions.empty() || !op.distributions[0]))
    object.require(op.pluralResults ? "distributions" : "distribution");
}

void GraphReader::readRegion(const Json &json, const std::string &pointer, const std::string &what,
                             Region &region, const Scope *outer) {
  JsonObject object(json, pointer, what);
  region.pointer = pointer;
  region.metadata = object.checkKeys({"args", "ops", "return"});
  Scope scope;
  scope.outer = outer;
  const Json &args = readArray(object.require("args"), object.at("args"));
  for (size_t i = 0; i < args.size(); ++i)
    region.args.push_back(
        readArgument(args[i], joinPointer(object.pointerTo("args"), i), "body argument", scope));
  readOps(object.require("ops"), object.pointerTo("ops"), region, scope);
  const Json &returned = readArray(object.require("return"), object.at("return"));
  for (size_t i = 0; i < returned.size(); ++i) {
    RegionResult result;
    result.pointer = joinPointer(object.pointerTo("return"), i);
    result.value = lookup(returned[i], result.pointer, scope);
    region.results.push_back(std::move(result));
  }
}

ValueId GraphReader::lookup(const Json &json, const PointerRef &pointer, const Scope &scope) {
  if (!json.is_string())
    readString(json, pointer); // reports the wrong kind
  const std::string &name = json.get_ref<const std::string &>();
  for (const Scope *in = &scope; in; in = in->outer)
    if (std::optional<ValueId> found = in->names.find(name))
      return *found;
  if (scope.ops && definedLater(*scope.ops, scope.currentOp, name))
    fail(pointer.str(), "value \"" + name + "\" is used before it is defined");
  fail(pointer.str(), "unknown value \"" + name + "\"");
}

ValueId GraphReader::define(const Json &json, const PointerRef &pointer,
                            UniquedOptional<TensorType> type, Scope &scope) {
  if (!json.is_string())
    readString(json, pointer); // reports the wrong kind
  const std::string &name = json.get_ref<const std::string &>();
  if (name.empty())
    fail(pointer.str(), "a value name must not be empty");
  ValueId id = static_cast<ValueId>(graph_.values.size());
  bool seenOutside = false; // a control-flow region's names are new to its enclosing ones too
  for (const Scope *in = scope.outer; in && !seenOutside; in = in->outer)
    seenOutside = in->names.find(name).has_value();
  if (seenOutside || !scope.names.insert(name, id))
    fail(pointer.str(), "redefinition of value \"" + name + "\"");
  return graph_.addValue(name, type);
}

/// Rejects nesting deeper than any graph needs: the recursive walks over a
/// document (constants, metadata, printing) must not exhaust the stack.
void checkNestingDepth(std::string_view text) {
  if (std::optional<std::string> at = jsonTooDeepAt(text))
    fail("", "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " + *at);
}

} // namespace

namespace {

/// The usual way: inputs and ops parsed and read one at a time (no document of the
/// whole graph). False on any problem, the graph then unusable: reading the
/// whole document again reports the error exactly as it always has.
bool readOpByOp(std::optional<DocumentWithElementTexts> &split, Graph &graph, GraphText *source) {
  if (!split)
    return false;
  try {
    GraphReader(graph, &*split, source).read(split->root);
    return true;
  } catch (const GraphError &) {
    return false;
  } catch (const Json::exception &) {
    return false;
  }
}

/// `source`: see GraphReader.
Graph readGraphIn(std::string_view jsonText, GraphText *source) {
  // A document in the plain subset (the usual) is no deeper than the limit:
  // the plain parser gives up otherwise, so only the others are scanned for
  // their depth first (a third pass over a large text).
  std::optional<DocumentWithElementTexts> split = splitPlainDocument(jsonText);
  if (!split) {
    checkNestingDepth(jsonText);
    split = splitDocumentWithNlohmann(jsonText);
  }
  // Values point at graph.main: build the graph in place (named return value)
  // so it is not moved after linking.
  Graph graph;
  if (readOpByOp(split, graph, source))
    return graph;
  split.reset();
  graph = Graph();
  Json root = parseJsonDocument(jsonText);
  GraphReader(graph).read(root);
  return graph;
}

} // namespace

Graph readGraph(std::string_view jsonText) { return readGraphIn(jsonText, nullptr); }

Graph readGraph(GraphText &text) { return readGraphIn(text.view(), &text); }

Graph readGraphFile(const std::string &path) {
  GraphText text = GraphText::load(path);
  return readGraph(text);
}

} // namespace shardgen
