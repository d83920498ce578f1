#include "compiler/mlir/MlirImporter.h"
#include "compiler/ops/OpTable.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "compiler/frontend/JsonParsing.h"
#include "compiler/frontend/OriginMetadata.h"
#include "compiler/ir/ControlFlow.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"
#include "compiler/ir/NestingLimit.h"
#include "compiler/mlir/ChloDecomposition.h"
#include "compiler/mlir/CollectiveGroups.h"
#include "compiler/mlir/DenseElements.h"
#include "compiler/mlir/DeviceIds.h"
#include "compiler/mlir/DotAlgorithm.h"
#include "compiler/mlir/GspmdSharding.h"
#include "compiler/mlir/InlineBudget.h"
#include "compiler/mlir/LapackCalls.h"
#include "compiler/mlir/MlirLexer.h"
#include "compiler/mlir/MlirParser.h"
#include "compiler/mlir/RaggedDot.h"
#include "compiler/mlir/SdyAttributes.h"
#include "compiler/mlir/SourceLocations.h"
#include "compiler/mlir/TriangularSolve.h"

namespace shardgen::mlir {

// ---- SourcePlaces ----------------------------------------------------------

void SourcePlaces::add(const std::string &pointer, SourceLoc loc, std::string sourceLoc) {
  entries_[pointer] = Entry{loc, std::move(sourceLoc)};
}

const SourcePlaces::Entry *SourcePlaces::find(const std::string &pointer) const {
  std::string prefix = pointer;
  while (true) {
    auto it = entries_.find(prefix);
    if (it != entries_.end())
      return &it->second;
    size_t slash = prefix.rfind('/');
    if (slash == std::string::npos)
      return nullptr;
    prefix.resize(slash);
  }
}

std::string SourcePlaces::place(const std::string &pointer) const {
  if (!pointer.empty() && pointer[0] != '/')
    return pointer; // already "line:col"
  const Entry *entry = find(pointer);
  return entry ? entry->loc.str() : "1:1";
}

std::string SourcePlaces::annotate(const std::string &pointer, const std::string &message) const {
  // The nearest enclosing entity with a #loc: an operand's op, a type's op.
  for (std::string prefix = pointer;;) {
    auto it = entries_.find(prefix);
    if (it != entries_.end() && !it->second.sourceLoc.empty())
      return message + " (at " + it->second.sourceLoc + ")";
    size_t slash = prefix.rfind('/');
    if (slash == std::string::npos)
      return message;
    prefix.resize(slash);
  }
}

namespace {

using Kind = Attribute::Kind;

[[noreturn]] void failAt(SourceLoc loc, const std::string &message) { fail(loc.str(), message); }

/// The largest mesh whose replica groups the importer enumerates.
constexpr int64_t kMaxMeshDevices = int64_t(1) << 16;

/// Attribute names the importer accepts and ignores: they change nothing the
/// graph format describes (layouts, debugging names, precision hints of a
/// program shardgen computes in full precision, bookkeeping of JAX).
bool ignorable(const std::string &name) {
  static const std::set<std::string> names = {"precision",
                                              "precision_config",
                                              "compare_type",
                                              "channel_handle",
                                              "use_global_device_ids",
                                              "api_version",
                                              "output_operand_aliases",
                                              "_short_types",
                                              "result_info"};
  return names.count(name) || name.starts_with("jax.") || name.starts_with("tf.") ||
         name.starts_with("mhlo.num_") || name == "mhlo.frontend_attributes" ||
         name == "mhlo.layout_mode" || name == "mhlo.memory_kind";
}

/// What an op says, taken attribute by attribute; every attribute must be
/// taken or ignorable, so nothing is dropped silently.
class AttrTaker {
public:
  explicit AttrTaker(const Operation &op) : op_(op), taken_(op.attrs.size(), false) {}
  const Attribute *take(const std::string &name) {
    for (size_t i = 0; i < op_.attrs.size(); ++i)
      if (op_.attrs[i].name == name) {
        taken_[i] = true;
        return &op_.attrs[i].value;
      }
    return nullptr;
  }
  const Attribute &require(const std::string &name, const std::string &what = "") {
    if (const Attribute *attr = take(name))
      return *attr;
    failAt(op_.loc,
           "'" + op_.name + "' needs " + (what.empty() ? "attribute '" + name + "'" : what));
  }
  void checkAllTaken() const {
    for (size_t i = 0; i < op_.attrs.size(); ++i)
      if (!taken_[i] && !ignorable(op_.attrs[i].name))
        failAt(op_.attrs[i].value.loc, "attribute '" + op_.attrs[i].name + "' of '" + op_.name +
                                           "' is not supported (the graph format cannot hold it)");
  }

private:
  const Operation &op_;
  std::vector<bool> taken_;
};

int64_t integerOf(const Attribute &attr, const std::string &what) {
  if (attr.kind != Kind::Integer)
    failAt(attr.loc, "expected an integer for " + what);
  return attr.integer;
}

bool booleanOf(const Attribute &attr, const std::string &what) {
  if (attr.kind != Kind::Word || (attr.text != "true" && attr.text != "false"))
    failAt(attr.loc, "expected true or false for " + what);
  return attr.text == "true";
}

/// [1, 2], array<i64: 1, 2>, dense<[1, 2]> : tensor<2xi64>.
std::vector<int64_t> integersOf(const Attribute &attr, const std::string &what) {
  std::vector<int64_t> values;
  if (attr.kind == Kind::Array) {
    for (const auto &element : attr.elements)
      values.push_back(integerOf(element, what));
    return values;
  }
  if (attr.kind == Kind::Dense) {
    Lexer lexer(attr.body);
    while (lexer.peek().kind != TokenKind::End) {
      Token t = lexer.next();
      int64_t value = 0;
      if (t.kind == TokenKind::Integer && integerValue(t.text, value))
        values.push_back(value);
      else if (!t.isPunct("[") && !t.isPunct("]") && !t.isPunct(","))
        failAt(attr.loc, "expected integers for " + what);
    }
    return values;
  }
  failAt(attr.loc, "expected a list of integers for " + what);
}

/// [[0, 1], [2, 3]] from dense<...> : tensor<2x2xi64>.
std::vector<std::vector<int64_t>> integerRows(const Attribute &attr, const std::string &what) {
  if (attr.kind != Kind::Dense)
    failAt(attr.loc, "expected dense<...> for " + what);
  std::string error;
  auto type = parseType(attr.typeText, &error);
  if (!type || type->rank() != 2)
    failAt(attr.loc, what + " needs a rank-2 type, got '" + attr.typeText + "'");
  std::vector<int64_t> flat = integersOf(attr, what);
  int64_t rows = type->shape[0], columns = type->shape[1];
  if (columns < 1 || rows != static_cast<int64_t>(flat.size()) / columns ||
      static_cast<int64_t>(flat.size()) % columns)
    failAt(attr.loc, what + " has " + std::to_string(flat.size()) + " entries, " + attr.typeText +
                         " needs " + std::to_string(rows * columns));
  std::vector<std::vector<int64_t>> result(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r)
    result[r].assign(flat.begin() + r * columns, flat.begin() + (r + 1) * columns);
  return result;
}

std::string stringOf(const Attribute &attr, const std::string &what) {
  if (attr.kind != Kind::String && attr.kind != Kind::Symbol)
    failAt(attr.loc, "expected a string for " + what);
  return attr.text;
}

/// GT, or #stablehlo<comparison_direction GT>, or #sdy<propagation_direction BOTH>.
std::string enumWord(const Attribute &attr, const std::string &prefix) {
  if (attr.kind == Kind::Word)
    return attr.text;
  if (attr.kind == Kind::Dialect && attr.body.starts_with(prefix)) {
    std::string word = attr.body.substr(prefix.size());
    word.erase(0, word.find_first_not_of(' '));
    return word;
  }
  failAt(attr.loc, "expected " + prefix + " (a keyword such as GT)");
}

/// The enumerator `parse` makes of the required attribute `key` (see
/// enumWord); `expected` says which words there are.
template <typename Parse>
auto enumAttribute(AttrTaker &attrs, const std::string &key, const std::string &prefix, Parse parse,
                   const std::string &expected) {
  const Attribute &attr = attrs.require(key);
  auto parsed = parse(enumWord(attr, prefix));
  if (!parsed)
    failAt(attr.loc, "unknown " + expected);
  return *parsed;
}

struct Names {
  std::unordered_map<std::string, ValueId> ssa; // MLIR name -> value
  /// The enclosing region's names, seen by a control-flow region (null: none).
  const Names *outer = nullptr;
};

/// The parts of #stablehlo.dot<lhs_batching_dimensions = [0], ...>.
void readDotDimensions(const Attribute &attr, DotGeneralAttrs &dot) {
  if (attr.kind != Kind::Dialect || attr.text != "stablehlo.dot")
    failAt(attr.loc, "expected #stablehlo.dot<...>");
  for (const std::string &item : splitTopLevel(attr.body)) {
    size_t eq = item.find('=');
    if (eq == std::string::npos)
      failAt(attr.loc, "unexpected '" + item + "' in #stablehlo.dot");
    std::string key = item.substr(0, eq);
    key.erase(key.find_last_not_of(' ') + 1);
    Attribute list;
    list.kind = Kind::Dense;
    list.loc = attr.loc;
    list.body = item.substr(eq + 1);
    std::vector<int64_t> values = integersOf(list, key);
    if (key == "lhs_batching_dimensions")
      dot.lhsBatchingDimensions = values;
    else if (key == "rhs_batching_dimensions")
      dot.rhsBatchingDimensions = values;
    else if (key == "lhs_contracting_dimensions")
      dot.lhsContractingDimensions = values;
    else if (key == "rhs_contracting_dimensions")
      dot.rhsContractingDimensions = values;
    else
      failAt(attr.loc, "unknown field '" + key + "' in #stablehlo.dot");
  }
}

class Importer {
public:
  Importer(const Module &module, Graph &graph, SourcePlaces &places)
      : module_(module), graph_(graph), places_(places), locations_(module.locAliases) {}
  void run(const std::string &entryName);

private:
  struct RegionState {
    Region &region;
    std::string pointer; // "" or ".../body"
    std::set<std::string> usedNames = {};
    /// The next suffix to try per name (name_1, name_2, ...): a name used
    /// many times (a function inlined at every call) costs no probing.
    std::unordered_map<std::string, int64_t> nextSuffix = {};
    /// The enclosing region's state, for a control-flow region: its value
    /// names are new to the enclosing ones' too.
    RegionState *outer = nullptr;
    /// A scalar body (a reduce's, scatter's, sort's, ...): its
    /// sharding_constraints, of scalars, are dropped (dropScalarConstraint).
    bool scalarBody = false;
  };

  // run's steps, in order.
  void importModuleAttributes();
  void importMeshes();
  const Function &entryFunction(const std::string &entryName);
  void importInputs(const Function &entry, RegionState &state, Names &names);
  void importOutputs(const Function &entry, const Operation &ret, const Names &names);

  std::string sourceLocOf(const std::string &locText) const { return locations_.of(locText); }
  TensorType tensorType(const TypeRef &type) const;
  TensorSharding sharding(const Attribute &attr, const std::string &what);
  std::vector<TensorSharding> shardingList(const Attribute &attr, const std::string &what);
  std::optional<TensorSharding> gspmd(const Attribute &attr, int64_t rank);
  /// `pointer`: the object the keys go into (their JSON depth is bounded).
  Metadata metadata(const Attribute *attr, const std::string &pointer) const;
  void collectGspmd(const std::vector<NamedAttribute> &attrs);
  void collectGspmd(const Block &block);

  ValueId define(RegionState &state, Names &names, const std::string &ssaName,
                 const std::string &irName, SourceLoc loc, const std::optional<TensorType> &type,
                 bool argument = false);
  ValueId use(const Names &names, const ValueUse &use) const;
  /// With `complexPart`, the value is a part of `type` (complex's short form).
  void checkUseType(ValueId value, const TypeRef &type, bool complexPart = false) const;

