#include "compiler/mlir/MlirWriter.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "compiler/frontend/OriginMetadata.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"
#include "compiler/ir/Metadata.h"
#include "compiler/mlir/CollectiveGroups.h"
#include "compiler/mlir/DenseElements.h"
#include "compiler/mlir/SdyAttributes.h"
#include "compiler/ops/OpTable.h"

namespace shardgen::mlir {

namespace {

bool isSuffixId(const std::string &name) {
  if (name.empty())
    return false;
  if (std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c); }))
    return true;
  if (std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  return std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
  });
}

std::string intList(const std::vector<int64_t> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::string denseArray(const std::vector<int64_t> &values) {
  std::string out = "array<i64";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : ": ") + std::to_string(values[i]);
  return out + ">";
}

std::string join(const std::vector<std::string> &items, const char *separator = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? separator : "") + items[i];
  return out;
}

/// "name = value" entries (or a unit "name") sorted by name, as MLIR's
/// dictionaries are (and print).
void sortByName(std::vector<std::string> &entries) {
  auto name = [](const std::string &entry) { return entry.substr(0, entry.find(" = ")); };
  std::stable_sort(entries.begin(), entries.end(),
                   [&](const std::string &a, const std::string &b) { return name(a) < name(b); });
}

/// ` {a = 1, b = 2}` from "name = value" entries, sorted by name; empty
/// without entries.
std::string attrDictionary(std::vector<std::string> attrs) {
  if (attrs.empty())
    return "";
  sortByName(attrs);
  return " {" + join(attrs) + "}";
}

std::string metadataText(const Metadata &metadata) {
  std::string json = "{";
  for (size_t i = 0; i < metadata.size(); ++i)
    json += (i ? ", " : "") + quoteJsonString(metadata[i].first) + ": " + metadata[i].second;
  return quoteString(json + "}");
}

std::string reducerOpName(Reducer reducer) {
  switch (reducer) {
  case Reducer::Add:
    return "stablehlo.add";
  case Reducer::Mul:
    return "stablehlo.multiply";
  case Reducer::Max:
    return "stablehlo.maximum";
  case Reducer::Min:
    return "stablehlo.minimum";
  case Reducer::And:
    return "stablehlo.and";
  case Reducer::Or:
    return "stablehlo.or";
  }
  return "stablehlo.add";
}

std::string stringList(const std::vector<std::string> &names) {
  std::vector<std::string> quoted;
  for (const auto &name : names)
    quoted.push_back(quoteString(name));
  return "[" + join(quoted) + "]";
}

class Writer {
public:
  Writer(const Graph &graph, const MlirWriteOptions &options)
      : graph_(graph), generic_(options.form == MlirForm::Generic),
        shardingRule_(options.shardingRule), ssa_(graph.values.size()) {}
  std::string write();

private:
  /// @main's signature: arguments with their attributes, result types and attributes.
  struct Signature {
    std::vector<std::string> args, argAttrDicts, argTypes;
    std::vector<std::string> resultTypes, resultAttrDicts, resultsPretty;
    bool anyResultAttrs = false;
  };
  /// The module's first line and its meshes; returns the module attributes.
  std::vector<std::string> writeModuleStart();
  Signature mainSignature();
  /// The text of @main's ops and return (names every value).
  std::string mainBody(const std::vector<std::string> &resultTypes);
  void writeMain(const Signature &sig, const std::string &body,
                 const std::vector<std::string> &moduleAttrs);

private:
  struct OpParts {
    std::string name;
    std::vector<std::string> props, attrs;
    std::vector<std::string> regions; // each "{\n...}" at the op's indent
  };

  void line(int indent, const std::string &text) {
    out_ += std::string(2 * indent, ' ') + text + "\n";
  }
  std::string type(ValueId id) const { return printType(graph_.type(id)); }
  /// Gives `id` an SSA name; returns whether the IR name needs a hint.
  bool nameValue(ValueId id, const std::string &ssaName);
  std::string fresh();
  std::string freshLike(const std::string &name) {
    return isSuffixId(name) && !used_.count(name) ? name : fresh();
  }
  std::string operands(std::span<const ValueId> ids) const;
  std::string functionType(std::span<const ValueId> in, std::span<const ValueId> out) const;
  std::string results(const Op &op, OpParts &parts);
  std::string reducerRegion(Reducer reducer, ElementType element, int indent);
  void writeRegionOps(const Region &region, int indent);
  /// A region's ops and its `terminator` (`sdy.return`, `stablehlo.return`),
  /// one level deeper than `indent`, as text (not written yet).
  std::string regionText(const Region &body, int indent, const std::string &terminator);
  void writeOp(const Op &op, int indent);
  /// What writeOp's steps share: `lhs` (`%x = `), the op's name, its
  /// attribute dictionary, its types in the short and the full form, and
  /// the pretty text after lhs.
  struct OpText {
    std::string lhs, name, attrDict, shortTypes, types, pretty;
  };
  /// sdy.sharding (all results) or shardgen.result_shardings (some).
  void resultShardingAttrs(const Op &op, OpParts &parts);
  /// The op in the generic form, or as `text.pretty`.
  void emit(const Op &op, const OpText &text, const OpParts &parts, int indent);
  void writeGeneric(const Op &op, const std::string &lhs, const OpParts &parts, int indent);