  /// Emits the block's ops into `state` and returns its terminator.
  const Operation &emitBlock(const Block &block, RegionState &state, Names &names,
                             const std::string &namePrefix, std::vector<std::string> &callStack);
  void emitOp(const Operation &op, RegionState &state, Names &names, const std::string &namePrefix,
              std::vector<std::string> &callStack);
  void emitOpUnannotated(const Operation &op, RegionState &state, Names &names,
                         const std::string &namePrefix, std::vector<std::string> &callStack);
  // emitOpUnannotated's steps, in order.
  OpKind opKindOf(const Operation &op, bool &gspmdConstraint);
  void importOperands(const Operation &op, Op &ir, const Names &names);
  std::vector<TensorType> importResultTypes(const Operation &op, Op &ir);
  void importResultShardings(AttrTaker &attrs, Op &ir, const std::vector<TensorType> &resultTypes);
  void inlineCall(const Operation &op, RegionState &state, Names &names,
                  const std::string &namePrefix, std::vector<std::string> &callStack);
  /// `steps` in place of `op` (a decomposition whose last step defines
  /// `op`'s result): the others' results are named `<result>_<k>`.
  void emitSteps(const Operation &op, std::vector<Operation> steps, RegionState &state,
                 Names &names, const std::string &namePrefix, std::vector<std::string> &callStack);
  /// sdy.reshard as a propagation barrier and a sharding constraint.
  void emitReshard(const Operation &op, RegionState &state, Names &names,
                   const std::string &namePrefix, std::vector<std::string> &callStack);
  /// A chlo op as the StableHLO ops of its decomposition (ChloDecomposition.h).
  void emitChlo(const Operation &op, RegionState &state, Names &names,
                const std::string &namePrefix, std::vector<std::string> &callStack);
  /// The results of an inlined call or named computation: the values its
  /// body returns (`ret`, in `inner`'s names), each through a
  /// sharding_constraint where `resultShardings` has a sharding.
  void bindInlinedResults(const Operation &op, const Operation &ret, const Names &inner,
                          Names &names, RegionState &state, const std::string &namePrefix,
                          const std::vector<std::optional<TensorSharding>> &resultShardings = {});
  /// sdy.named_computation: its body's ops join the region (as a call's),
  /// their names prefixed with the computation's.
  void inlineNamedComputation(const Operation &op, RegionState &state, Names &names,
                              const std::string &namePrefix, std::vector<std::string> &callStack);
  /// A callee's argument or result sharding (`sdy.sharding`/`mhlo.sharding`
  /// in `attrs`), if it has one.
  std::optional<TensorSharding> boundarySharding(const std::vector<NamedAttribute> &attrs,
                                                 const TypeRef &type);
  /// A sharding_constraint of `value` to `sharding` named `irName`: a
  /// callee's argument or result sharding at its call (Shardy's
  /// named_computation in/out shardings: the value inside the call may be
  /// sharded otherwise than the caller's).
  ValueId emitBoundaryConstraint(RegionState &state, ValueId value, const TensorSharding &sharding,
                                 const std::string &irName, SourceLoc loc, const TypeRef &type);
  /// sdy.func_data_flow_edge: an identity (its result is its operand); its
  /// sharding is the operand's (applyEdgeShardings).
  void importFuncDataFlowEdge(const Operation &op, Names &names);
  /// sdy.data_flow_edge: Shardy's identity on a data-flow op's result (while,
  /// case, ...). Its result names the value itself; its sharding is the
  /// result's (applyEdgeShardings).
  void readDataFlowEdge(const Operation &op, Names &names);
  /// A sharding_constraint in a scalar body (Shardy's tests write them): a
  /// scalar's sharding can only replicate it, so its result is its operand.
  void dropScalarConstraint(const Operation &op, Names &names);
  /// JAX's annotate_device_placement custom_call, as the identity.
  void readMemoryPlacement(const Operation &op, Names &names);
  /// An op read as the identity (an edge, a dropped constraint): its one
  /// result names its one operand's value, which it returns.
  ValueId readIdentity(const Operation &op, Names &names);
  /// An edge's sharding for `value` (`edge`: the op's name, for errors).
  void recordEdgeSharding(ValueId value, const TensorSharding &sharding, SourceLoc loc,
                          bool dataFlow, const char *edge);
  /// The edges' shardings onto the slots defining their values (after
  /// linkDefinitions).
  void applyEdgeShardings();
  /// The op's attributes by its row's syntax (Ops.def's Mlir column).
  void readAttributes(const Operation &op, AttrTaker &attrs, Op &ir,
                      std::vector<std::string> &callStack);
  // The readers of the syntaxes the rows name: read<Syntax>.
  struct OpAttributes;
  using SyntaxReader = void (Importer::*)(OpAttributes &);
  void readSameTypes(OpAttributes &a) { readKeywordFields(a); }
  void readFunctionType(OpAttributes &a) { readKeywordFields(a); }
  /// The fields of the op's attribute schema, each by its pretty keyword
  /// or its generic property name (integers and integer lists).
  void readKeywordFields(OpAttributes &a);
  void readConstant(OpAttributes &a);
  void readCompare(OpAttributes &a);
  void readDotGeneral(OpAttributes &a);
  void readReduce(OpAttributes &a);
  void readSort(OpAttributes &a);
  void readTopK(OpAttributes &a);
  void readSlice(OpAttributes &a);
  /// The op's region `block` into `body` (isolated from above): its
  /// arguments (named by `argNames` when given), its ops, and the values
  /// its `terminator` returns. `key`: the region's JSON key.
  void readRegionBlock(const Op &ir, const Block &block, const Attribute *argNames,
                       const std::string &terminator, std::vector<std::string> &callStack,
                       Region &body, const std::string &key = "body");
  /// gather's and scatter's `#stablehlo.<name><...>` into the schema's
  /// Object field `field` of `attrs` (places noted per key).
  void readDimensionNumbers(OpAttributes &a, const AttrField &field, void *attrs);
  /// A bool property (`indices_are_sorted = false`); absent: false.
  bool readFlag(OpAttributes &a, const AttrField &field);
  void readGather(OpAttributes &a);
  void readScatter(OpAttributes &a);
  // The window ops (generic form; convolution's pretty one too).
  void readReduceWindow(OpAttributes &a);
  void readSelectAndScatter(OpAttributes &a);
  void readConvolution(OpAttributes &a);
  /// The scalar regions of a window op, in order, by their JSON keys; each
  /// region's argument names from `shardgen.<key>_arg_names` when given.
  void readScalarRegions(OpAttributes &a, const std::vector<std::string> &keys);
  /// A control-flow op's region `block` into `region` at `key` (cond, body,
  /// branches/0, ...): it sees the enclosing region's values.
  void readControlRegion(const Op &ir, const Block &block, const std::string &key,
                         std::vector<std::string> &callStack, Region &region,
                         const Attribute *argNames = nullptr);
  void readWhile(OpAttributes &a);
  void readBlockInto(const Op &ir, const Block &block, const Attribute *argNames,
                     const std::string &terminator, std::vector<std::string> &callStack,
                     Region &body, const std::string &key, const Names *outerNames,
                     RegionState *outerState);
  void readCase(OpAttributes &a);
  void readIf(OpAttributes &a);
  /// `applies OP` with a commutative op that is no simple reducer (xor):
  /// the body OP(a, b).
  void compactBody(Op &ir, const Attribute &applies, OpKind kind, Region &body);
  void readCustomCall(OpAttributes &a);
  void readShardingConstraint(OpAttributes &a);
  void readPropagationBarrier(OpAttributes &a);
  void readShardingGroup(OpAttributes &a);
  /// Operands and types are all it has.
  void readOptimizationBarrier(OpAttributes &) {}
  void readManualComputation(OpAttributes &a);
  void readAllReduce(OpAttributes &a);
  void readAllGather(OpAttributes &a);
  void readReduceScatter(OpAttributes &a);
  void readAllToAll(OpAttributes &a);
  void readCollectivePermute(OpAttributes &a);
  void readAxisIndex(OpAttributes &a);
  /// `format = e5m10` (JAX's form) or the generic exponent_bits and mantissa_bits.
  void readReducePrecision(OpAttributes &a);
  /// An enum attribute by its pretty `keyword` (`algorithm = DEFAULT`) or
  /// its generic `property` (#stablehlo<property WORD>, also its JSON key),
  /// a word `known` accepts (else an error listing the `expected` words).
  std::string enumKeyword(OpAttributes &a, const char *keyword, const std::string &property,
                          bool (*known)(std::string_view), const std::string &expected);
  /// `algorithm = DEFAULT` (JAX's form) or #stablehlo<rng_algorithm THREE_FRY>.
  void readRngBitGenerator(OpAttributes &a);
  /// `type = FFT, length = [4]` (JAX's form) or #stablehlo<fft_type FFT> and
  /// fft_length = array<i64: 4>.
  void readFft(OpAttributes &a);
  /// An op without an MLIR form: kindOf never names it.
  void readNoSyntax(OpAttributes &a);
  /// shardgen.arg_names, arg_shardings, arg_metadata, body_metadata (each may be absent).
  struct ManualBodyHints {
    const Attribute *argNames, *argShardings, *argMetadata, *bodyMetadata;
  };
  void readManualBody(Op &ir, const Block &block, const ManualBodyHints &hints,
                      std::vector<std::string> &callStack, Region &body);
  Reducer reducerOf(const Operation &op, const Block &region) const;
  /// The simple reducer a one-input reduction region applies, if it is one.
  static std::optional<Reducer> simpleReducerOf(const Block &region);
  std::vector<std::string> collectiveAxes(const Operation &op, AttrTaker &attrs, Op &ir);
  const Mesh &enclosingMesh(const Operation &op) const;
  /// The enclosing manual computation's mesh, for an op whose value is the
  /// device's own (partition_id): the manual computations around it must be
  /// manual over every axis of size > 1, else devices holding the same
  /// values would see different ids.
  const Mesh &fullyManualMesh(const Operation &op);

  const Module &module_;
  Graph &graph_;
  SourcePlaces &places_;
  SourceLocations locations_;
  std::map<std::string, const Function *> functions_;
  std::vector<std::optional<TensorType>> valueTypes_; // as the text declares them
  std::vector<const ManualComputationAttrs *> manualStack_;
  /// The device-id table elements partition_ids have made so far.
  int64_t deviceIdTableElements_ = 0;
  /// The names and region of the op whose attributes are read (a
  /// control-flow op's regions see them).
  Names *enclosingNames_ = nullptr;
  RegionState *enclosingState_ = nullptr;
  GspmdMesh gspmd_;
  bool gspmdDerived_ = false;
  struct EdgeSharding {
    TensorSharding sharding;
    SourceLoc loc;
    bool dataFlow = false; // sdy.data_flow_edge: only of a data-flow op's result
    const char *edge = "";
  };
  std::unordered_map<ValueId, EdgeSharding> edgeShardings_;
  /// The inlined calls and named computations being emitted, each entry the
  /// whole path ("@foo > @bar"): the ops' kInlinedFromKey.
  std::vector<std::string> scopes_;
  void enterScope(const std::string &scope) {
    scopes_.push_back(scopes_.empty() ? scope : scopes_.back() + " > " + scope);
  }
  /// An op emitted in an inlined scope says which.
  void noteScope(Op &ir) const {
    if (scopes_.empty() || metadataString(ir.metadata, kInlinedFromKey))
      return;
    ir.metadata.emplace_back(kInlinedFromKey, quoteJsonString(scopes_.back()));
  }
};

TensorType Importer::tensorType(const TypeRef &type) const {
  std::string error;
  auto parsed = parseType(type.text, &error);
  if (!parsed)
    failAt(type.loc, "unsupported type " + type.text + " (" + error + ")");
  return *parsed;
}

TensorSharding Importer::sharding(const Attribute &attr, const std::string &what) {
  if (attr.kind != Kind::Dialect || attr.text != "sdy.sharding")
    failAt(attr.loc, "expected #sdy.sharding<...> for " + what);
  std::string error;
  auto parsed = parseShardingBody(attr.body, graph_.meshes, &error);
  if (!parsed)
    failAt(attr.loc, "invalid sharding: " + error);
  return *parsed;
}

std::vector<TensorSharding> Importer::shardingList(const Attribute &attr, const std::string &what) {
  if (attr.kind != Kind::Dialect || attr.text != "sdy.sharding_per_value")
    failAt(attr.loc, "expected #sdy.sharding_per_value<[...]> for " + what);
  std::string error;
  auto parsed = parseShardingList(attr.body, graph_.meshes, &error);
  if (!parsed)
    failAt(attr.loc, "invalid sharding list: " + error);
  return *parsed;
}

std::optional<TensorSharding> Importer::gspmd(const Attribute &attr, int64_t rank) {
  std::string error;
  if (!gspmdDerived_) {
    std::string name = "mesh";
    while (graph_.findMesh(name))
      name = "gspmd_" + name;
    if (!gspmd_.derive(name, &error))
      failAt(attr.loc, "GSPMD shardings: " + error);
    if (!gspmd_.empty()) {
      graph_.meshes.push_back(gspmd_.mesh());
      graph_.meshes.back().pointer = "/meshes/" + std::to_string(graph_.meshes.size() - 1);
      places_.add(graph_.meshes.back().pointer, attr.loc);
    }
    gspmdDerived_ = true;
  }
  auto converted = gspmd_.convert(stringOf(attr, "mhlo.sharding"), rank, graph_.meshes, &error);
  if (!converted)
    failAt(attr.loc, "GSPMD sharding: " + error);
  return converted;
}

void Importer::collectGspmd(const std::vector<NamedAttribute> &attrs) {
  for (const auto &attr : attrs)
    if (attr.name == "mhlo.sharding") {
      std::string error;
      if (attr.value.kind != Kind::String)
        failAt(attr.value.loc, "expected a string for mhlo.sharding");
      if (!gspmd_.add(attr.value.text, &error))
        failAt(attr.value.loc, "GSPMD sharding: " + error);
    }
}

void Importer::collectGspmd(const Block &block) {
  for (const auto &op : block.ops) {
    collectGspmd(op.attrs);
    for (const auto &region : op.regions)
      collectGspmd(region);
  }
}

Metadata Importer::metadata(const Attribute *attr, const std::string &pointer) const {
  Metadata metadata;
  if (!attr)
    return metadata;
  if (attr->kind != Kind::String)
    failAt(attr->loc, "shardgen.metadata must be a string holding a JSON object");
  // Its keys join the object at `pointer`, which a graph file nests one
  // level per pointer token deep: the whole must stay within the limit the
  // JSON reader (and nlohmann's recursive printer) can take.
  int room = kMaxNestingDepth - static_cast<int>(std::count(pointer.begin(), pointer.end(), '/'));
  if (std::optional<std::string> at = jsonTooDeepAt(attr->text, room))
    failAt(attr->loc, "shardgen.metadata nests deeper than a graph file may (" +
                          std::to_string(kMaxNestingDepth) + " levels in all; at " + *at +
                          " of its JSON)");
  nlohmann::ordered_json json = nlohmann::ordered_json::parse(attr->text, nullptr, false);
  if (json.is_discarded() || !json.is_object())
    failAt(attr->loc, "shardgen.metadata must be a string holding a JSON object");
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (!it.key().starts_with("_"))
      failAt(attr->loc, "shardgen.metadata key \"" + it.key() + "\" does not start with '_'");
    metadata.emplace_back(it.key(), it.value().dump());
  }
  return metadata;
}

void Importer::run(const std::string &entryName) {
  for (const auto &fn : module_.functions) {
    if (!functions_.emplace(fn.name, &fn).second)
      failAt(fn.loc, "redefinition of function @" + fn.name);
  }
  importModuleAttributes();
  importMeshes();
  const Function &entry = entryFunction(entryName);
  places_.add("", entry.loc);
  graph_.entry = {entry.name, entry.visibility == "public"};
  InlineBudget(functions_).check(entry.body); // before any call is inlined

  for (const auto &fn : module_.functions) {
    for (const auto &arg : fn.args)
      collectGspmd(arg.attrs);
    for (const auto &result : fn.results)
      collectGspmd(result.attrs);
    collectGspmd(fn.body);
  }

  RegionState state{graph_.main, ""};
  Names names;
  importInputs(entry, state, names);
  std::vector<std::string> callStack{entry.name};
  const Operation &ret = emitBlock(entry.body, state, names, "", callStack);
  if (ret.name != "func.return" && ret.name != "return")
    failAt(ret.loc, "the function must end in 'return', not '" + ret.name + "'");
  if (ret.operands.size() != entry.results.size())
    failAt(ret.loc, "'return' has " + std::to_string(ret.operands.size()) +
                        " operands, the function " + std::to_string(entry.results.size()) +
                        " results");
  importOutputs(entry, ret, names);
  graph_.linkDefinitions();
  applyEdgeShardings();
  takeOriginsFromMetadata(graph_); // what propagation wrote: typed again
}

void Importer::importModuleAttributes() {
  graph_.name = module_.name;
  for (const auto &attr : module_.attrs) {
    if (attr.name == "shardgen.metadata")
      graph_.metadata = metadata(&attr.value, "");
    else if (!ignorable(attr.name) && attr.name != "sym_visibility")
      failAt(attr.value.loc, "module attribute '" + attr.name + "' is not supported");
  }
}

void Importer::importMeshes() {
  for (size_t i = 0; i < module_.meshes.size(); ++i) {
    const MeshDefinition &definition = module_.meshes[i];
    std::string error;
    auto mesh = parseMeshBody(definition.body, &error);
    if (!mesh)
      failAt(definition.bodyLoc, "invalid mesh: " + error);
    mesh->name = definition.name;
    mesh->pointer = "/meshes/" + std::to_string(i);
    for (const auto &attr : definition.attrs) {
      if (attr.name == "shardgen.metadata")
        mesh->metadata = metadata(&attr.value, mesh->pointer);
      else
        failAt(attr.value.loc, "attribute '" + attr.name + "' of sdy.mesh is not supported");
    }
    places_.add(mesh->pointer, definition.loc);
    places_.add(mesh->pointer + "/name", definition.loc);
    places_.add(mesh->pointer + "/axes", definition.bodyLoc);
    places_.add(mesh->pointer + "/device_ids", definition.bodyLoc);
    graph_.meshes.push_back(std::move(*mesh));
  }
}

const Function &Importer::entryFunction(const std::string &entryName) {
  std::string wanted = entryName.empty() ? "main" : entryName;
  auto found = functions_.find(wanted);
  // Without @main, a module's only public function is its entry (a test
  // file's function, a module written by hand).
  if (found == functions_.end() && entryName.empty()) {
    const Function *only = nullptr;
    int publicCount = 0;
    for (const auto &fn : module_.functions)
      if (fn.visibility != "private" && ++publicCount == 1)
        only = &fn;
    if (publicCount == 1)
      found = functions_.find(only->name);
  }
  if (found == functions_.end()) {
    std::string names;
    for (const auto &fn : module_.functions)
      names += (names.empty() ? "" : ", ") + ("@" + fn.name);
    fail(module_.loc.str(), "no function @" + wanted + " in the module" +
                                (names.empty() ? "" : " (it has " + names + ")"));
  }
  const Function &entry = *found->second;
  if (entry.visibility == "private")
    failAt(entry.loc, "@" + entry.name + " is private: the entry function must be public");
  return entry;
}

void Importer::importInputs(const Function &entry, RegionState &state, Names &names) {
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const BlockArgument &arg = entry.args[i];
    std::string pointer = "/inputs/" + std::to_string(i);
    RegionArgument argument;
    argument.pointer = pointer;
    TensorType type = tensorType(arg.type);
    std::string irName = arg.name;
    for (const auto &attr : arg.attrs) {
      if (attr.name == "sdy.sharding") {
        argument.sharding = sharding(attr.value, "an argument");
        places_.add(pointer + "/sharding", attr.value.loc);
      } else if (attr.name == "mhlo.sharding") {
        argument.sharding = gspmd(attr.value, type.rank());
        places_.add(pointer + "/sharding", attr.value.loc);
      } else if (attr.name == "shardgen.metadata") {
        argument.metadata = metadata(&attr.value, pointer);
      } else if (attr.name == "shardgen.name") {
        irName = stringOf(attr.value, "shardgen.name");
      } else if (!ignorable(attr.name)) {
        failAt(attr.value.loc, "argument attribute '" + attr.name + "' is not supported");
      }
    }
    places_.add(pointer, arg.loc, sourceLocOf(arg.locText));
    places_.add(pointer + "/type", arg.type.loc);
    argument.value = define(state, names, arg.name, irName, arg.loc, type, true);
    graph_.main.args.push_back(std::move(argument));
  }
}

void Importer::importOutputs(const Function &entry, const Operation &ret, const Names &names) {
  for (size_t i = 0; i < ret.operands.size(); ++i) {
    std::string pointer = "/outputs/" + std::to_string(i);
    RegionResult result;
    result.pointer = pointer;
    result.value = use(names, ret.operands[i]);
    checkUseType(result.value, entry.results[i].type);
    if (i < ret.operandTypes.size())
      checkUseType(result.value, ret.operandTypes[i]);
    places_.add(pointer, ret.operands[i].loc);
    places_.add(pointer + "/value", ret.operands[i].loc);
    for (const auto &attr : entry.results[i].attrs) {
      if (attr.name == "sdy.sharding") {
        result.sharding = sharding(attr.value, "a result");
        places_.add(pointer + "/sharding", attr.value.loc);
      } else if (attr.name == "mhlo.sharding") {
        result.sharding = gspmd(attr.value, tensorType(entry.results[i].type).rank());
        places_.add(pointer + "/sharding", attr.value.loc);
      } else if (attr.name == "shardgen.metadata") {
        result.metadata = metadata(&attr.value, pointer);
      } else if (!ignorable(attr.name)) {
        failAt(attr.value.loc, "result attribute '" + attr.name + "' is not supported");
      }
    }
    graph_.main.results.push_back(std::move(result));
  }
}

ValueId Importer::define(RegionState &state, Names &names, const std::string &ssaName,
                         const std::string &irName, SourceLoc loc,
                         const std::optional<TensorType> &type, bool argument) {
  if (names.ssa.count(ssaName))
    failAt(loc, "redefinition of %" + ssaName);
  if (irName.empty())
    failAt(loc, "a value name must not be empty");
  // New to this region and to those whose values it sees (a control-flow
  // region's enclosing ones): the JSON reader's rule.
  auto taken = [&](const std::string &candidate) {
    for (const RegionState *scope = &state; scope; scope = scope->outer)
      if (scope->usedNames.count(candidate))
        return true;
    return false;
  };
  std::string name = irName;
  if (taken(name)) {
    int64_t &n = state.nextSuffix.try_emplace(irName, 1).first->second;
    do
      name = irName + "_" + std::to_string(n++);
    while (taken(name));
  }
  state.usedNames.insert(name);
  ValueId id = graph_.addValue(name);
  if (argument)
    graph_.values[id].type = type; // arguments carry their type, as in the JSON reader
  valueTypes_.resize(graph_.values.size());
  valueTypes_[id] = type;
  names.ssa[ssaName] = id;
  return id;
}

ValueId Importer::use(const Names &names, const ValueUse &use) const {
  for (const Names *in = &names; in; in = in->outer) {
    auto it = in->ssa.find(use.name);
    if (it != in->ssa.end())
      return it->second;
  }
  failAt(use.loc, "use of undefined value %" + use.name);
}

void Importer::checkUseType(ValueId value, const TypeRef &type, bool complexPart) const {
  if (!valueTypes_[value])
    return;
  TensorType stated = tensorType(type);
  if (complexPart)
    stated.elementType = complexPartType(stated.elementType);
  if (stated != *valueTypes_[value])
    failAt(type.loc, "%" + graph_.values[value].name + " has type " +
                         printType(*valueTypes_[value]) + ", but is used as " + printType(stated));
}

const Operation &Importer::emitBlock(const Block &block, RegionState &state, Names &names,
                                     const std::string &namePrefix,
                                     std::vector<std::string> &callStack) {
  if (block.ops.empty())
    failAt(block.loc, "a region must end in a terminator (return)");
  for (size_t i = 0; i + 1 < block.ops.size(); ++i) {
    const std::string &name = block.ops[i].name;
    if (name == "func.return" || name == "return" || name == "sdy.return" ||
        name == "stablehlo.return")
      failAt(block.ops[i + 1].loc, "operation after the terminator '" + name + "'");
    emitOp(block.ops[i], state, names, namePrefix, callStack);
  }
  return block.ops.back();
}

/// A custom_call's backend_config that says nothing: "" or {}.
bool isEmptyConfig(const Attribute &config) {
  return (config.kind == Kind::String && config.text.empty()) ||
         (config.kind == Kind::Dict && config.fields.empty());
}

bool isMemoryPlacement(const Operation &op) {
  const Attribute *target = op.find("call_target_name");
  return op.name == "stablehlo.custom_call" && target &&
         (target->kind == Kind::String || target->kind == Kind::Symbol) &&
         target->text == "annotate_device_placement";
}

std::optional<OpKind> kindOf(const std::string &name) {
  static const std::map<std::string, OpKind> special = {
      {"stablehlo.dot", OpKind::DotGeneral},
      {"sdy.constant", OpKind::Constant}, // Shardy's tests: a constant never deduplicated
      {"sdy.sharding_constraint", OpKind::ShardingConstraint},
      {"sdy.sharding_group", OpKind::ShardingGroup},
      {"sdy.propagation_barrier", OpKind::PropagationBarrier},
      {"sdy.manual_computation", OpKind::ManualComputation},
      {"shardgen.axis_index", OpKind::AxisIndex},
      {"chlo.top_k", OpKind::TopK},
      // StableHLO's deprecated alias of an after_all without inputs
      {"stablehlo.create_token", OpKind::AfterAll},
  };
  if (auto it = special.find(name); it != special.end())
    return it->second;
  if (!name.starts_with("stablehlo."))
    return std::nullopt;
  auto kind = parseOpKind(name);
  if (!kind || (opCategory(*kind) == OpCategory::Sharding) || *kind == OpKind::AxisIndex ||
      *kind == OpKind::TopK)
    return std::nullopt;
  return kind;
}

void Importer::emitOp(const Operation &op, RegionState &state, Names &names,
                      const std::string &namePrefix, std::vector<std::string> &callStack) {
  try {
    emitOpUnannotated(op, state, names, namePrefix, callStack);
  } catch (const GraphError &error) {
    // The op's own location (#loc), as the verifier's errors get it; an
    // error inside a body has its innermost op's already.
    std::string where = sourceLocOf(op.locText);
    std::string message = error.what();
    if (where.empty() || message.find(" (at ") != std::string::npos)
      throw;
    fail(error.pointer(), message + " (at " + where + ")");
  }
}

void Importer::emitOpUnannotated(const Operation &op, RegionState &state, Names &names,
                                 const std::string &namePrefix,
                                 std::vector<std::string> &callStack) {
  if (isCall(op))
    return inlineCall(op, state, names, namePrefix, callStack);
  if (isDecomposedChlo(op.name))
    return emitChlo(op, state, names, namePrefix, callStack);
  if (hasDotAlgorithm(op))
    return emitSteps(op, decomposeDotAlgorithm(op), state, names, namePrefix, callStack);
  if (op.name == "stablehlo.partition_id")
    return emitSteps(op, decomposePartitionId(op, fullyManualMesh(op)), state, names, namePrefix,
                     callStack);
  if (op.name == "stablehlo.replica_id")
    return emitSteps(op, decomposeReplicaId(op), state, names, namePrefix, callStack);
  if (op.name == "sdy.named_computation")
    return inlineNamedComputation(op, state, names, namePrefix, callStack);
  if ((op.name == "sdy.sharding_constraint" || op.name == "sdy.reshard") && state.scalarBody)
    return dropScalarConstraint(op, names);
  if (op.name == "sdy.reshard")
    return emitReshard(op, state, names, namePrefix, callStack);
  if (isMemoryPlacement(op))
    return readMemoryPlacement(op, names);
  if (op.name == "sdy.func_data_flow_edge")
    return importFuncDataFlowEdge(op, names);
  if (op.name == "sdy.data_flow_edge")
    return readDataFlowEdge(op, names);
  if (op.name == "stablehlo.create_token" && !op.operands.empty())
    failAt(op.loc, "'stablehlo.create_token' takes no operands (after_all joins tokens)");
  bool gspmdConstraint = false;
  OpKind kind = opKindOf(op, gspmdConstraint);

  Op ir;
  ir.kind = kind;
  ir.pointer = state.pointer + "/ops/" + std::to_string(state.region.ops.size());
  places_.add(ir.pointer, op.loc, sourceLocOf(op.locText));
  places_.add(ir.pointer + "/op", op.loc, sourceLocOf(op.locText));
  AttrTaker attrs(op);
  importOperands(op, ir, names);
  std::vector<TensorType> resultTypes = importResultTypes(op, ir);
  importResultShardings(attrs, ir, resultTypes);
  ir.metadata = metadata(attrs.take("shardgen.metadata"), ir.pointer);
  noteScope(ir);
  const Attribute *resultNames = attrs.take("shardgen.result_names");
  if (resultNames &&
      (resultNames->kind != Kind::Array || resultNames->elements.size() != op.results.size()))
    failAt(resultNames->loc, "shardgen.result_names needs one name per result");

  if (gspmdConstraint) {
    attrs.take("call_target_name");
    attrs.take("backend_config");
    attrs.take("has_side_effect");
    if (!ir.shardings[0])
      failAt(op.loc, "custom_call @Sharding needs mhlo.sharding");
  } else {
    // A control-flow op's regions see this region's values.
    Names *enclosingNames = enclosingNames_;
    RegionState *enclosingState = enclosingState_;
    enclosingNames_ = &names;
    enclosingState_ = &state;
    readAttributes(op, attrs, ir, callStack);
    enclosingNames_ = enclosingNames;
    enclosingState_ = enclosingState;
  }
  if (ir.kind == OpKind::ShardingConstraint && !ir.shardings[0])
    failAt(op.loc, "'" + op.name + "' needs a sharding");
  attrs.checkAllTaken();

  state.region.ops.push_back(std::move(ir));
  Op &added = state.region.ops.back();
  for (size_t i = 0; i < op.results.size(); ++i) {
    std::string irName = namePrefix + op.results[i];
    if (resultNames)
      irName = stringOf(resultNames->elements[i], "shardgen.result_names");
    added.results.push_back(define(state, names, op.results[i], irName, op.loc, resultTypes[i]));
  }
  if (!op.results.empty())
    places_.add(added.pointer + (added.pluralResults ? "/results" : "/result"), op.loc);
}