  // The writers of the syntaxes the rows name (Ops.def's Mlir column):
  // write<Syntax> writes the op, given what writeOp prepared.
  using SyntaxWriter = void (Writer::*)(const Op &, OpText &, OpParts &, int indent);
  void writeSameTypes(const Op &op, OpText &text, OpParts &parts, int indent) {
    writeKeywordForm(op, text, parts, indent, text.types);
  }
  void writeFunctionType(const Op &op, OpText &text, OpParts &parts, int indent) {
    writeKeywordForm(op, text, parts, indent, " : " + functionType(op.operands, op.results));
  }
  /// `name %a, %b, key = value, ... {attrs}` and `types`: the attribute
  /// schema's fields by their pretty keywords (integers and integer lists).
  void writeKeywordForm(const Op &op, OpText &text, OpParts &parts, int indent,
                        const std::string &types);
  void writeConstant(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeCompare(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeDotGeneral(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeReduce(const Op &op, OpText &text, OpParts &parts, int indent);
  /// A reduce whose body is no simple reducer: its region, in JAX's form
  /// (`reducer(%a: t, %c: t) (%b: u, %d: u) { ... }`) or the generic one.
  void writeReduceBody(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeSlice(const Op &op, OpText &text, OpParts &parts, int indent);
  /// A scalar body: its arguments named (shardgen.arg_names when the IR's
  /// names differ) and typed, its metadata, its ops' text in the writer's
  /// form.
  struct ScalarBody {
    std::vector<std::string> argTypes; // "%a: tensor<f32>"
    std::string text;
  };
  ScalarBody scalarBody(const Op &op, OpParts &parts, int indent);
  /// Its region: `{ ^bb0(...): ... stablehlo.return ... }`.
  std::string regionBlock(const ScalarBody &body, int indent) const {
    std::string pad(2 * indent, ' ');
    return "{\n" + pad + "^bb0(" + join(body.argTypes) + "):\n" + body.text + pad + "}";
  }
  /// `#stablehlo.<op><key = [..], ...>` from an Object field (empty lists
  /// left out, as StableHLO prints them).
  std::string dimensionNumbers(const Op &op, const AttrField &field) const;
  // gather and scatter: the generic form (JAX prints them so) in both forms.
  void writeGather(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeScatter(const Op &op, OpText &text, OpParts &parts, int indent);
  /// sort: the generic form, as JAX prints it (StableHLO gives it no other).
  void writeSort(const Op &op, OpText &text, OpParts &parts, int indent);
  /// chlo.top_k(%x, k = 5) : t -> (t, ti), or the generic form.
  void writeTopK(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeCustomCall(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeShardingConstraint(const Op &op, OpText &text, OpParts &parts, int indent);
  void writePropagationBarrier(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeShardingGroup(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeOptimizationBarrier(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeManualComputation(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeWhile(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeCase(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeIf(const Op &op, OpText &text, OpParts &parts, int indent) {
    writeCase(op, text, parts, indent);
  }
  void writeAllReduce(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeAllGather(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeReduceScatter(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeAllToAll(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeCollectivePermute(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeAxisIndex(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeReducePrecision(const Op &op, OpText &text, OpParts &parts, int indent);
  /// `name %s, algorithm = DEFAULT : (ts) -> (ts, t)`, or the generic form.
  void writeRngBitGenerator(const Op &op, OpText &text, OpParts &parts, int indent);
  /// `name %x, type = FFT, length = [4] : (t) -> t`, or the generic form.
  void writeFft(const Op &op, OpText &text, OpParts &parts, int indent);
  // The window ops: reduce_window and select_and_scatter in the generic
  // form (StableHLO has no other), convolution in JAX's or the generic.
  void writeReduceWindow(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeSelectAndScatter(const Op &op, OpText &text, OpParts &parts, int indent);
  void writeConvolution(const Op &op, OpText &text, OpParts &parts, int indent);
  /// Names a region's arguments (`ssaNames`: as given, else fresh ones like
  /// their own: a while's cond and body share its iteration names) and
  /// returns `%name: type` per argument; where names do not read back as
  /// written, attribute `hintKey` holds them.
  std::vector<std::string> regionArguments(const Region &body, const std::string &hintKey,
                                           OpParts &parts,
                                           const std::vector<std::string> *ssaNames = nullptr);
  /// The op's scalar regions into parts.regions; argument names that do not
  /// read back as written go into `shardgen.<key>_arg_names`.
  void scalarRegions(const Op &op, const std::vector<std::string> &keys, OpParts &parts,
                     int indent);
  /// An op without an MLIR form: a graph holding one is refused first.
  void writeNoSyntax(const Op &op, OpText &text, OpParts &parts, int indent);

  // What the collectives share: the mesh of their manual computation, a
  // fresh channel, replica_groups (and shardgen.axes when they do not
  // name the axes).
  const Mesh &collectiveMesh() const;
  void channelProp(OpParts &parts) {
    parts.props.push_back("channel_handle = #stablehlo.channel_handle<handle = " +
                          std::to_string(++channel_) + ", type = 1>");
  }
  void groupsProp(const std::vector<std::string> &axes, OpParts &parts) const;
  /// A fresh channel, the groups of `axes` and use_global_device_ids.
  void groupCollectiveProps(const std::vector<std::string> &axes, OpParts &parts) {
    channelProp(parts);
    groupsProp(axes, parts);
    parts.props.push_back("use_global_device_ids");
  }
  /// In the generic form, the only one collectives have: properties sorted
  /// by name, as MLIR prints them.
  void writeCollective(const Op &op, OpText &text, OpParts &parts, int indent) {
    sortByName(parts.props);
    writeGeneric(op, text.lhs, parts, indent);
  }

  const Graph &graph_;
  bool generic_;
  const std::function<std::optional<std::string>(const Op &)> &shardingRule_;
  std::vector<std::string> ssa_; // value -> "%x" / "%r#1"
  std::set<std::string> used_;
  int fresh_ = 0, channel_ = 0;
  std::vector<const Op *> manualStack_;
  std::string out_;
};

std::string Writer::fresh() {
  std::string name;
  do
    name = "_" + std::to_string(fresh_++);
  while (used_.count(name));
  return name;
}

bool Writer::nameValue(ValueId id, const std::string &ssaName) {
  used_.insert(ssaName);
  ssa_[id] = "%" + ssaName;
  return graph_.value(id).name != ssaName;
}

std::string Writer::operands(std::span<const ValueId> ids) const {
  std::vector<std::string> names;
  for (ValueId id : ids)
    names.push_back(ssa_[id]);
  return join(names);
}

std::string Writer::functionType(std::span<const ValueId> in, std::span<const ValueId> out) const {
  std::vector<std::string> ins, outs;
  for (ValueId id : in)
    ins.push_back(type(id));
  for (ValueId id : out)
    outs.push_back(type(id));
  std::string result = outs.size() == 1 ? outs[0] : "(" + join(outs) + ")";
  return "(" + join(ins) + ") -> " + result;
}

/// Names the op's results and returns the `%x = ` / `%r:2 = ` prefix.
std::string Writer::results(const Op &op, OpParts &parts) {
  if (op.results.empty())
    return "";
  bool hint = false;
  std::string lhs;
  if (op.results.size() == 1) {
    const std::string &name = graph_.value(op.results[0]).name;
    hint = nameValue(op.results[0], freshLike(name));
    lhs = ssa_[op.results[0]];
  } else {
    // %r:2 reads back as "r#0", "r#1"; other names need the hint.
    const std::string &first = graph_.value(op.results[0]).name;
    size_t hash = first.rfind('#');
    std::string base = hash == std::string::npos ? first : first.substr(0, hash);
    base = freshLike(base);
    used_.insert(base);
    for (size_t i = 0; i < op.results.size(); ++i) {
      ssa_[op.results[i]] = "%" + base + "#" + std::to_string(i);
      hint |= graph_.value(op.results[i]).name != base + "#" + std::to_string(i);
    }
    lhs = "%" + base + ":" + std::to_string(op.results.size());
  }
  if (hint) {
    std::vector<std::string> names;
    for (ValueId id : op.results)
      names.push_back(graph_.value(id).name);
    parts.attrs.push_back("shardgen.result_names = " + stringList(names));
  }
  return lhs + " = ";
}

std::string Writer::reducerRegion(Reducer reducer, ElementType element, int indent) {
  std::string scalar = "tensor<" + std::string(elementTypeName(element)) + ">";
  std::string a = "%" + fresh(), b = "%" + fresh(), r = "%" + fresh();
  for (const std::string *name : {&a, &b, &r})
    used_.insert(name->substr(1));
  std::string pad(2 * indent, ' ');
  std::string text = "{\n" + pad + "^bb0(" + a + ": " + scalar + ", " + b + ": " + scalar + "):\n";
  if (generic_)
    text += pad + "  " + r + " = \"" + reducerOpName(reducer) + "\"(" + a + ", " + b + ") : (" +
            scalar + ", " + scalar + ") -> " + scalar + "\n" + pad + "  \"stablehlo.return\"(" + r +
            ") : (" + scalar + ") -> ()\n";
  else
    text += pad + "  " + r + " = " + reducerOpName(reducer) + " " + a + ", " + b + " : " + scalar +
            "\n" + pad + "  stablehlo.return " + r + " : " + scalar + "\n";
  return text + pad + "}";
}

void Writer::writeGeneric(const Op &op, const std::string &lhs, const OpParts &parts, int indent) {
  std::string text = lhs + "\"" + parts.name + "\"(" + operands(op.operands) + ")";
  if (!parts.props.empty())
    text += " <{" + join(parts.props) + "}>";
  if (!parts.regions.empty())
    text += " (" + join(parts.regions) + ")";
  if (!parts.attrs.empty())
    text += attrDictionary(parts.attrs);
  text += " : " + functionType(op.operands, op.results);
  if (op.results.empty())
    text.replace(text.size() - 3, 3, "()"); // "-> ()" for no results
  line(indent, text);
}

const Mesh &Writer::collectiveMesh() const {
  SHARDGEN_CHECK(!manualStack_.empty(), "a collective outside a manual computation");
  const auto &manual = manualStack_.back()->attr<ManualComputationAttrs>();
  std::string meshName = !manual.inShardings.empty() ? manual.inShardings[0].meshName
                                                     : manual.outShardings.at(0).meshName;
  return *graph_.findMesh(meshName);
}

void Writer::groupsProp(const std::vector<std::string> &axes, OpParts &parts) const {
  const Mesh &mesh = collectiveMesh();
  DeviceGroups groups = replicaGroups(mesh, axes);
  std::string text = "replica_groups = dense<[";
  for (size_t g = 0; g < groups.size(); ++g)
    text += (g ? ", " : "") + intList(groups[g]);
  text += "]> : tensor<" + std::to_string(groups.size()) + "x" +
          std::to_string(groups.empty() ? 0 : groups[0].size()) + "xi64>";
  parts.props.push_back(text);
  if (axesOfGroups(mesh, groups) != std::optional<std::vector<std::string>>(axes))
    parts.attrs.push_back("shardgen.axes = " + stringList(axes));
}

void Writer::writeAllReduce(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &a = op.attr<AllReduceAttrs>();
  groupCollectiveProps(a.axes, parts);
  parts.regions.push_back(
      reducerRegion(a.reducer, graph_.type(op.operands.at(0)).elementType, indent));
  writeCollective(op, text, parts, indent);
}

void Writer::writeAllGather(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &a = op.attr<AllGatherAttrs>();
  groupCollectiveProps(a.axes, parts);
  parts.props.push_back("all_gather_dim = " + std::to_string(a.dimension) + " : i64");
  writeCollective(op, text, parts, indent);
}

void Writer::writeReduceScatter(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &a = op.attr<ReduceScatterAttrs>();
  groupCollectiveProps(a.axes, parts);
  parts.props.push_back("scatter_dimension = " + std::to_string(a.dimension) + " : i64");
  parts.regions.push_back(
      reducerRegion(a.reducer, graph_.type(op.operands.at(0)).elementType, indent));
  writeCollective(op, text, parts, indent);
}

void Writer::writeAllToAll(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &a = op.attr<AllToAllAttrs>();
  channelProp(parts);
  parts.props.push_back("concat_dimension = " + std::to_string(a.concatDimension) + " : i64");
  groupsProp(a.axes, parts);
  int64_t count = 1;
  for (const auto &axis : a.axes)
    count *= collectiveMesh().axisSize(axis);
  parts.props.push_back("split_count = " + std::to_string(count) + " : i64");
  parts.props.push_back("split_dimension = " + std::to_string(a.splitDimension) + " : i64");
  writeCollective(op, text, parts, indent);
}

void Writer::writeCollectivePermute(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &a = op.attr<CollectivePermuteAttrs>();
  const Mesh &mesh = collectiveMesh();
  channelProp(parts);
  DevicePairs pairs = permutePairs(mesh, a.axes, a.shift);
  std::vector<std::string> rows;
  for (const auto &[s, t] : pairs)
    rows.push_back(intList({s, t}));
  parts.props.push_back("source_target_pairs = dense<[" + join(rows) + "]> : tensor<" +
                        std::to_string(pairs.size()) + "x2xi64>");
  auto derived = axesOfPairs(mesh, pairs);
  if (!derived || derived->first != a.axes || derived->second != a.shift) {
    parts.attrs.push_back("shardgen.axes = " + stringList(a.axes));
    parts.attrs.push_back("shardgen.shift = " + std::to_string(a.shift) + " : i64");
  }
  writeCollective(op, text, parts, indent);
}

void Writer::writeAxisIndex(const Op &op, OpText &text, OpParts &parts, int indent) {
  parts.props.push_back("axis = " + quoteString(op.attr<AxisIndexAttrs>().axis));
  writeGeneric(op, text.lhs, parts, indent);
}

void Writer::writeReducePrecision(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &format = op.attr<ReducePrecisionAttrs>();
  const std::string e = std::to_string(format.exponentBits),
                    m = std::to_string(format.mantissaBits);
  parts.props.push_back("exponent_bits = " + e + " : i32");
  parts.props.push_back("mantissa_bits = " + m + " : i32");
  text.pretty = text.name + " " + operands(op.operands) + ", format = e" + e + "m" + m +
                text.attrDict + text.shortTypes;
  emit(op, text, parts, indent);
}

void Writer::writeRngBitGenerator(const Op &op, OpText &text, OpParts &parts, int indent) {
  const std::string &algorithm = op.attr<RngBitGeneratorAttrs>().rngAlgorithm;
  parts.props.push_back("rng_algorithm = #stablehlo<rng_algorithm " + algorithm + ">");
  text.pretty = text.name + " " + operands(op.operands) + ", algorithm = " + algorithm +
                text.attrDict + " : " + functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

void Writer::writeFft(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &fft = op.attr<FftAttrs>();
  parts.props.push_back("fft_length = " + denseArray(fft.fftLength)); // sorted, as MLIR prints
  parts.props.push_back("fft_type = #stablehlo<fft_type " + fft.fftType + ">");
  text.pretty = text.name + " " + operands(op.operands) + ", type = " + fft.fftType +
                ", length = " + intList(fft.fftLength) + text.attrDict + " : " +
                functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

void Writer::writeNoSyntax(const Op &op, OpText &, OpParts &, int) {
  internalError(__FILE__, __LINE__,
                "'" + std::string(op.name()) + "' has no MLIR form, yet reached the writer");
}

void Writer::writeOp(const Op &op, int indent) {
  OpParts parts;
  OpText text;
  text.lhs = results(op, parts);
  resultShardingAttrs(op, parts);
  if (shardingRule_)
    if (std::optional<std::string> rule = shardingRule_(op))
      parts.attrs.push_back("sdy.sharding_rule = #sdy.op_sharding_rule<" + *rule + ">");
  if (Metadata metadata = metadataWithOrigin(op); !metadata.empty())
    parts.attrs.push_back("shardgen.metadata = " + metadataText(metadata));

  text.name = mlirOpName(op.kind);
  text.attrDict = attrDictionary(parts.attrs);
  bool sameTypes =
      !op.results.empty() && std::all_of(op.operands.begin(), op.operands.end(), [&](ValueId v) {
        return graph_.type(v) == graph_.type(op.results[0]);
      });
  text.shortTypes = op.results.empty() ? "" : " : " + type(op.results[0]);
  text.types = sameTypes && op.results.size() == 1 ? text.shortTypes
                                                   : " : " + functionType(op.operands, op.results);
  parts.name = text.name;

  static constexpr SyntaxWriter kWriters[] = {
#define SHARDGEN_WRITER(dialect, syntax) &Writer::write##syntax
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, ...)    \
  SHARDGEN_WRITER Mlir,
#include "compiler/ops/Ops.def"
#undef SHARDGEN_WRITER
  };
  static_assert(std::size(kWriters) == kNumOpKinds);
  (this->*kWriters[static_cast<size_t>(op.kind)])(op, text, parts, indent);
}

void Writer::emit(const Op &op, const OpText &text, const OpParts &parts, int indent) {
  if (generic_)
    writeGeneric(op, text.lhs, parts, indent);
  else
    line(indent, text.lhs + text.pretty);
}

void Writer::writeKeywordForm(const Op &op, OpText &text, OpParts &parts, int indent,
                              const std::string &types) {
  std::vector<std::string> pieces, props;
  if (!op.operands.empty())
    pieces.push_back(operands(op.operands));
  const void *fields = attributeStruct(op.attrs.get());
  for (const AttrField &field : attributeSchema(op.kind)) {
    SHARDGEN_CHECK(!field.keyword.empty() && !field.mlir.empty() &&
                       (field.kind == AttrKind::Int || field.kind == AttrKind::Ints),
                   "'" + text.name +
                       "': a keyword syntax writes integer fields with keywords only");
    const std::string keyword(field.keyword), property(field.mlir);
    if (field.kind == AttrKind::Int) {
      const std::string value = std::to_string(field.in<int64_t>(fields));
      pieces.push_back(keyword + " = " + value);
      props.push_back(property + " = " + value + " : i64");
    } else {
      const auto &values = field.in<std::vector<int64_t>>(fields);
      pieces.push_back(keyword + " = " + intList(values));
      props.push_back(property + " = " + denseArray(values));
    }
  }
  sortByName(props); // as MLIR prints properties
  parts.props.insert(parts.props.end(), props.begin(), props.end());
  // `stablehlo.after_all : t`: no operands, no double space
  text.pretty = text.name + (pieces.empty() ? "" : " " + join(pieces)) + text.attrDict + types;
  emit(op, text, parts, indent);
}

void Writer::resultShardingAttrs(const Op &op, OpParts &parts) {
  // Result shardings (a constraint's is its own syntax).
  if (op.kind != OpKind::ShardingConstraint && !op.shardings.empty()) {
    bool all = std::all_of(op.shardings.begin(), op.shardings.end(),
                           [](const auto &s) { return s.has_value(); });
    bool any = std::any_of(op.shardings.begin(), op.shardings.end(),
                           [](const auto &s) { return s.has_value(); });
    if (all && op.shardings.size() == op.results.size()) {
      std::vector<TensorSharding> list;
      for (const auto &s : op.shardings)
        list.push_back(*s);
      parts.attrs.push_back("sdy.sharding = #sdy.sharding_per_value<" + printShardingList(list) +
                            ">");
    } else if (any) {
      std::vector<std::string> entries;
      for (size_t i = 0; i < op.results.size(); ++i)
        entries.push_back(i < op.shardings.size() && op.shardings[i]
                              ? "#sdy.sharding<" + shardingBody(*op.shardings[i]) + ">"
                              : "unit");
      parts.attrs.push_back("shardgen.result_shardings = [" + join(entries) + "]");
    }
  }
}

void Writer::writeConstant(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &c = op.attr<ConstantAttrs>();
  std::string value = "dense<" + printDenseBody(c) + "> : " + type(op.results[0]);
  parts.props.push_back("value = " + value);
  text.pretty = text.name + text.attrDict + " " + value;
  emit(op, text, parts, indent);
}

void Writer::writeCompare(const Op &op, OpText &text, OpParts &parts, int indent) {
  auto direction = comparisonDirectionName(op.attr<CompareAttrs>().direction);
  ElementType element = graph_.type(op.operands.at(0)).elementType;
  const auto &attrs = op.attr<CompareAttrs>();
  std::string compareType = attrs.compareTypeGiven                   ? attrs.compareType
                            : isFloat(element) || isComplex(element) ? "FLOAT"
                            : isSignedInteger(element)               ? "SIGNED"
                                                                     : "UNSIGNED";
  parts.props.push_back("compare_type = #stablehlo<comparison_type " + compareType + ">");
  parts.props.push_back("comparison_direction = #stablehlo<comparison_direction " +
                        std::string(direction) + ">");
  text.pretty = text.name + "  " + std::string(direction) + ", " + operands(op.operands) + ",  " +
                compareType + text.attrDict + " : " + functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

void Writer::writeDotGeneral(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &d = op.attr<DotGeneralAttrs>();
  std::vector<std::string> fields;
  auto field = [&](const char *key, const std::vector<int64_t> &v) {
    if (!v.empty())
      fields.push_back(std::string(key) + " = " + intList(v));
  };
  field("lhs_batching_dimensions", d.lhsBatchingDimensions);
  field("rhs_batching_dimensions", d.rhsBatchingDimensions);
  field("lhs_contracting_dimensions", d.lhsContractingDimensions);
  field("rhs_contracting_dimensions", d.rhsContractingDimensions);
  parts.props.push_back("dot_dimension_numbers = #stablehlo.dot<" + join(fields) + ">");
  std::string &pretty = text.pretty;
  pretty = text.name + " " + operands(op.operands);
  if (!d.lhsBatchingDimensions.empty() || !d.rhsBatchingDimensions.empty())
    pretty += ", batching_dims = " + intList(d.lhsBatchingDimensions) + " x " +
              intList(d.rhsBatchingDimensions);
  if (!d.lhsContractingDimensions.empty() || !d.rhsContractingDimensions.empty())
    pretty += ", contracting_dims = " + intList(d.lhsContractingDimensions) + " x " +
              intList(d.rhsContractingDimensions);
  pretty += text.attrDict + " : " + functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

void Writer::writeReduce(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &r = op.attr<ReduceAttrs>();
  if (!r.reducer)
    return writeReduceBody(op, text, parts, indent);
  parts.props.push_back("dimensions = " + denseArray(r.dimensions));
  parts.regions.push_back(
      reducerRegion(*r.reducer, graph_.type(op.operands[0]).elementType, indent));
  text.pretty = text.name + "(" + ssa_[op.operands[0]] + " init: " + ssa_[op.operands[1]] +
                ") applies " + reducerOpName(*r.reducer) +
                " across dimensions = " + intList(r.dimensions) + text.attrDict + " : " +
                functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

void Writer::writeSlice(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &s = op.attr<SliceAttrs>();
  parts.props.push_back("start_indices = " + denseArray(s.startIndices));
  parts.props.push_back("limit_indices = " + denseArray(s.limitIndices));
  if (s.stridesGiven)
    parts.props.push_back("strides = " + denseArray(s.strides));
  std::vector<std::string> ranges;
  for (size_t i = 0; i < s.startIndices.size(); ++i)
    ranges.push_back(std::to_string(s.startIndices[i]) + ":" + std::to_string(s.limitIndices[i]) +
                     (s.stridesGiven ? ":" + std::to_string(s.strides.at(i)) : ""));
  text.pretty = text.name + " " + ssa_[op.operands[0]] + " [" + join(ranges) + "]" + text.attrDict +
                " : " + functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

void Writer::writeCustomCall(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &c = op.attr<CustomCallAttrs>();
  parts.props.push_back("call_target_name = " + quoteString(c.callTargetName));
  if (c.shardingRule && !shardingRule_) {
    // A user's rule: Shardy prints it as such (`custom`).
    parts.attrs.push_back("sdy.sharding_rule = #sdy.op_sharding_rule<" +
                          printOpShardingRule(*c.shardingRule) + ", custom>");
    text.attrDict = attrDictionary(parts.attrs);
  }
  text.pretty = text.name + " @" + printSymbol(c.callTargetName) + "(" + operands(op.operands) +
                ")" + text.attrDict + " : " + functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

void Writer::writeShardingConstraint(const Op &op, OpText &text, OpParts &parts, int indent) {
  const TensorSharding &s = *op.shardings.at(0);
  parts.props.push_back("sharding = #sdy.sharding<" + shardingBody(s) + ">");
  text.pretty = text.name + " " + operands(op.operands) + " " + printSharding(s) + text.attrDict +
                text.shortTypes;
  emit(op, text, parts, indent);
}

void Writer::writePropagationBarrier(const Op &op, OpText &text, OpParts &parts, int indent) {
  auto direction = barrierDirectionName(op.attr<PropagationBarrierAttrs>().allowedDirection);
  parts.props.push_back("allowed_direction = #sdy<propagation_direction " + std::string(direction) +
                        ">");
  text.pretty = text.name + " " + operands(op.operands) +
                " allowed_direction=" + std::string(direction) + text.attrDict + text.shortTypes;
  emit(op, text, parts, indent);
}

void Writer::writeShardingGroup(const Op &op, OpText &text, OpParts &parts, int indent) {
  int64_t id = op.attr<ShardingGroupAttrs>().groupId;
  parts.props.push_back("group_id = " + std::to_string(id) + " : i64");
  text.pretty = text.name + " " + operands(op.operands) + " group_id=" + std::to_string(id) +
                text.attrDict + " : " + type(op.operands.at(0));
  emit(op, text, parts, indent);
}

void Writer::writeOptimizationBarrier(const Op &op, OpText &text, OpParts &parts, int indent) {
  // `{attrs} %a, %b : ta, tb`, as StableHLO prints it.
  std::vector<std::string> types;
  for (ValueId operand : op.operands)
    types.push_back(type(operand));
  text.pretty = text.name + text.attrDict + " " + operands(op.operands) + " : " + join(types);
  emit(op, text, parts, indent);
}

void Writer::writeManualComputation(const Op &op, OpText &text, OpParts &parts, int indent) {
  auto &[lhs, name, attrDict, shortTypes, types, pretty] = text;
  const auto &m = op.attr<ManualComputationAttrs>();
  parts.props.push_back("in_shardings = #sdy.sharding_per_value<" +
                        printShardingList(m.inShardings) + ">");
  parts.props.push_back("manual_axes = #sdy<manual_axes" + printManualAxes(m.manualAxes) + ">");
  parts.props.push_back("out_shardings = #sdy.sharding_per_value<" +
                        printShardingList(m.outShardings) + ">");
  const Region &body = *op.body();
  std::vector<std::string> argNames, argTypes, argShardings, argMetadata;
  bool nameHint = false, shardingHint = false, metadataHint = false;
  for (const auto &arg : body.args) {
    nameHint |= nameValue(arg.value, freshLike(graph_.value(arg.value).name));
    argNames.push_back(graph_.value(arg.value).name);
    argTypes.push_back(ssa_[arg.value] + ": " + type(arg.value));
    shardingHint |= arg.sharding.has_value();
    argShardings.push_back(arg.sharding ? "#sdy.sharding<" + shardingBody(*arg.sharding) + ">"
                                        : "unit");
    Metadata metadata = metadataWithOrigin(arg);
    metadataHint |= !metadata.empty();
    argMetadata.push_back(metadataText(metadata));
  }
  if (nameHint)
    parts.attrs.push_back("shardgen.arg_names = " + stringList(argNames));
  if (shardingHint)
    parts.attrs.push_back("shardgen.arg_shardings = [" + join(argShardings) + "]");
  if (metadataHint)
    parts.attrs.push_back("shardgen.arg_metadata = [" + join(argMetadata) + "]");
  if (!body.metadata.empty())
    parts.attrs.push_back("shardgen.body_metadata = " + metadataText(body.metadata));
  manualStack_.push_back(&op);
  std::string bodyText = regionText(body, indent, "sdy.return");
  manualStack_.pop_back();
  std::string pad(2 * indent, ' ');
  if (generic_) {
    parts.regions.push_back("{\n" + pad + "^bb0(" + join(argTypes) + "):\n" + bodyText + pad + "}");
    writeGeneric(op, lhs, parts, indent);
  } else {
    attrDict = attrDictionary(parts.attrs);
    line(indent, lhs + parts.name + "(" + operands(op.operands) +
                     ") in_shardings=" + printShardingList(m.inShardings) +
                     " out_shardings=" + printShardingList(m.outShardings) + " manual_axes=" +
                     printManualAxes(m.manualAxes) + " (" + join(argTypes) + ") {");
    out_ += bodyText;
    line(indent, "}" + attrDict + " : " + functionType(op.operands, op.results));
  }
}

void Writer::writeWhile(const Op &op, OpText &text, OpParts &parts, int indent) {
  const Region &cond = op.regions[0], &body = op.regions[1];
  std::string pad(2 * indent, ' ');
  if (generic_) {
    std::vector<std::string> condArgs = regionArguments(cond, "shardgen.cond_arg_names", parts);
    std::string condText = regionText(cond, indent, "stablehlo.return");
    std::vector<std::string> bodyArgs = regionArguments(body, "shardgen.body_arg_names", parts);
    std::string bodyText = regionText(body, indent, "stablehlo.return");
    for (auto [args, regionBody] : {std::pair{&condArgs, &condText}, {&bodyArgs, &bodyText}})
      parts.regions.push_back("{\n" + pad + "^bb0(" + join(*args) + "):\n" + *regionBody + pad +
                              "}");
    return writeGeneric(op, text.lhs, parts, indent);
  }
  // JAX's form: `stablehlo.while(%iterArg = %a, ...) : t, ... cond { } do { }`,
  // both regions' arguments named alike.
  std::vector<std::string> iterNames;
  for (size_t i = 0; i < body.args.size(); ++i) {
    iterNames.push_back(freshLike(graph_.value(body.args[i].value).name));
    used_.insert(iterNames.back());
  }
  regionArguments(cond, "shardgen.cond_arg_names", parts, &iterNames);
  regionArguments(body, "shardgen.body_arg_names", parts, &iterNames);
  std::vector<std::string> inits, types;
  for (size_t i = 0; i < op.operands.size() && i < iterNames.size(); ++i) {
    inits.push_back("%" + iterNames[i] + " = " + ssa_[op.operands[i]]);
    types.push_back(type(op.operands[i]));
  }
  std::string head = text.lhs + text.name + "(" + join(inits) + ")";
  if (!types.empty())
    head += " : " + join(types);
  if (!parts.attrs.empty())
    head += " attributes {" + join(parts.attrs) + "}";
  line(indent, head);
  std::string condText = regionText(cond, indent, "stablehlo.return");
  std::string bodyText = regionText(body, indent, "stablehlo.return");
  line(indent, " cond {");
  out_ += condText;
  line(indent, "} do {");
  out_ += bodyText;
  line(indent, "}");
}

void Writer::writeCase(const Op &op, OpText &text, OpParts &parts, int indent) {
  // `"stablehlo.case"(%i) ({ ... }, { ... }) : (tensor<i32>) -> t`: the form
  // StableHLO prints (case and if have no pretty form).
  std::string pad(2 * indent, ' ');
  for (const Region &branch : op.regions)
    parts.regions.push_back("{\n" + regionText(branch, indent, "stablehlo.return") + pad + "}");
  writeGeneric(op, text.lhs, parts, indent);
}

Writer::ScalarBody Writer::scalarBody(const Op &op, OpParts &parts, int indent) {
  const Region &body = *op.body();
  const std::vector<std::string> argTypes = regionArguments(body, "shardgen.arg_names", parts);
  if (!body.metadata.empty())
    parts.attrs.push_back("shardgen.body_metadata = " + metadataText(body.metadata));
  return {argTypes, regionText(body, indent, "stablehlo.return")};
}

void Writer::writeReduceBody(const Op &op, OpText &text, OpParts &parts, int indent) {
  parts.props.push_back("dimensions = " + denseArray(op.attr<ReduceAttrs>().dimensions));
  const size_t n = op.operands.size() / 2;
  const ScalarBody body = scalarBody(op, parts, indent);
  if (generic_) {
    parts.regions.push_back(regionBlock(body, indent));
    return writeGeneric(op, text.lhs, parts, indent);
  }
  const std::vector<std::string> &argTypes = body.argTypes;
  // As JAX prints it: the inputs paired with their inits, the body's
  // arguments paired as (accumulator, element) per input.
  std::vector<std::string> inputs;
  std::string reducer;
  for (size_t i = 0; i < n; ++i) {
    inputs.push_back("(" + ssa_[op.operands[i]] + " init: " + ssa_[op.operands[n + i]] + ")");
    reducer += "(" + argTypes[i] + ", " + argTypes[n + i] + ") ";
  }
  const std::string attrDict = parts.attrs.empty() ? "" : " {" + join(parts.attrs) + "}";
  line(indent, text.lhs + text.name + join(inputs) +
                   " across dimensions = " + intList(op.attr<ReduceAttrs>().dimensions) + attrDict +
                   " : " + functionType(op.operands, op.results));
  line(indent, " reducer" + reducer + " {");
  out_ += body.text;
  line(indent, "}");
}

std::string Writer::dimensionNumbers(const Op &op, const AttrField &field) const {
  const void *object = field.member(const_cast<void *>(attributeStruct(op.attrs.get())));
  std::vector<std::string> items;
  for (const AttrField &inner : field.nested()) {
    const std::string name(inner.mlir);
    if (inner.kind == AttrKind::Int) {
      items.push_back(name + " = " + std::to_string(inner.in<int64_t>(object)));
    } else {
      const auto &values = inner.in<std::vector<int64_t>>(object);
      if (!values.empty())
        items.push_back(name + " = " + intList(values));
    }
  }
  return "#" + std::string(mlirOpName(op.kind)) + "<" + join(items) + ">";
}

void Writer::writeGather(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &g = op.attr<GatherAttrs>();
  const auto fields = GatherAttrs::schema();
  parts.props.push_back(std::string(fields[0].mlir) + " = " + dimensionNumbers(op, fields[0]));
  parts.props.push_back("indices_are_sorted = " +
                        std::string(g.indicesAreSorted ? "true" : "false"));
  parts.props.push_back("slice_sizes = " + denseArray(g.sliceSizes));
  writeGeneric(op, text.lhs, parts, indent);
}

void Writer::writeScatter(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &s = op.attr<ScatterAttrs>();
  const auto fields = ScatterAttrs::schema();
  parts.props.push_back("indices_are_sorted = " +
                        std::string(s.indicesAreSorted ? "true" : "false"));
  parts.props.push_back(std::string(fields[0].mlir) + " = " + dimensionNumbers(op, fields[0]));
  parts.props.push_back("unique_indices = " + std::string(s.uniqueIndices ? "true" : "false"));
  parts.regions.push_back(regionBlock(scalarBody(op, parts, indent), indent));
  writeGeneric(op, text.lhs, parts, indent);
}

void Writer::writeSort(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &sort = op.attr<SortAttrs>();
  parts.props.push_back("dimension = " + std::to_string(sort.dimension) + " : i64");
  parts.props.push_back(std::string("is_stable = ") + (sort.isStable ? "true" : "false"));
  parts.regions.push_back(regionBlock(scalarBody(op, parts, indent), indent));
  writeGeneric(op, text.lhs, parts, indent);
}

void Writer::writeTopK(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &topK = op.attr<TopKAttrs>();
  parts.props.push_back("k = " + std::to_string(topK.k) + " : i64");
  std::string stable;
  if (!topK.isStable) { // true is chlo's default
    parts.props.push_back("is_stable = false");
    stable = ", is_stable = false";
  }
  text.pretty = text.name + "(" + ssa_[op.operands[0]] + ", k = " + std::to_string(topK.k) +
                stable + ")" + text.attrDict + " : " + type(op.operands[0]) + " -> (" +
                type(op.results[0]) + ", " + type(op.results[1]) + ")";
  emit(op, text, parts, indent);
}

// ---- windows ----

namespace {

std::string paddingDense(const std::vector<std::array<int64_t, 2>> &padding) {
  std::vector<std::string> rows;
  for (const auto &pair : padding)
    rows.push_back("[" + std::to_string(pair[0]) + ", " + std::to_string(pair[1]) + "]");
  return "dense<" + (rows.empty() ? std::string() : "[" + join(rows) + "]") + "> : tensor<" +
         std::to_string(padding.size()) + "x2xi64>";
}

std::string paddingList(const std::vector<std::array<int64_t, 2>> &padding) {
  std::vector<std::string> rows;
  for (const auto &pair : padding)
    rows.push_back("[" + std::to_string(pair[0]) + ", " + std::to_string(pair[1]) + "]");
  return "[" + join(rows) + "]";
}

std::string boolList(const std::vector<bool> &values) {
  std::vector<std::string> words;
  for (bool value : values)
    words.push_back(value ? "true" : "false");
  return "[" + join(words) + "]";
}

/// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
std::string convDimensions(const ConvolutionAttrs &c) {
  auto list = [](size_t rank, int64_t first, const char *firstLabel,
                 const std::vector<int64_t> &spatial, int64_t last, const char *lastLabel) {
    std::vector<std::string> labels(rank);
    if (first >= 0 && first < static_cast<int64_t>(rank))
      labels[first] = firstLabel;
    if (last >= 0 && last < static_cast<int64_t>(rank))
      labels[last] = lastLabel;
    for (size_t s = 0; s < spatial.size(); ++s)
      if (spatial[s] >= 0 && spatial[s] < static_cast<int64_t>(rank))
        labels[spatial[s]] = std::to_string(s);
    return "[" + join(labels) + "]";
  };
  const size_t rank = c.inputSpatialDimensions.size() + 2;
  return list(rank, c.inputBatchDimension, "b", c.inputSpatialDimensions, c.inputFeatureDimension,
              "f") +
         "x" +
         list(rank, c.kernelInputFeatureDimension, "i", c.kernelSpatialDimensions,
              c.kernelOutputFeatureDimension, "o") +
         "->" +
         list(rank, c.outputBatchDimension, "b", c.outputSpatialDimensions,
              c.outputFeatureDimension, "f");
}

} // namespace

void Writer::scalarRegions(const Op &op, const std::vector<std::string> &keys, OpParts &parts,
                           int indent) {
  std::string pad(2 * indent, ' ');
  for (size_t r = 0; r < keys.size(); ++r) {
    const Region &body = op.regions[r];
    const std::vector<std::string> argTypes =
        regionArguments(body, "shardgen." + keys[r] + "_arg_names", parts);
    parts.regions.push_back("{\n" + pad + "^bb0(" + join(argTypes) + "):\n" +
                            regionText(body, indent, "stablehlo.return") + pad + "}");
  }
}

void Writer::writeReduceWindow(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &w = op.attr<ReduceWindowAttrs>();
  parts.props = {"base_dilations = " + denseArray(w.baseDilations),
                 "padding = " + paddingDense(w.padding),
                 "window_dilations = " + denseArray(w.windowDilations),
                 "window_dimensions = " + denseArray(w.windowDimensions),
                 "window_strides = " + denseArray(w.windowStrides)};
  scalarRegions(op, {"body"}, parts, indent);
  writeGeneric(op, text.lhs, parts, indent);
}

void Writer::writeSelectAndScatter(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &w = op.attr<SelectAndScatterAttrs>();
  parts.props = {"padding = " + paddingDense(w.padding),
                 "window_dimensions = " + denseArray(w.windowDimensions),
                 "window_strides = " + denseArray(w.windowStrides)};
  scalarRegions(op, {"select", "scatter"}, parts, indent);
  writeGeneric(op, text.lhs, parts, indent);
}

void Writer::writeConvolution(const Op &op, OpText &text, OpParts &parts, int indent) {
  const auto &c = op.attr<ConvolutionAttrs>();
  std::vector<bool> reversal = c.windowReversal;
  std::string reversalArray = "array<i1";
  for (size_t i = 0; i < reversal.size(); ++i)
    reversalArray += std::string(i ? ", " : ": ") + (reversal[i] ? "true" : "false");
  reversalArray += ">";
  const std::string groups =
      "batch_group_count = " + std::to_string(c.batchGroupCount) +
      " : i64, feature_group_count = " + std::to_string(c.featureGroupCount) + " : i64";
  parts.props = {"batch_group_count = " + std::to_string(c.batchGroupCount) + " : i64",
                 "dimension_numbers = #stablehlo.conv<" + convDimensions(c) + ">",
                 "feature_group_count = " + std::to_string(c.featureGroupCount) + " : i64",
                 "lhs_dilation = " + denseArray(c.lhsDilation),
                 "padding = " + paddingDense(c.padding),
                 "rhs_dilation = " + denseArray(c.rhsDilation),
                 "window_reversal = " + reversalArray,
                 "window_strides = " + denseArray(c.windowStrides)};
  std::vector<std::string> attrs = parts.attrs;
  attrs.insert(attrs.begin(), groups);
  text.pretty = text.name + "(" + operands(op.operands) + ") dim_numbers = " + convDimensions(c) +
                ", window = {stride = " + intList(c.windowStrides) +
                ", pad = " + paddingList(c.padding) + ", lhs_dilate = " + intList(c.lhsDilation) +
                ", rhs_dilate = " + intList(c.rhsDilation) + ", reverse = " + boolList(reversal) +
                "} {" + join(attrs) + "} : " + functionType(op.operands, op.results);
  emit(op, text, parts, indent);
}

std::vector<std::string> Writer::regionArguments(const Region &body, const std::string &hintKey,
                                                 OpParts &parts,
                                                 const std::vector<std::string> *ssaNames) {
  std::vector<std::string> names, argTypes;
  bool nameHint = false;
  for (size_t i = 0; i < body.args.size(); ++i) {
    const ValueId value = body.args[i].value;
    const std::string &name = graph_.value(value).name;
    nameHint |= nameValue(value, ssaNames ? (*ssaNames)[i] : freshLike(name));
    names.push_back(name);
    argTypes.push_back(ssa_[value] + ": " + type(value));
  }
  if (nameHint)
    parts.attrs.push_back(hintKey + " = " + stringList(names));
  return argTypes;
}

std::string Writer::regionText(const Region &body, int indent, const std::string &terminator) {
  // The body goes into its own buffer, then into the op's text.
  std::string saved = std::move(out_);
  out_.clear();
  writeRegionOps(body, indent + 1);
  std::vector<std::string> returned, returnedTypes;
  for (const auto &result : body.results) {
    returned.push_back(ssa_[result.value]);
    returnedTypes.push_back(type(result.value));
  }
  if (generic_)
    line(indent + 1,
         "\"" + terminator + "\"(" + join(returned) + ") : (" + join(returnedTypes) + ") -> ()");
  else
    line(indent + 1,
         terminator + (returned.empty() ? "" : " " + join(returned) + " : " + join(returnedTypes)));
  std::string text = std::move(out_);
  out_ = std::move(saved);
  return text;
}

void Writer::writeRegionOps(const Region &region, int indent) {
  for (const auto &op : region.ops)
    writeOp(op, indent);
}

std::string Writer::write() {
  std::vector<std::string> moduleAttrs = writeModuleStart();
  Signature signature = mainSignature();
  // The body first (it names every value), then the signature around it.
  std::string body = mainBody(signature.resultTypes);
  writeMain(signature, body, moduleAttrs);
  return out_;
}

std::vector<std::string> Writer::writeModuleStart() {
  int64_t partitions = 1;
  for (const auto &mesh : graph_.meshes)
    partitions = std::max(partitions, mesh.numDevices());
  std::vector<std::string> moduleAttrs = {"mhlo.num_partitions = " + std::to_string(partitions) +
                                              " : i32",
                                          "mhlo.num_replicas = 1 : i32"};
  if (!graph_.metadata.empty())
    moduleAttrs.push_back("shardgen.metadata = " + metadataText(graph_.metadata));
  if (generic_)
    line(0, "\"builtin.module\"() <{" +
                (graph_.name.empty() ? "" : "sym_name = " + quoteString(graph_.name)) + "}> ({");
  else
    line(0, "module " + (graph_.name.empty() ? "" : "@" + printSymbol(graph_.name) + " ") +
                "attributes {" + join(moduleAttrs) + "} {");
  for (const auto &mesh : graph_.meshes) {
    std::string attrs =
        mesh.metadata.empty() ? "" : " {shardgen.metadata = " + metadataText(mesh.metadata) + "}";
    if (generic_)
      line(1, "\"sdy.mesh\"() <{mesh = #sdy.mesh<" + printMeshBody(mesh) +
                  ">, sym_name = " + quoteString(mesh.name) + "}>" + attrs + " : () -> ()");
    else
      line(1, "sdy.mesh @" + printSymbol(mesh.name) + " = <" + printMeshBody(mesh) + ">" + attrs);
  }

  return moduleAttrs;
}

Writer::Signature Writer::mainSignature() {
  const Region &main = graph_.main;
  Signature sig;
  auto &[args, argAttrDicts, argTypes, resultTypes, resultAttrDicts, resultsPretty,
         anyResultAttrs] = sig;
  for (const auto &arg : main.args) {
    std::vector<std::string> attrs;
    if (arg.sharding)
      attrs.push_back("sdy.sharding = #sdy.sharding<" + shardingBody(*arg.sharding) + ">");
    if (nameValue(arg.value, freshLike(graph_.value(arg.value).name)))
      attrs.push_back("shardgen.name = " + quoteString(graph_.value(arg.value).name));
    if (Metadata metadata = metadataWithOrigin(arg); !metadata.empty())
      attrs.push_back("shardgen.metadata = " + metadataText(metadata));
    std::string dict = "{" + join(attrs) + "}";
    argAttrDicts.push_back(dict);
    argTypes.push_back(type(arg.value));
    args.push_back(ssa_[arg.value] + ": " + type(arg.value) + (attrs.empty() ? "" : " " + dict));
  }
  for (const auto &result : main.results) {
    std::vector<std::string> attrs;
    if (result.sharding)
      attrs.push_back("sdy.sharding = #sdy.sharding<" + shardingBody(*result.sharding) + ">");
    if (Metadata metadata = metadataWithOrigin(result); !metadata.empty())
      attrs.push_back("shardgen.metadata = " + metadataText(metadata));
    anyResultAttrs |= !attrs.empty();
    resultTypes.push_back(type(result.value));
    resultAttrDicts.push_back("{" + join(attrs) + "}");
    resultsPretty.push_back(type(result.value) + (attrs.empty() ? "" : " {" + join(attrs) + "}"));
  }

  return sig;
}

std::string Writer::mainBody(const std::vector<std::string> &resultTypes) {
  const Region &main = graph_.main;
  std::string saved = std::move(out_);
  out_.clear();
  writeRegionOps(main, 2);
  std::vector<std::string> returned;
  for (const auto &result : main.results)
    returned.push_back(ssa_[result.value]);
  if (generic_)
    line(2, "\"func.return\"(" + join(returned) + ") : (" + join(resultTypes) + ") -> ()");
  else
    line(2, "return" + (returned.empty() ? "" : " " + join(returned) + " : " + join(resultTypes)));
  std::string body = std::move(out_);
  out_ = std::move(saved);

  return body;
}

void Writer::writeMain(const Signature &sig, const std::string &body,
                       const std::vector<std::string> &moduleAttrs) {
  const Region &main = graph_.main;
  const auto &[args, argAttrDicts, argTypes, resultTypes, resultAttrDicts, resultsPretty,
               anyResultAttrs] = sig;
  std::string resultType = resultTypes.size() == 1 ? resultTypes[0] : "(" + join(resultTypes) + ")";
  if (generic_) {
    std::vector<std::string> props;
    if (anyResultAttrs || std::any_of(argAttrDicts.begin(), argAttrDicts.end(),
                                      [](const auto &d) { return d != "{}"; }))
      props.push_back("arg_attrs = [" + join(argAttrDicts) + "]");
    props.push_back("function_type = (" + join(argTypes) + ") -> " + resultType);
    if (anyResultAttrs)
      props.push_back("res_attrs = [" + join(resultAttrDicts) + "]");
    props.push_back("sym_name = " + quoteString(graph_.entry.name));
    line(1, "\"func.func\"() <{" + join(props) + "}> ({");
    if (!args.empty())
      line(1, "^bb0(" + join(args.empty() ? args : [&] {
             std::vector<std::string> plain;
             for (const auto &arg : main.args)
               plain.push_back(ssa_[arg.value] + ": " + type(arg.value));
             return plain;
           }()) + "):");
    out_ += body;
    line(1, "}) : () -> ()");
    line(0, "}) {" + join(moduleAttrs) + "} : () -> ()");
  } else {
    std::string results = resultsPretty.size() == 1 && !anyResultAttrs
                              ? resultsPretty[0]
                              : "(" + join(resultsPretty) + ")";
    line(1, std::string("func.func ") + (graph_.entry.publicKeyword ? "public " : "") + "@" +
                printSymbol(graph_.entry.name) + "(" + join(args) + ") -> " + results + " {");
    out_ += body;
    line(1, "}");
    line(0, "}");
  }
}

} // namespace

std::string writeMlir(const Graph &graph, const MlirWriteOptions &options) {
  // Neither StableHLO nor sdy has a round-robin distribution: refused, never
  // dropped (the exported program would compute on other placements).
  if (std::string pointer = firstDistributionPointer(graph); !pointer.empty())
    fail(pointer, "distributions have no MLIR form (StableHLO and sdy have none); export the "
                  "graph without them");
  return Writer(graph, options).write();
}

} // namespace shardgen::mlir