void Importer::emitChlo(const Operation &op, RegionState &state, Names &names,
                        const std::string &namePrefix, std::vector<std::string> &callStack) {
  emitSteps(op, decomposeChlo(op), state, names, namePrefix, callStack);
}

/// Shardy's explicit reshard (`sdy.reshard %x <sharding>`, what its
/// propagation leaves where a value changes sharding): the identity, its
/// result of that sharding, and no sharding rule, so propagation passes it in
/// neither direction. So: a propagation barrier that lets nothing through,
/// then a sharding constraint of that sharding.
void Importer::emitReshard(const Operation &op, RegionState &state, Names &names,
                           const std::string &namePrefix, std::vector<std::string> &callStack) {
  if (op.operands.size() != 1 || op.results.size() != 1)
    failAt(op.loc, "'sdy.reshard' takes one operand and gives one result");
  Operation barrier = op;
  barrier.name = "sdy.propagation_barrier";
  barrier.attrs = {{"allowed_direction", makeAttribute(Kind::Word, op.loc, "NONE")}};
  barrier.results = {op.results[0] + "#0"};
  Operation constraint = op;
  constraint.name = "sdy.sharding_constraint";
  constraint.operands = {ValueUse{barrier.results[0], op.loc}};
  emitSteps(op, {std::move(barrier), std::move(constraint)}, state, names, namePrefix, callStack);
}

void Importer::emitSteps(const Operation &op, std::vector<Operation> steps, RegionState &state,
                         Names &names, const std::string &namePrefix,
                         std::vector<std::string> &callStack) {
  for (Operation &step : steps) {
    const std::string &ssa = step.results.at(0);
    if (ssa != op.results.at(0)) {
      // `<result>#<k>` names no value of the text; the graph's name is
      // `<result>_<k>` (made unique by define).
      std::string irName = namePrefix + ssa;
      irName[irName.rfind('#')] = '_';
      Attribute list = makeAttribute(Kind::Array, op.loc);
      list.elements.push_back(makeAttribute(Kind::String, op.loc, irName));
      step.attrs.push_back({"shardgen.result_names", list});
    }
    emitOp(step, state, names, namePrefix, callStack);
  }
}

OpKind Importer::opKindOf(const Operation &op, bool &gspmdConstraint) {
  std::optional<OpKind> kind = kindOf(op.name);
  gspmdConstraint = false;
  if (op.name == "stablehlo.custom_call") {
    const Attribute *target = op.find("call_target_name");
    std::string name = target ? target->text : "";
    if (name == "Sharding") {
      kind = OpKind::ShardingConstraint;
      gspmdConstraint = true;
    } else if (name == "mhlo.topk") { // the custom call older JAX prints for lax.top_k
      kind = OpKind::TopK;
    } else if (name == "SPMDFullToShardShape" || name == "SPMDShardToFullShape") {
      failAt(op.loc, "GSPMD manual partitioning (custom_call @" + name +
                         ") is not supported: lower with Shardy (sdy.manual_computation)");
    }
  }
  static const std::set<std::string, std::less<>> kTokenIo = {
      "stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv"};
  if (!kind && kTokenIo.count(op.name))
    failAt(op.loc, "operation '" + op.name +
                       "' is not supported: it does I/O (tokens are, where they carry no I/O)");
  if (!kind)
    failAt(op.loc,
           "operation '" + op.name + "' is not supported (the graph format has no such op)");
  return *kind;
}

void Importer::importOperands(const Operation &op, Op &ir, const Names &names) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    ir.operands.push_back(use(names, op.operands[i]));
    places_.add(ir.pointer + "/operands/" + std::to_string(i), op.operands[i].loc);
  }
  // Operand types as the text states them: the short form `: t` (or `: tp, t`
  // for select) gives one for all; the functional form one per operand.
  bool shortTypes = op.find("_short_types") != nullptr;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (shortTypes) {
      if (op.operandTypes.size() == 2 && ir.kind == OpKind::Select)
        checkUseType(ir.operands[i], op.operandTypes[i == 0 ? 0 : 1]);
      else if (ir.kind == OpKind::Complex) // `: tensor<complex<E>>` of E parts
        checkUseType(ir.operands[i], op.operandTypes[0], /*complexPart=*/true);
      else if (op.operandTypes.size() == 1)
        checkUseType(ir.operands[i], op.operandTypes[0]);
      else
        failAt(op.loc, "'" + op.name + "' needs the type form (operand types) -> result types");
    } else if (!op.operandTypes.empty()) {
      if (op.operandTypes.size() != op.operands.size())
        failAt(op.loc, "'" + op.name + "' has " + std::to_string(op.operands.size()) +
                           " operands but " + std::to_string(op.operandTypes.size()) +
                           " operand types");
      checkUseType(ir.operands[i], op.operandTypes[i]);
    }
  }
}

std::vector<TensorType> Importer::importResultTypes(const Operation &op, Op &ir) {
  std::vector<TensorType> resultTypes;
  if (op.results.size() != (ir.kind == OpKind::ShardingGroup ? 0 : op.resultTypes.size()) &&
      !(ir.kind == OpKind::ShardingGroup && op.results.empty()))
    failAt(op.loc, "'" + op.name + "' defines " + std::to_string(op.results.size()) +
                       " values but has " + std::to_string(op.resultTypes.size()) +
                       " result types");
  if (ir.kind != OpKind::ShardingGroup)
    for (const auto &type : op.resultTypes)
      resultTypes.push_back(tensorType(type));
  if (ir.kind == OpKind::ShardingGroup && !op.results.empty())
    failAt(op.loc, "'sdy.sharding_group' has no result");
  if (ir.kind != OpKind::ShardingGroup && resultTypes.empty())
    failAt(op.loc, "'" + op.name + "' needs a result");

  ir.pluralResults = resultTypes.size() != 1 || ir.kind == OpKind::ManualComputation;
  for (size_t i = 0; i < resultTypes.size(); ++i) {
    ir.declaredTypes.push_back(resultTypes[i]);
    places_.add(ir.pointer + (ir.pluralResults ? "/types/" + std::to_string(i) : "/type"),
                op.resultTypes[i].loc);
  }
  ir.shardings.resize(resultTypes.size());
  ir.distributions.resize(resultTypes.size()); // as the JSON reader: one slot per result
  return resultTypes;
}

void Importer::importResultShardings(AttrTaker &attrs, Op &ir,
                                     const std::vector<TensorType> &resultTypes) {
  if (const Attribute *shardings = attrs.take("sdy.sharding")) {
    auto list = shardingList(*shardings, "the results");
    if (list.size() != resultTypes.size())
      failAt(shardings->loc, "expected " + std::to_string(resultTypes.size()) +
                                 " shardings (one per result), got " + std::to_string(list.size()));
    for (size_t i = 0; i < list.size(); ++i)
      ir.shardings[i] = list[i];
    places_.add(ir.pointer + (ir.pluralResults ? "/shardings" : "/sharding"), shardings->loc);
  }
  if (const Attribute *partial = attrs.take("shardgen.result_shardings")) {
    if (partial->kind != Kind::Array || partial->elements.size() != resultTypes.size())
      failAt(partial->loc, "shardgen.result_shardings needs one entry per result");
    for (size_t i = 0; i < resultTypes.size(); ++i)
      if (partial->elements[i].kind != Kind::Unit)
        ir.shardings[i] = sharding(partial->elements[i], "a result");
    places_.add(ir.pointer + (ir.pluralResults ? "/shardings" : "/sharding"), partial->loc);
  }
  if (const Attribute *gspmdSharding = attrs.take("mhlo.sharding")) {
    if (resultTypes.size() != 1)
      failAt(gspmdSharding->loc, "mhlo.sharding on an op with several results is not supported");
    ir.shardings[0] = gspmd(*gspmdSharding, resultTypes[0].rank());
    places_.add(ir.pointer + "/sharding", gspmdSharding->loc);
  }
}

void Importer::inlineCall(const Operation &op, RegionState &state, Names &names,
                          const std::string &namePrefix, std::vector<std::string> &callStack) {
  AttrTaker attrs(op);
  std::string callee = stringOf(attrs.require(calleeAttribute(op)), "the callee");
  if (op.name == "stablehlo.composite") // what the op is, not how it computes
    for (const char *described : {"name", "composite_attributes", "version"})
      attrs.take(described);
  // The call's result shardings, as Shardy prints them after propagation.
  const Attribute *callShardings = attrs.take("sdy.sharding");
  attrs.checkAllTaken();
  auto found = functions_.find(callee);
  if (found == functions_.end())
    failAt(op.loc, "call of unknown function @" + callee);
  const Function &fn = *found->second;
  if (std::find(callStack.begin(), callStack.end(), callee) != callStack.end())
    failAt(op.loc,
           "recursive call of @" + callee + " (the graph format has no calls to inline it into)");
  if (callStack.size() > kMaxCallDepth)
    failAt(op.loc, "calls nested deeper than " + std::to_string(kMaxCallDepth) + " levels");
  if (op.operands.size() != fn.args.size())
    failAt(op.loc, "call of @" + callee + " with " + std::to_string(op.operands.size()) +
                       " operands; it takes " + std::to_string(fn.args.size()));
  Names inner;
  std::string prefix = namePrefix + callee + ".";
  enterScope("@" + callee); // its argument and result constraints too
  for (size_t i = 0; i < fn.args.size(); ++i) {
    ValueId value = use(names, op.operands[i]);
    checkUseType(value, fn.args[i].type);
    if (i < op.operandTypes.size())
      checkUseType(value, op.operandTypes[i]);
    if (auto sharding = boundarySharding(fn.args[i].attrs, fn.args[i].type))
      value = emitBoundaryConstraint(state, value, *sharding, prefix + fn.args[i].name,
                                     fn.args[i].loc, fn.args[i].type);
    inner.ssa[fn.args[i].name] = value;
  }
  callStack.push_back(callee);
  const Operation &ret = emitBlock(fn.body, state, inner, prefix, callStack);
  callStack.pop_back();
  if (ret.name != "func.return" && ret.name != "return")
    failAt(ret.loc, "the function must end in 'return', not '" + ret.name + "'");
  if (ret.operands.size() != op.results.size())
    failAt(op.loc, "@" + callee + " returns " + std::to_string(ret.operands.size()) +
                       " values, the call defines " + std::to_string(op.results.size()));
  // The callee's result shardings, unless the call states its own (Shardy's
  // sdy-propagate-sharding-from-func-to-call).
  std::vector<std::optional<TensorSharding>> resultShardings(op.results.size());
  for (size_t i = 0; i < resultShardings.size() && i < fn.results.size(); ++i)
    resultShardings[i] = boundarySharding(fn.results[i].attrs, fn.results[i].type);
  if (callShardings) {
    std::vector<TensorSharding> list = shardingList(*callShardings, "the results");
    if (list.size() != op.results.size())
      failAt(callShardings->loc, "expected " + std::to_string(op.results.size()) +
                                     " shardings (one per result), got " +
                                     std::to_string(list.size()));
    for (size_t i = 0; i < list.size(); ++i)
      resultShardings[i] = std::move(list[i]);
  }
  bindInlinedResults(op, ret, inner, names, state, namePrefix, resultShardings);
  scopes_.pop_back();
}

void Importer::bindInlinedResults(
    const Operation &op, const Operation &ret, const Names &inner, Names &names, RegionState &state,
    const std::string &namePrefix,
    const std::vector<std::optional<TensorSharding>> &resultShardings) {
  for (size_t i = 0; i < op.results.size(); ++i) {
    ValueId value = use(inner, ret.operands[i]);
    if (i < op.resultTypes.size())
      checkUseType(value, op.resultTypes[i]);
    if (names.ssa.count(op.results[i]))
      failAt(op.loc, "redefinition of %" + op.results[i]);
    if (i < resultShardings.size() && resultShardings[i]) {
      if (i >= op.resultTypes.size())
        failAt(op.loc, "a call with result shardings needs its result types");
      value = emitBoundaryConstraint(state, value, *resultShardings[i], namePrefix + op.results[i],
                                     op.loc, op.resultTypes[i]);
    }
    names.ssa[op.results[i]] = value; // the op's results are the inlined body's values
  }
}

std::optional<TensorSharding> Importer::boundarySharding(const std::vector<NamedAttribute> &attrs,
                                                         const TypeRef &type) {
  for (const auto &attr : attrs) {
    if (attr.name == "sdy.sharding")
      return sharding(attr.value, "a function's argument or result");
    if (attr.name == "mhlo.sharding")
      return gspmd(attr.value, tensorType(type).rank());
  }
  return std::nullopt;
}

ValueId Importer::emitBoundaryConstraint(RegionState &state, ValueId value,
                                         const TensorSharding &sharding, const std::string &irName,
                                         SourceLoc loc, const TypeRef &type) {
  TensorType tensor = tensorType(type);
  Op ir;
  ir.kind = OpKind::ShardingConstraint;
  ir.pointer = state.pointer + "/ops/" + std::to_string(state.region.ops.size());
  places_.add(ir.pointer, loc);
  ir.operands.push_back(value);
  ir.declaredTypes.push_back(tensor);
  ir.shardings.resize(1);
  ir.distributions.resize(1);
  ir.shardings[0] = sharding;
  noteScope(ir);
  state.region.ops.push_back(std::move(ir));
  Names own; // the constraint's value has no SSA name of the text
  ValueId result = define(state, own, irName, irName, loc, tensor);
  state.region.ops.back().results.push_back(result);
  places_.add(state.region.ops.back().pointer + "/result", loc);
  return result;
}

void Importer::importFuncDataFlowEdge(const Operation &op, Names &names) {
  AttrTaker attrs(op);
  const Attribute *shardings = attrs.take("sdy.sharding");
  attrs.checkAllTaken();
  if (op.resultTypes.size() != 1)
    failAt(op.loc, "'sdy.func_data_flow_edge' takes one value and defines one");
  const ValueId value = readIdentity(op, names);
  if (!shardings)
    return;
  std::vector<TensorSharding> list = shardingList(*shardings, "the result");
  if (list.size() != 1)
    failAt(shardings->loc, "expected 1 sharding, got " + std::to_string(list.size()));
  recordEdgeSharding(value, list[0], shardings->loc, false, "sdy.func_data_flow_edge");
}

void Importer::readDataFlowEdge(const Operation &op, Names &names) {
  AttrTaker attrs(op);
  const Attribute *edgeSharding = attrs.take("sharding");
  attrs.checkAllTaken();
  const ValueId value = readIdentity(op, names); // the edge is the value
  if (edgeSharding)
    recordEdgeSharding(value, sharding(*edgeSharding, "a data-flow edge"), op.loc, true,
                       "sdy.data_flow_edge");
}

void Importer::dropScalarConstraint(const Operation &op, Names &names) {
  AttrTaker attrs(op);
  const TensorSharding constraint = sharding(attrs.require("sharding"), "the constraint");
  attrs.checkAllTaken();
  const ValueId value = readIdentity(op, names);
  if (graph_.type(value).rank() != 0 || !constraint.unreduced.empty())
    failAt(op.loc, "a sharding_constraint in the body of a reduction, scatter or sort must be of "
                   "a scalar, without unreduced axes");
}

/// JAX's `annotate_device_placement` custom_call (`jax.device_put(x,
/// memory_kind)` inside jit, host offloading) says which memory a value
/// lives in: no part of its value, and each device of shardgen's runtimes
/// has one memory. Read as the identity.
void Importer::readMemoryPlacement(const Operation &op, Names &names) {
  AttrTaker attrs(op);
  for (const char *key :
       {"call_target_name", "has_side_effect", "api_version", "mhlo.frontend_attributes"})
    attrs.take(key);
  if (const Attribute *config = attrs.take("backend_config"); config && !isEmptyConfig(*config))
    failAt(config->loc, "annotate_device_placement takes no backend_config");
  attrs.checkAllTaken();
  readIdentity(op, names);
}

ValueId Importer::readIdentity(const Operation &op, Names &names) {
  if (op.operands.size() != 1 || op.results.size() != 1)
    failAt(op.loc, "'" + op.name + "' takes one value and defines one");
  const ValueId value = use(names, op.operands[0]);
  if (!op.operandTypes.empty())
    checkUseType(value, op.operandTypes[0]);
  if (!op.resultTypes.empty())
    checkUseType(value, op.resultTypes[0]);
  if (names.ssa.count(op.results[0]))
    failAt(op.loc, "redefinition of %" + op.results[0]);
  names.ssa[op.results[0]] = value;
  return value;
}

void Importer::recordEdgeSharding(ValueId value, const TensorSharding &sharding, SourceLoc loc,
                                  bool dataFlow, const char *edge) {
  auto [it, added] = edgeShardings_.try_emplace(value, EdgeSharding{sharding, loc, dataFlow, edge});
  if (!added && !(it->second.sharding == sharding))
    failAt(loc, "%" + graph_.values[value].name + " has two " + edge + " shardings that differ");
}

void Importer::applyEdgeShardings() {
  if (edgeShardings_.empty())
    return;
  // `pointer`: the slot's sharding in the graph, placed at the edge's;
  // `resultOf`: the op defining the value (none for an argument).
  auto apply = [&](ValueId value, UniquedOptional<TensorSharding> &slot, const std::string &pointer,
                   const Op *resultOf) {
    auto it = edgeShardings_.find(value);
    if (it == edgeShardings_.end())
      return;
    const EdgeSharding &edge = it->second;
    const std::string &name = graph_.values[value].name;
    if (edge.dataFlow && (!resultOf || opCategory(resultOf->kind) != OpCategory::DataFlow))
      failAt(edge.loc, "'sdy.data_flow_edge' of %" + name +
                           (resultOf ? ", a result of " + std::string(resultOf->name())
                                     : ", which is no op's result") +
                           " (edges are of optimization_barrier, while, case, if)");
    if (slot && !(*slot == edge.sharding))
      failAt(edge.loc, std::string("the ") + edge.edge + "'s sharding differs from the one %" +
                           name + " has");
    slot = edge.sharding;
    places_.add(pointer, edge.loc);
  };
  std::function<void(Region &)> visit = [&](Region &region) {
    for (auto &arg : region.args)
      apply(arg.value, arg.sharding, arg.pointer + "/sharding", nullptr);
    for (auto &op : region.ops) {
      for (size_t i = 0; i < op.results.size(); ++i)
        apply(op.results[i], op.shardings[i],
              op.pointer + (op.pluralResults ? "/shardings/" + std::to_string(i) : "/sharding"),
              &op);
      for (Region &body : op.regions)
        visit(body);
    }
  };
  visit(graph_.main);
}

void Importer::inlineNamedComputation(const Operation &op, RegionState &state, Names &names,
                                      const std::string &namePrefix,
                                      std::vector<std::string> &callStack) {
  AttrTaker attrs(op);
  const std::string name = stringOf(attrs.require("name", "a name"), "the computation's name");
  // Its in/out shardings are its body's arguments' and results' (Shardy's
  // import makes them of a callee's argument and result shardings):
  // sharding_constraints at its place, as a call's.
  const Attribute *inShardings = attrs.take("in_shardings");
  const Attribute *outShardings = attrs.take("out_shardings");
  attrs.checkAllTaken();
  if (op.regions.size() != 1)
    failAt(op.loc, "'" + op.name + "' needs one region");
  const Block &block = op.regions[0];
  if (block.args.size() != op.operands.size())
    failAt(block.loc, "'" + op.name + "' has " + std::to_string(op.operands.size()) +
                          " operands but its body takes " + std::to_string(block.args.size()));
  auto listOf = [&](const Attribute *attr, size_t count, const std::string &what) {
    std::vector<std::optional<TensorSharding>> list(count);
    if (!attr)
      return list;
    std::vector<TensorSharding> read = shardingList(*attr, what);
    if (read.size() != count)
      failAt(attr->loc, "expected " + std::to_string(count) + " " + what + ", got " +
                            std::to_string(read.size()));
    std::move(read.begin(), read.end(), list.begin());
    return list;
  };
  auto ins = listOf(inShardings, block.args.size(), "in_shardings");
  auto outs = listOf(outShardings, op.results.size(), "out_shardings");
  std::string prefix = namePrefix + name + ".";
  enterScope("sdy.named_computation<" + quoteJsonString(name) + ">");
  Names inner; // isolated from above, as a function
  for (size_t i = 0; i < block.args.size(); ++i) {
    ValueId value = use(names, op.operands[i]);
    checkUseType(value, block.args[i].type);
    if (ins[i])
      value = emitBoundaryConstraint(state, value, *ins[i], prefix + block.args[i].name,
                                     block.args[i].loc, block.args[i].type);
    inner.ssa[block.args[i].name] = value;
  }
  const Operation &ret = emitBlock(block, state, inner, prefix, callStack);
  if (ret.name != "sdy.return")
    failAt(ret.loc, "the body of sdy.named_computation must end in sdy.return");
  if (ret.operands.size() != op.results.size())
    failAt(op.loc, "sdy.named_computation \"" + name + "\" returns " +
                       std::to_string(ret.operands.size()) + " values, it defines " +
                       std::to_string(op.results.size()));
  bindInlinedResults(op, ret, inner, names, state, namePrefix, outs);
  scopes_.pop_back();
}

/// The simple reducers by the op they apply.
const std::map<std::string, Reducer> &simpleReducers() {
  static const std::map<std::string, Reducer> reducers = {
      {"stablehlo.add", Reducer::Add},     {"stablehlo.multiply", Reducer::Mul},
      {"stablehlo.maximum", Reducer::Max}, {"stablehlo.minimum", Reducer::Min},
      {"stablehlo.and", Reducer::And},     {"stablehlo.or", Reducer::Or}};
  return reducers;
}

std::optional<Reducer> Importer::simpleReducerOf(const Block &region) {
  if (region.args.size() != 2 || region.ops.size() != 2)
    return std::nullopt;
  const Operation &apply = region.ops[0], &ret = region.ops[1];
  auto it = simpleReducers().find(apply.name);
  if (it == simpleReducers().end() || apply.operands.size() != 2 || apply.results.size() != 1 ||
      ret.operands.size() != 1 || ret.operands[0].name != apply.results[0] ||
      (ret.name != "stablehlo.return" && ret.name != "sdy.return") ||
      // the parser's own marks (`_short_types`) are no attributes of the op
      !std::all_of(apply.attrs.begin(), apply.attrs.end(),
                   [](const NamedAttribute &attr) { return ignorable(attr.name); }))
    return std::nullopt;
  std::set<std::string> args{region.args[0].name, region.args[1].name};
  std::set<std::string> used{apply.operands[0].name, apply.operands[1].name};
  if (args != used || args.size() != 2)
    return std::nullopt;
  return it->second;
}

Reducer Importer::reducerOf(const Operation &op, const Block &region) const {
  if (std::optional<Reducer> reducer = simpleReducerOf(region))
    return *reducer;
  failAt(region.ops.empty() || region.args.size() != 2 || region.ops.size() != 2
             ? region.loc
             : region.ops[0].loc,
         "the reduction region of '" + op.name +
             "' must apply one of stablehlo.add, multiply, maximum, minimum, and, or "
             "to its two arguments and return the result");
}

const Mesh &Importer::fullyManualMesh(const Operation &op) {
  if (manualStack_.empty())
    failAt(op.loc, "'" + op.name +
                       "' outside an sdy.manual_computation: a program's values are the same "
                       "on every device (JAX prints it for lax.axis_index inside a shard_map)");
  const Mesh &mesh = enclosingMesh(op);
  deviceIdTableElements_ += deviceIdTableSize(mesh);
  if (deviceIdTableElements_ > kMaxDeviceIdTableElements)
    failAt(op.loc, "the module's partition_ids on meshes with device_ids make device-id tables of "
                   "more than " +
                       std::to_string(kMaxDeviceIdTableElements) + " elements in all");
  std::set<std::string> manual;
  for (const ManualComputationAttrs *computation : manualStack_)
    manual.insert(computation->manualAxes.begin(), computation->manualAxes.end());
  for (const MeshAxis &axis : mesh.axes)
    if (axis.size > 1 && !manual.count(axis.name))
      failAt(op.loc, "'" + op.name + "' in a manual computation that is not manual over axis '" +
                         axis.name + "' of mesh @" + mesh.name +
                         ": devices holding the same values would see different ids");
  return mesh;
}

const Mesh &Importer::enclosingMesh(const Operation &op) const {
  if (manualStack_.empty())
    failAt(op.loc,
           "'" + op.name + "' outside an sdy.manual_computation: its devices name no mesh axes");
  const ManualComputationAttrs &manual = *manualStack_.back();
  std::string meshName = !manual.inShardings.empty()    ? manual.inShardings[0].meshName
                         : !manual.outShardings.empty() ? manual.outShardings[0].meshName
                                                        : "";
  const Mesh *mesh = graph_.findMesh(meshName);
  if (!mesh)
    failAt(op.loc, "'" + op.name + "': the enclosing manual computation's mesh @" + meshName +
                       " is not defined");
  // Groups are computed device by device: the mesh must be sane first.
  int64_t devices = 1;
  for (const auto &axis : mesh->axes) {
    if (axis.size < 1 || axis.size > kMaxMeshDevices || devices * axis.size > kMaxMeshDevices)
      failAt(op.loc, "'" + op.name + "': mesh @" + meshName +
                         " has an axis size below 1 or more than 2^16 devices (the most whose "
                         "groups are read)");
    devices *= axis.size;
  }
  if (!mesh->deviceIds.empty() && static_cast<int64_t>(mesh->deviceIds.size()) != devices)
    failAt(op.loc, "'" + op.name + "': mesh @" + meshName + " has " +
                       std::to_string(mesh->deviceIds.size()) + " device_ids for " +
                       std::to_string(devices) + " devices");
  return *mesh;
}

std::string groupsText(const DeviceGroups &groups) {
  std::string out = "[";
  for (size_t g = 0; g < groups.size(); ++g) {
    out += g ? ", [" : "[";
    for (size_t i = 0; i < groups[g].size(); ++i)
      out += (i ? ", " : "") + std::to_string(groups[g][i]);
    out += "]";
  }
  return out + "]";
}

std::vector<std::string> Importer::collectiveAxes(const Operation &op, AttrTaker &attrs, Op &ir) {
  const Mesh &mesh = enclosingMesh(op);
  std::optional<std::vector<std::string>> hinted;
  if (const Attribute *hint = attrs.take("shardgen.axes")) {
    hinted.emplace();
    if (hint->kind != Kind::Array)
      failAt(hint->loc, "shardgen.axes must be a list of axis names");
    for (const auto &axis : hint->elements) {
      hinted->push_back(stringOf(axis, "shardgen.axes"));
      if (!mesh.axisIndex(hinted->back()))
        failAt(axis.loc, "unknown axis \"" + hinted->back() + "\" in shardgen.axes");
    }
  }
  if (ir.kind == OpKind::CollectivePermute) {
    const Attribute &pairsAttr = attrs.require("source_target_pairs");
    DevicePairs pairs;
    for (const auto &row : integerRows(pairsAttr, "source_target_pairs")) {
      if (row.size() != 2)
        failAt(pairsAttr.loc, "source_target_pairs needs pairs");
      pairs.emplace_back(row[0], row[1]);
    }
    int64_t shift = 0;
    std::vector<std::string> axes;
    if (hinted) {
      shift = integerOf(attrs.require("shardgen.shift"), "shardgen.shift");
      axes = *hinted;
      DevicePairs expected = permutePairs(mesh, axes, shift), given = pairs;
      std::sort(expected.begin(), expected.end());
      std::sort(given.begin(), given.end());
      if (expected != given)
        failAt(pairsAttr.loc, "source_target_pairs differ from a shift along shardgen.axes");
    } else if (auto derived = axesOfPairs(mesh, pairs)) {
      std::tie(axes, shift) = *derived;
    } else {
      DeviceGroups rows;
      for (auto &[s, t] : pairs)
        rows.push_back({s, t});
      failAt(pairsAttr.loc, "source_target_pairs " + groupsText(rows) +
                                " are no cyclic shift along axes of mesh @" + mesh.name);
    }
    ir.attrs = CollectivePermuteAttrs{axes, shift};
    return axes;
  }
  const Attribute &groupsAttr = attrs.require("replica_groups");
  DeviceGroups groups = integerRows(groupsAttr, "replica_groups");
  std::vector<std::string> axes;
  if (hinted) {
    axes = *hinted;
    DeviceGroups expected = replicaGroups(mesh, axes), given = groups;
    std::sort(expected.begin(), expected.end());
    std::sort(given.begin(), given.end());
    if (expected != given)
      failAt(groupsAttr.loc, "replica_groups differ from the groups of shardgen.axes");
  } else if (auto derived = axesOfGroups(mesh, groups)) {
    axes = *derived;
  } else {
    failAt(groupsAttr.loc,
           "replica_groups " + groupsText(groups) + " match no set of axes of mesh @" + mesh.name);
  }
  places_.add(ir.pointer + "/axes", groupsAttr.loc);
  return axes;
}

/// What reading one op's attributes works on: the op, its attributes not
/// taken yet, the IR op they go into.
struct Importer::OpAttributes {
  const Operation &op;
  AttrTaker &attrs;
  Op &ir;
  SourcePlaces &places;
  std::vector<std::string> &callStack; // the functions being inlined

  /// The first of `keys` present (places noted at `jsonKey`); one must be.
  std::vector<int64_t> ints(std::initializer_list<const char *> keys, const char *jsonKey) {
    for (const char *key : keys)
      if (const Attribute *attr = attrs.take(key)) {
        places.add(ir.pointer + "/" + jsonKey, attr->loc);
        return integersOf(*attr, jsonKey);
      }
    failAt(op.loc, "'" + op.name + "' needs '" + *keys.begin() + "'");
  }
  int64_t integer(std::initializer_list<const char *> keys, const char *jsonKey) {
    for (const char *key : keys)
      if (const Attribute *attr = attrs.take(key)) {
        places.add(ir.pointer + "/" + jsonKey, attr->loc);
        return integerOf(*attr, jsonKey);
      }
    failAt(op.loc, "'" + op.name + "' needs '" + *keys.begin() + "'");
  }
  const Block &singleRegion() const {
    if (op.regions.size() != 1)
      failAt(op.loc, "'" + op.name + "' needs one region");
    return op.regions[0];
  }
};

void Importer::readAttributes(const Operation &op, AttrTaker &attrs, Op &ir,
                              std::vector<std::string> &callStack) {
  OpAttributes a{op, attrs, ir, places_, callStack};
  // An op takes regions when its schema holds one; a collective's region is
  // its reducer's op.
  const auto schema = attributeSchema(ir.kind);
  const bool takesRegions = ir.kind == OpKind::AllReduce || ir.kind == OpKind::ReduceScatter ||
                            std::any_of(schema.begin(), schema.end(), [](const AttrField &field) {
                              return field.kind == AttrKind::Region;
                            });
  if (!takesRegions && !op.regions.empty())
    failAt(op.regions[0].loc, "'" + op.name + "' has no region");
  static constexpr SyntaxReader kReaders[] = {
#define SHARDGEN_READER(dialect, syntax) &Importer::read##syntax
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, ...)    \
  SHARDGEN_READER Mlir,
#include "compiler/ops/Ops.def"
#undef SHARDGEN_READER
  };
  static_assert(std::size(kReaders) == kNumOpKinds);
  (this->*kReaders[static_cast<size_t>(ir.kind)])(a);
}

void Importer::readKeywordFields(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  Attributes read = emptyAttributes(ir.kind);
  void *fields = attributeStruct(read);
  for (const AttrField &field : attributeSchema(ir.kind)) {
    SHARDGEN_CHECK(!field.keyword.empty() && !field.mlir.empty() &&
                       (field.kind == AttrKind::Int || field.kind == AttrKind::Ints),
                   "'" + op.name + "': a keyword syntax reads integer fields with keywords only");
    const std::string keyword(field.keyword), property(field.mlir), json(field.json);
    if (field.kind == AttrKind::Int)
      field.in<int64_t>(fields) = a.integer({keyword.c_str(), property.c_str()}, json.c_str());
    else
      field.in<std::vector<int64_t>>(fields) =
          a.ints({keyword.c_str(), property.c_str()}, json.c_str());
  }
  ir.attrs = std::move(read);
}

void Importer::readCompare(OpAttributes &a) {
  CompareAttrs compare;
  compare.direction =
      enumAttribute(a.attrs, "comparison_direction", "comparison_direction",
                    parseComparisonDirection, "comparison direction (expected EQ NE LT LE GT GE)");
  // The compare type: kept when the element type does not imply it
  // (TOTALORDER, or a wrong one the type rule reports); NOTYPE is none.
  if (const Attribute *type = a.attrs.take("compare_type")) {
    const std::string word = enumWord(*type, "comparison_type");
    if (word != "FLOAT" && word != "TOTALORDER" && word != "SIGNED" && word != "UNSIGNED" &&
        word != "NOTYPE")
      failAt(type->loc,
             "unknown compare type '" + word + "' (expected FLOAT TOTALORDER SIGNED UNSIGNED)");
    const std::optional<TensorType> &operand =
        a.ir.operands.empty() ? std::nullopt : valueTypes_[a.ir.operands[0]];
    const std::string implied = !operand                                ? word
                                : isFloat(operand->elementType)         ? "FLOAT"
                                : isSignedInteger(operand->elementType) ? "SIGNED"
                                                                        : "UNSIGNED";
    if (word != "NOTYPE" && (word == "TOTALORDER" || word != implied)) {
      compare.compareType = word;
      compare.compareTypeGiven = true;
      places_.add(a.ir.pointer + "/compare_type", type->loc);
    }
  }
  a.ir.attrs = compare;
}

void Importer::readSlice(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  SliceAttrs slice;
  slice.startIndices = a.ints({"start_indices"}, "start_indices");
  slice.limitIndices = a.ints({"limit_indices"}, "limit_indices");
  if (const Attribute *strides = attrs.take("strides")) {
    slice.strides = integersOf(*strides, "strides");
    // The pretty form `[0:4]` leaves strides of 1 unsaid.
    slice.stridesGiven = op.generic || strides->body == "given";
  } else {
    slice.strides.assign(slice.startIndices.size(), 1);
  }
  ir.attrs = slice;
}

void Importer::readShardingConstraint(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  const Attribute &attr = attrs.require("sharding");
  ir.shardings[0] = sharding(attr, "the constraint");
  places_.add(ir.pointer + "/sharding", attr.loc);
}

void Importer::readPropagationBarrier(OpAttributes &a) {
  a.ir.attrs = PropagationBarrierAttrs{
      enumAttribute(a.attrs, "allowed_direction", "propagation_direction", parseBarrierDirection,
                    "direction (expected NONE FORWARD BACKWARD BOTH)")};
}

void Importer::readShardingGroup(OpAttributes &a) {
  a.ir.attrs = ShardingGroupAttrs{a.integer({"group_id"}, "group_id")};
}

void Importer::readAllReduce(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  std::vector<std::string> axes = collectiveAxes(op, attrs, ir);
  ir.attrs = AllReduceAttrs{axes, reducerOf(op, a.singleRegion())};
}

void Importer::readAllGather(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  std::vector<std::string> axes = collectiveAxes(op, attrs, ir);
  ir.attrs = AllGatherAttrs{axes, a.integer({"all_gather_dim"}, "dimension")};
}

void Importer::readReduceScatter(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  ReduceScatterAttrs scatter;
  scatter.axes = collectiveAxes(op, attrs, ir);
  scatter.dimension = a.integer({"scatter_dimension"}, "dimension");
  scatter.reducer = reducerOf(op, a.singleRegion());
  ir.attrs = scatter;
}

void Importer::readCollectivePermute(OpAttributes &a) { collectiveAxes(a.op, a.attrs, a.ir); }

void Importer::readAxisIndex(OpAttributes &a) {
  a.ir.attrs = AxisIndexAttrs{stringOf(a.attrs.require("axis"), "axis")};
}

void Importer::readReducePrecision(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  ReducePrecisionAttrs format;
  if (const Attribute *pretty = attrs.take("format")) {
    // e<exponent bits>m<mantissa bits>
    const std::string &text = pretty->text;
    const size_t m = text.find('m');
    auto digits = [](const std::string &part) {
      return !part.empty() && part.size() <= 9 &&
             std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (pretty->kind != Kind::Word || text.empty() || text[0] != 'e' || m == std::string::npos ||
        !digits(text.substr(1, m - 1)) || !digits(text.substr(m + 1)))
      failAt(pretty->loc, "expected a format such as e5m10 (exponent and mantissa bits)");
    format.exponentBits = std::stoll(text.substr(1, m - 1));
    format.mantissaBits = std::stoll(text.substr(m + 1));
    places.add(ir.pointer + "/exponent_bits", pretty->loc);
    places.add(ir.pointer + "/mantissa_bits", pretty->loc);
  } else {
    format.exponentBits = a.integer({"exponent_bits"}, "exponent_bits");
    format.mantissaBits = a.integer({"mantissa_bits"}, "mantissa_bits");
  }
  ir.attrs = format;
}

std::string Importer::enumKeyword(OpAttributes &a, const char *keyword, const std::string &property,
                                  bool (*known)(std::string_view), const std::string &expected) {
  const Attribute *attr = a.attrs.take(keyword);
  if (!attr)
    attr = &a.attrs.require(property);
  std::string word = enumWord(*attr, property);
  if (!known(word))
    failAt(attr->loc, "unknown " + property + " '" + word + "' (expected " + expected + ")");
  places_.add(a.ir.pointer + "/" + property, attr->loc);
  return word;
}

void Importer::readRngBitGenerator(OpAttributes &a) {
  RngBitGeneratorAttrs rng;
  rng.rngAlgorithm = enumKeyword(
      a, "algorithm", "rng_algorithm",
      [](std::string_view word) { return parseRngAlgorithm(word).has_value(); },
      "DEFAULT, THREE_FRY or PHILOX");
  a.ir.attrs = rng;
}

void Importer::readFft(OpAttributes &a) {
  FftAttrs fft;
  fft.fftType = enumKeyword(
      a, "type", "fft_type", [](std::string_view word) { return parseFftType(word).has_value(); },
      "FFT, IFFT, RFFT or IRFFT");
  fft.fftLength = a.ints({"fft_length", "length"}, "fft_length");
  a.ir.attrs = fft;
}

void Importer::readNoSyntax(OpAttributes &a) {
  internalError(__FILE__, __LINE__, "'" + a.op.name + "' has no MLIR form, yet was read as one");
}

void Importer::readConstant(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  const Attribute &value = attrs.require("value");
  if (value.kind != Kind::Dense)
    failAt(value.loc, "expected dense<...> for the constant's value");
  std::string error;
  auto constant = parseDenseBody(value.body, *ir.declaredTypes.at(0), &error);
  if (!constant)
    failAt(value.loc, "invalid constant: " + error);
  if (!value.typeText.empty() &&
      tensorType(TypeRef{value.typeText, value.loc}) != *ir.declaredTypes[0])
    failAt(value.loc, "the value's type " + value.typeText + " differs from the result type");
  places_.add(ir.pointer + "/value", value.loc);
  ir.attrs = std::move(*constant);
}

void Importer::readDotGeneral(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  DotGeneralAttrs dot;
  if (op.name == "stablehlo.dot") {
    // lhs [.., k] x rhs [k, ..]: contracts lhs's last dim with rhs's first.
    if (ir.operands.size() == 2 && valueTypes_[ir.operands[0]]) {
      int64_t rank = valueTypes_[ir.operands[0]]->rank();
      dot.lhsContractingDimensions = {rank > 0 ? rank - 1 : 0};
      dot.rhsContractingDimensions = {0};
    }
  } else if (const Attribute *numbers = attrs.take("dot_dimension_numbers")) {
    readDotDimensions(*numbers, dot);
  } else {
    auto pair = [&](const char *key, std::vector<int64_t> &lhs, std::vector<int64_t> &rhs) {
      if (const Attribute *attr = attrs.take(key)) {
        if (attr->kind != Kind::Array || attr->text != "x" || attr->elements.size() != 2)
          failAt(attr->loc, std::string(key) + " needs the form [..] x [..]");
        lhs = integersOf(attr->elements[0], key);
        rhs = integersOf(attr->elements[1], key);
      }
    };
    pair("batching_dims", dot.lhsBatchingDimensions, dot.rhsBatchingDimensions);
    pair("contracting_dims", dot.lhsContractingDimensions, dot.rhsContractingDimensions);
  }
  ir.attrs = dot;
}

void Importer::readReduce(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  ReduceAttrs reduce;
  reduce.dimensions = a.ints({"dimensions"}, "dimensions");
  const Attribute *argNames = attrs.take("shardgen.arg_names");
  const Attribute *bodyMetadata = attrs.take("shardgen.body_metadata");
  // One input with one of the six simple reducers keeps the `reducer` form
  // (JSON's, and what export writes back); any other body is a region.
  const bool oneInput = ir.operands.size() == 2;
  if (const Attribute *applies = attrs.take("_applies")) {
    auto simple = simpleReducers().find(applies->text);
    std::optional<OpKind> kind = kindOf(applies->text);
    if (oneInput && simple != simpleReducers().end()) {
      reduce.reducer = simple->second;
    } else if (oneInput && kind == OpKind::Xor) {
      compactBody(ir, *applies, *kind, ir.regions.add());
    } else {
      // StableHLO's compact form: one input, a commutative binary op.
      failAt(applies->loc, "reducer '" + applies->text +
                               "' is not supported (add, multiply, maximum, minimum, and, or, "
                               "xor; other bodies are written as a region)");
    }
  } else {
    const Block &block = a.singleRegion();
    std::optional<Reducer> simple = oneInput && !argNames ? simpleReducerOf(block) : std::nullopt;
    if (simple) {
      reduce.reducer = simple;
    } else {
      readRegionBlock(ir, block, argNames, "stablehlo.return", callStack, ir.regions.add());
      ir.regions[0].metadata = metadata(bodyMetadata, ir.regions[0].pointer);
    }
  }
  if (reduce.reducer)
    places_.add(ir.pointer + "/reducer", op.loc);
  ir.attrs = reduce;
}

void Importer::compactBody(Op &ir, const Attribute &applies, OpKind kind, Region &body) {
  body.pointer = ir.pointer + "/body";
  places_.add(body.pointer, applies.loc);
  const std::optional<TensorType> &input = valueTypes_[ir.operands[0]];
  std::optional<TensorType> scalar;
  if (input)
    scalar = TensorType{input->elementType, {}};
  RegionState inner{body, body.pointer};
  Names innerNames;
  for (const char *name : {"lhs", "rhs"}) {
    RegionArgument argument;
    argument.pointer = body.pointer + "/args/" + std::to_string(body.args.size());
    places_.add(argument.pointer, applies.loc);
    argument.value = define(inner, innerNames, name, name, applies.loc, scalar, true);
    body.args.push_back(std::move(argument));
  }
  Op apply;
  apply.kind = kind;
  apply.pointer = body.pointer + "/ops/0";
  places_.add(apply.pointer, applies.loc);
  apply.operands = {body.args[0].value, body.args[1].value};
  apply.declaredTypes.resize(1);
  apply.shardings.resize(1);
  apply.distributions.resize(1);
  body.ops.push_back(std::move(apply));
  body.ops.back().results.push_back(
      define(inner, innerNames, "result", "result", applies.loc, scalar));
  RegionResult result;
  result.pointer = body.pointer + "/return/0";
  result.value = body.ops.back().results[0];
  body.results.push_back(std::move(result));
}

void Importer::readCustomCall(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  CustomCallAttrs call;
  call.callTargetName = stringOf(attrs.require("call_target_name"), "call_target_name");
  if (const Attribute *rule = attrs.take("sdy.sharding_rule")) {
    if (rule->kind != Kind::Dialect || rule->text != "sdy.op_sharding_rule")
      failAt(rule->loc, "expected #sdy.op_sharding_rule<...>");
    std::string error;
    auto parsed = parseOpShardingRule(rule->body, &error);
    if (!parsed)
      failAt(rule->loc, "invalid sharding rule: " + error);
    call.shardingRule = std::move(*parsed);
    places_.add(ir.pointer + "/sharding_rule", rule->loc);
  }
  if (const Attribute *config = attrs.take("backend_config"); config && !isEmptyConfig(*config))
    failAt(config->loc, "a backend_config is not supported (a custom_call gets its operands only)");
  if (const Attribute *effect = attrs.take("has_side_effect"))
    if (!(effect->kind == Kind::Word && effect->text == "false"))
      failAt(effect->loc, "a custom_call with side effects is not supported");
  places_.add(ir.pointer + "/call_target_name", op.loc);
  ir.attrs = std::move(call);
}

void Importer::readAllToAll(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  std::vector<std::string> axes = collectiveAxes(op, attrs, ir);
  AllToAllAttrs toAll;
  toAll.axes = axes;
  toAll.splitDimension = a.integer({"split_dimension"}, "split_dimension");
  toAll.concatDimension = a.integer({"concat_dimension"}, "concat_dimension");
  const Attribute &count = attrs.require("split_count");
  int64_t groupSize = 1;
  const Mesh &mesh = enclosingMesh(op);
  for (const auto &axis : axes)
    groupSize *= mesh.axisSize(axis);
  if (integerOf(count, "split_count") != groupSize)
    failAt(count.loc, "split_count " + std::to_string(count.integer) +
                          " differs from the replica group size " + std::to_string(groupSize));
  ir.attrs = toAll;
}

void Importer::readManualComputation(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  ManualComputationAttrs manual;
  const Attribute &in = attrs.require("in_shardings"), &out = attrs.require("out_shardings");
  manual.inShardings = shardingList(in, "in_shardings");
  manual.outShardings = shardingList(out, "out_shardings");
  places_.add(ir.pointer + "/in_shardings", in.loc);
  places_.add(ir.pointer + "/out_shardings", out.loc);
  const Attribute &axes = attrs.require("manual_axes");
  std::string error;
  auto parsedAxes = parseManualAxes(axes.body, &error);
  if (axes.kind != Kind::Dialect || !parsedAxes)
    failAt(axes.loc,
           "invalid manual_axes: " + (error.empty() ? "expected {\"axis\", ...}" : error));
  manual.manualAxes = *parsedAxes;
  places_.add(ir.pointer + "/manual_axes", axes.loc);
  const Block &block = a.singleRegion();
  const Attribute *argNames = attrs.take("shardgen.arg_names");
  const Attribute *argShardings = attrs.take("shardgen.arg_shardings");
  const Attribute *argMetadata = attrs.take("shardgen.arg_metadata");
  const Attribute *bodyMetadata = attrs.take("shardgen.body_metadata");
  for (const Attribute *hint : {argNames, argShardings, argMetadata})
    if (hint && (hint->kind != Kind::Array || hint->elements.size() != block.args.size()))
      failAt(hint->loc, "expected one entry per body argument");
  ir.attrs = std::move(manual);

  ManualBodyHints hints{argNames, argShardings, argMetadata, bodyMetadata};
  readManualBody(ir, block, hints, callStack, ir.regions.add());
}

void Importer::readManualBody(Op &ir, const Block &block, const ManualBodyHints &hints,
                              std::vector<std::string> &callStack, Region &body) {
  const auto &[argNames, argShardings, argMetadata, bodyMetadata] = hints;
  manualStack_.push_back(&ir.attr<ManualComputationAttrs>());
  readRegionBlock(ir, block, argNames, "sdy.return", callStack, body);
  manualStack_.pop_back();
  body.metadata = metadata(bodyMetadata, body.pointer);
  for (size_t i = 0; i < body.args.size(); ++i) {
    if (argShardings && argShardings->elements[i].kind != Kind::Unit)
      body.args[i].sharding = sharding(argShardings->elements[i], "a body argument");
    if (argMetadata)
      body.args[i].metadata = metadata(&argMetadata->elements[i], body.args[i].pointer);
  }
}

void Importer::readRegionBlock(const Op &ir, const Block &block, const Attribute *argNames,
                               const std::string &terminator, std::vector<std::string> &callStack,
                               Region &body, const std::string &key) {
  readBlockInto(ir, block, argNames, terminator, callStack, body, key, nullptr, nullptr);
}

void Importer::readControlRegion(const Op &ir, const Block &block, const std::string &key,
                                 std::vector<std::string> &callStack, Region &region,
                                 const Attribute *argNames) {
  SHARDGEN_CHECK(enclosingNames_ && enclosingState_, "a control-flow region outside a region");
  // The regions' ops run with the enclosing names in reach; their own ops
  // may hold control flow again.
  Names *names = enclosingNames_;
  RegionState *state = enclosingState_;
  readBlockInto(ir, block, argNames, "stablehlo.return", callStack, region, key, names, state);
  enclosingNames_ = names;
  enclosingState_ = state;
}

void Importer::readWhile(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  if (op.regions.size() != 2)
    failAt(op.loc, "'" + op.name + "' needs two regions (cond and body), got " +
                       std::to_string(op.regions.size()));
  ir.attrs = WhileAttrs{};
  const Attribute *condNames = attrs.take("shardgen.cond_arg_names");
  const Attribute *bodyNames = attrs.take("shardgen.body_arg_names");
  readControlRegion(ir, op.regions[0], "cond", callStack, ir.regions.add(), condNames);
  readControlRegion(ir, op.regions[1], "body", callStack, ir.regions.add(), bodyNames);
}

void Importer::readCase(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  if (op.regions.empty())
    failAt(op.loc, "'" + op.name + "' needs at least one branch (a region)");
  ir.attrs = CaseAttrs{};
  for (size_t b = 0; b < op.regions.size(); ++b)
    readControlRegion(ir, op.regions[b], "branches/" + std::to_string(b), callStack,
                      ir.regions.add());
}

void Importer::readIf(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  if (op.regions.size() != 2)
    failAt(op.loc, "'" + op.name + "' needs two regions (true_branch and false_branch), got " +
                       std::to_string(op.regions.size()));
  ir.attrs = IfAttrs{};
  readControlRegion(ir, op.regions[0], "true_branch", callStack, ir.regions.add());
  readControlRegion(ir, op.regions[1], "false_branch", callStack, ir.regions.add());
}

void Importer::readBlockInto(const Op &ir, const Block &block, const Attribute *argNames,
                             const std::string &terminator, std::vector<std::string> &callStack,
                             Region &body, const std::string &key, const Names *outerNames,
                             RegionState *outerState) {
  // The names hint is read per argument below: one entry each, checked here
  // for every region reader.
  if (argNames && (argNames->kind != Kind::Array || argNames->elements.size() != block.args.size()))
    failAt(argNames->loc, "expected one entry per " + key + " argument");
  body.pointer = ir.pointer + "/" + key;
  places_.add(body.pointer, block.loc);
  RegionState inner{body, body.pointer};
  inner.outer = outerState;
  // Isolated from above and no manual computation's: a scalar body.
  inner.scalarBody = outerState == nullptr && ir.kind != OpKind::ManualComputation;
  Names innerNames; // isolated from above unless the op's regions see the enclosing values
  innerNames.outer = outerNames;
  for (size_t i = 0; i < block.args.size(); ++i) {
    const BlockArgument &arg = block.args[i];
    RegionArgument argument;
    argument.pointer = body.pointer + "/args/" + std::to_string(i);
    places_.add(argument.pointer, arg.loc);
    places_.add(argument.pointer + "/type", arg.type.loc);
    std::string irName =
        argNames ? stringOf(argNames->elements[i], "shardgen.arg_names") : arg.name;
    argument.value =
        define(inner, innerNames, arg.name, irName, arg.loc, tensorType(arg.type), true);
    body.args.push_back(std::move(argument));
  }
  const Operation &ret = emitBlock(block, inner, innerNames, "", callStack);
  if (ret.name != terminator)
    failAt(ret.loc, "the body of " + mlirOpName(ir.kind) + " must end in " + terminator);
  places_.add(body.pointer + "/return", ret.loc);
  for (size_t i = 0; i < ret.operands.size(); ++i) {
    RegionResult result;
    result.pointer = body.pointer + "/return/" + std::to_string(i);
    result.value = use(innerNames, ret.operands[i]);
    if (i < ret.operandTypes.size())
      checkUseType(result.value, ret.operandTypes[i]);
    places_.add(result.pointer, ret.operands[i].loc);
    body.results.push_back(std::move(result));
  }
}

// ---- gather and scatter ----

void Importer::readDimensionNumbers(OpAttributes &a, const AttrField &field, void *attrs) {
  const std::string key(field.mlir), json(field.json);
  const Attribute &attr = a.attrs.require(key);
  const std::string dialect = "stablehlo." + std::string(a.ir.name());
  if (attr.kind != Kind::Dialect || attr.text != dialect)
    failAt(attr.loc, "expected #" + dialect + "<...> for " + key);
  const std::string pointer = a.ir.pointer + "/" + json;
  places_.add(pointer, attr.loc);
  void *object = field.member(attrs);
  std::set<std::string> seen;
  for (const std::string &item : splitTopLevel(attr.body)) {
    size_t eq = item.find('=');
    std::string name = item.substr(0, eq == std::string::npos ? item.size() : eq);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    const AttrField *inner = nullptr;
    for (const AttrField &candidate : field.nested())
      if (candidate.mlir == name)
        inner = &candidate;
    if (eq == std::string::npos || !inner)
      failAt(attr.loc, "unknown field '" + name + "' in #" + dialect);
    if (!seen.insert(name).second)
      failAt(attr.loc, "field '" + name + "' given twice in #" + dialect);
    places_.add(pointer + "/" + std::string(inner->json), attr.loc);
    Attribute value;
    value.kind = Kind::Dense; // integersOf reads `[1, 2]` and `1` alike
    value.loc = attr.loc;
    value.body = item.substr(eq + 1);
    std::vector<int64_t> values = integersOf(value, name);
    if (inner->kind == AttrKind::Ints)
      inner->in<std::vector<int64_t>>(object) = values;
    else if (values.size() == 1 && value.body.find('[') == std::string::npos)
      inner->in<int64_t>(object) = values[0];
    else
      failAt(attr.loc, "expected an integer for '" + name + "' in #" + dialect);
  }
  // A field left out is 0 or [] (StableHLO's printer leaves those out:
  // `index_vector_dim = 0` is never printed).
}

bool Importer::readFlag(OpAttributes &a, const AttrField &field) {
  const Attribute *attr = a.attrs.take(std::string(field.mlir));
  if (!attr)
    return false;
  places_.add(a.ir.pointer + "/" + std::string(field.json), attr->loc);
  return booleanOf(*attr, std::string(field.mlir));
}

void Importer::readGather(OpAttributes &a) {
  GatherAttrs gather;
  const auto fields = GatherAttrs::schema();
  readDimensionNumbers(a, fields[0], &gather);
  gather.sliceSizes = a.ints({"slice_sizes"}, "slice_sizes");
  gather.indicesAreSorted = readFlag(a, fields[2]);
  a.ir.attrs = std::move(gather);
}

void Importer::readScatter(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  ScatterAttrs scatter;
  const auto fields = ScatterAttrs::schema();
  readDimensionNumbers(a, fields[0], &scatter);
  scatter.indicesAreSorted = readFlag(a, fields[1]);
  scatter.uniqueIndices = readFlag(a, fields[2]);
  const Attribute *argNames = attrs.take("shardgen.arg_names");
  const Attribute *bodyMetadata = attrs.take("shardgen.body_metadata");
  const Block &block = a.singleRegion();
  readRegionBlock(ir, block, argNames, "stablehlo.return", callStack, ir.regions.add(),
                  std::string(fields[3].json));
  ir.regions[0].metadata = metadata(bodyMetadata, ir.regions[0].pointer);
  ir.attrs = std::move(scatter);
}

void Importer::readSort(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  SortAttrs sort;
  if (const Attribute *dimension = attrs.take("dimension")) {
    sort.dimension = integerOf(*dimension, "dimension");
    places.add(ir.pointer + "/dimension", dimension->loc);
  }
  if (const Attribute *stable = attrs.take("is_stable")) {
    sort.isStable = booleanOf(*stable, "is_stable");
    places.add(ir.pointer + "/is_stable", stable->loc);
  }
  const Attribute *argNames = attrs.take("shardgen.arg_names");
  const Attribute *bodyMetadata = attrs.take("shardgen.body_metadata");
  const Block &block = a.singleRegion();
  readRegionBlock(ir, block, argNames, "stablehlo.return", callStack, ir.regions.add(),
                  "comparator");
  ir.regions[0].metadata = metadata(bodyMetadata, ir.regions[0].pointer);
  ir.attrs = sort;
}

void Importer::readTopK(OpAttributes &a) {
  auto &[op, attrs, ir, places, callStack] = a;
  TopKAttrs topK;
  if (op.name == "stablehlo.custom_call") {
    // @mhlo.topk: k and largest in mhlo.attributes.
    attrs.take("call_target_name");
    attrs.take("mhlo.version");
    const Attribute &fields = attrs.require("mhlo.attributes");
    if (fields.kind != Kind::Dict)
      failAt(fields.loc, "expected a dictionary {k = ..., largest = true} for mhlo.attributes");
    bool hasK = false;
    for (const NamedAttribute &field : fields.fields) {
      if (field.name == "k") {
        topK.k = integerOf(field.value, "k");
        places.add(ir.pointer + "/k", field.value.loc);
        hasK = true;
      } else if (field.name == "largest") {
        if (!booleanOf(field.value, "largest"))
          failAt(field.value.loc, "mhlo.topk with largest = false (the k smallest) is not "
                                  "supported; negate the operand and take the k largest");
      } else {
        failAt(field.value.loc, "unknown mhlo.topk attribute '" + field.name + "'");
      }
    }
    if (!hasK)
      failAt(fields.loc, "mhlo.topk needs k in mhlo.attributes");
    ir.attrs = topK;
    return;
  }
  topK.k = a.integer({"k"}, "k");
  if (const Attribute *stable = attrs.take("is_stable")) {
    topK.isStable = booleanOf(*stable, "is_stable");
    places.add(ir.pointer + "/is_stable", stable->loc);
  }
  ir.attrs = topK;
}

// ---- windows ----

namespace {

/// [[lo, hi], ...] from dense<...> : tensor<Nx2xi64> (a splat too).
std::vector<std::array<int64_t, 2>> integerPairs(const Attribute &attr, const std::string &what) {
  if (attr.kind == Kind::Array) { // the pretty form's [[1, 1], [0, 0]]
    std::vector<std::array<int64_t, 2>> pairs;
    for (const Attribute &row : attr.elements) {
      std::vector<int64_t> pair = integersOf(row, what);
      if (pair.size() != 2)
        failAt(row.loc, what + " needs pairs [low, high]");
      pairs.push_back({pair[0], pair[1]});
    }
    return pairs;
  }
  if (attr.kind != Kind::Dense)
    failAt(attr.loc, "expected dense<...> for " + what);
  std::string error;
  auto type = parseType(attr.typeText, &error);
  if (!type || type->rank() != 2 || type->shape[1] != 2)
    failAt(attr.loc, what + " needs the type tensor<Nx2xi64>, got '" + attr.typeText + "'");
  std::vector<int64_t> flat = integersOf(attr, what);
  const int64_t rows = type->shape[0];
  if (flat.size() == 1) // a splat
    flat.assign(static_cast<size_t>(2 * rows), flat[0]);
  if (static_cast<int64_t>(flat.size()) != 2 * rows)
    failAt(attr.loc, what + " has " + std::to_string(flat.size()) + " entries, " + attr.typeText +
                         " needs " + std::to_string(2 * rows));
  std::vector<std::array<int64_t, 2>> pairs;
  for (int64_t r = 0; r < rows; ++r)
    pairs.push_back({flat[2 * r], flat[2 * r + 1]});
  return pairs;
}

/// [false, true], array<i1: false, true>, dense<[false, true]>.
std::vector<bool> boolsOf(const Attribute &attr, const std::string &what) {
  std::vector<bool> values;
  if (attr.kind == Kind::Array) {
    for (const Attribute &element : attr.elements) {
      if (element.kind == Kind::Word && (element.text == "true" || element.text == "false"))
        values.push_back(element.text == "true");
      else
        values.push_back(integerOf(element, what) != 0);
    }
    return values;
  }
  if (attr.kind == Kind::Dense) {
    Lexer lexer(attr.body);
    while (lexer.peek().kind != TokenKind::End) {
      Token t = lexer.next();
      if (t.text == "true" || t.text == "1")
        values.push_back(true);
      else if (t.text == "false" || t.text == "0")
        values.push_back(false);
      else if (!t.isPunct("[") && !t.isPunct("]") && !t.isPunct(","))
        failAt(attr.loc, "expected booleans for " + what);
    }
    return values;
  }
  failAt(attr.loc, "expected a list of booleans for " + what);
}

/// The three lists of `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
void readConvDimensions(const Attribute &attr, const std::string &text, ConvolutionAttrs &c) {
  std::string compact;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch)))
      compact += ch;
  const size_t cross = compact.find("]x["), arrow = compact.find("]->[");
  if (compact.empty() || compact.front() != '[' || compact.back() != ']' ||
      cross == std::string::npos || arrow == std::string::npos || arrow < cross)
    failAt(attr.loc, "expected dimension numbers as [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]");
  const std::string lists[3] = {compact.substr(1, cross - 1),
                                compact.substr(cross + 3, arrow - cross - 3),
                                compact.substr(arrow + 4, compact.size() - arrow - 5)};
  const char *firstLabels[3] = {"b", "i", "b"}, *lastLabels[3] = {"f", "o", "f"};
  int64_t *firsts[3] = {&c.inputBatchDimension, &c.kernelInputFeatureDimension,
                        &c.outputBatchDimension};
  int64_t *lasts[3] = {&c.inputFeatureDimension, &c.kernelOutputFeatureDimension,
                       &c.outputFeatureDimension};
  std::vector<int64_t> *spatials[3] = {&c.inputSpatialDimensions, &c.kernelSpatialDimensions,
                                       &c.outputSpatialDimensions};
  for (int l = 0; l < 3; ++l) {
    std::vector<std::string> labels;
    std::string label;
    for (char ch : lists[l] + ",") {
      if (ch != ',') {
        label += ch;
        continue;
      }
      labels.push_back(label);
      label.clear();
    }
    const int64_t rank = static_cast<int64_t>(labels.size());
    std::vector<int64_t> &spatial = *spatials[l];
    spatial.assign(static_cast<size_t>(std::max<int64_t>(rank - 2, 0)), -1);
    bool first = false, last = false;
    for (int64_t d = 0; d < rank; ++d) {
      const std::string &name = labels[d];
      int64_t index = -1;
      if (name == firstLabels[l] && !first) {
        *firsts[l] = d;
        first = true;
      } else if (name == lastLabels[l] && !last) {
        *lasts[l] = d;
        last = true;
      } else if (integerValue(name, index) && index >= 0 &&
                 index < static_cast<int64_t>(spatial.size()) && spatial[index] < 0) {
        spatial[index] = d;
      } else {
        failAt(attr.loc, "unexpected dimension label '" + name + "' in the dimension numbers");
      }
    }
    if (!first || !last)
      failAt(attr.loc, std::string("the dimension numbers need '") + firstLabels[l] + "' and '" +
                           lastLabels[l] + "' in each list");
  }
}

} // namespace

void Importer::readScalarRegions(OpAttributes &a, const std::vector<std::string> &keys) {
  if (a.op.regions.size() != keys.size())
    failAt(a.op.loc, "'" + a.op.name + "' needs " + std::to_string(keys.size()) + " region" +
                         (keys.size() == 1 ? "" : "s"));
  for (size_t r = 0; r < keys.size(); ++r) {
    const Block &block = a.op.regions[r];
    const Attribute *argNames = a.attrs.take("shardgen." + keys[r] + "_arg_names");
    readRegionBlock(a.ir, block, argNames, "stablehlo.return", a.callStack, a.ir.regions.add(),
                    keys[r]);
  }
}

void Importer::readReduceWindow(OpAttributes &a) {
  ReduceWindowAttrs w;
  w.windowDimensions = a.ints({"window_dimensions"}, "window_dimensions");
  auto optionalInts = [&](const char *key, std::vector<int64_t> &values) {
    if (const Attribute *attr = a.attrs.take(key)) {
      places_.add(a.ir.pointer + "/" + key, attr->loc);
      values = integersOf(*attr, key);
    }
  };
  optionalInts("window_strides", w.windowStrides);
  optionalInts("base_dilations", w.baseDilations);
  optionalInts("window_dilations", w.windowDilations);
  if (const Attribute *padding = a.attrs.take("padding")) {
    places_.add(a.ir.pointer + "/padding", padding->loc);
    w.padding = integerPairs(*padding, "padding");
  }
  w.completeDefaults();
  readScalarRegions(a, {"body"});
  a.ir.attrs = w;
}

void Importer::readSelectAndScatter(OpAttributes &a) {
  SelectAndScatterAttrs w;
  w.windowDimensions = a.ints({"window_dimensions"}, "window_dimensions");
  if (const Attribute *strides = a.attrs.take("window_strides")) {
    places_.add(a.ir.pointer + "/window_strides", strides->loc);
    w.windowStrides = integersOf(*strides, "window_strides");
  }
  if (const Attribute *padding = a.attrs.take("padding")) {
    places_.add(a.ir.pointer + "/padding", padding->loc);
    w.padding = integerPairs(*padding, "padding");
  }
  w.completeDefaults();
  readScalarRegions(a, {"select", "scatter"});
  a.ir.attrs = w;
}

void Importer::readConvolution(OpAttributes &a) {
  ConvolutionAttrs c;
  const Attribute &numbers = a.attrs.require("dimension_numbers");
  if (numbers.kind != Kind::Dialect || numbers.text != "stablehlo.conv")
    failAt(numbers.loc, "expected #stablehlo.conv<...> for dimension_numbers");
  readConvDimensions(numbers, numbers.body, c);
  auto take = [&](std::initializer_list<const char *> keys, const char *json) -> const Attribute * {
    for (const char *key : keys)
      if (const Attribute *attr = a.attrs.take(key)) {
        places_.add(a.ir.pointer + "/" + json, attr->loc);
        return attr;
      }
    return nullptr;
  };
  if (const Attribute *attr = take({"window_strides", "stride"}, "window_strides"))
    c.windowStrides = integersOf(*attr, "window_strides");
  if (const Attribute *attr = take({"padding", "pad"}, "padding"))
    c.padding = integerPairs(*attr, "padding");
  if (const Attribute *attr = take({"lhs_dilation", "lhs_dilate"}, "lhs_dilation"))
    c.lhsDilation = integersOf(*attr, "lhs_dilation");
  if (const Attribute *attr = take({"rhs_dilation", "rhs_dilate"}, "rhs_dilation"))
    c.rhsDilation = integersOf(*attr, "rhs_dilation");
  if (const Attribute *attr = take({"window_reversal", "reverse"}, "window_reversal"))
    c.windowReversal = boolsOf(*attr, "window_reversal");
  if (const Attribute *attr = take({"feature_group_count"}, "feature_group_count"))
    c.featureGroupCount = integerOf(*attr, "feature_group_count");
  if (const Attribute *attr = take({"batch_group_count"}, "batch_group_count"))
    c.batchGroupCount = integerOf(*attr, "batch_group_count");
  c.completeDefaults();
  a.ir.attrs = c;
}

} // namespace

ImportedGraph importMlir(std::string_view text, const ImportOptions &options) {
  Module module = parseModule(text);
  expandRaggedDots(module);
  expandLapackCalls(module); // its blocked LU solves with triangular_solve
  expandTriangularSolves(module);
  ImportedGraph imported;
  Importer(module, imported.graph, imported.places).run(options.function);
  return imported;
}

} // namespace shardgen::mlir
