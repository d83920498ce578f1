// Emission of scalar bodies (RegionRole::Scalar: a reduce's region that is
// no simple reducer) and of the steps that run them: a reduce of several
// inputs or with any body, and the RegionAllReduce that combines its
// partial results across devices. A body becomes a struct with one static
// apply(accumulators..., elements..., results&...) whose statements are its
// ops in order, each rounded to its element type (as stored): the
// interpreter's scalar-region evaluator computes the same bits.

#include <algorithm>
#include <set>

#include "compiler/codegen/CppNames.h"
#include "compiler/codegen/EmitterContext.h"
#include "compiler/codegen/RegionEmitter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"
#include "compiler/ops/KindTable.h"

namespace shardgen::codegen {
namespace {

/// The C++ expressions of a scalar body's ops: each op's value from its
/// operands' names.
struct BodyText {
  const Graph &graph;
  std::map<ValueId, std::string> &names;

  ElementType typeOf(ValueId v) const { return graph.type(v).elementType; }
  std::string load(ValueId v) const {
    return std::string(elementTag(typeOf(v))) + "::load(" + names.at(v) + ")";
  }
  std::string tag(const Op &op) const { return std::string(elementTag(typeOf(op.results[0]))); }
};

/// The unary and binary families: the op's functor (abs of a complex value
/// is its modulus, of the part type, as the elementwise kernel computes it).
std::string functorValue(const BodyText &b, const Op &op) {
  if (op.kind == OpKind::Abs && isComplex(b.typeOf(op.operands[0])))
    return b.tag(op) + "::store(complexmath::abs(" + b.load(op.operands[0]) + "))";
  std::string arguments;
  for (ValueId operand : op.operands)
    arguments += (arguments.empty() ? "" : ", ") + b.load(operand);
  return b.tag(op) + "::store(" +
         std::string(elementwiseFunctor(op.kind, b.typeOf(op.operands[0]))) + "::apply(" +
         arguments + "))";
}

/// The value of each per-element op outside the two families.
template <OpKind K> std::string otherValue(const BodyText &b, const Op &op) = delete;

template <> std::string otherValue<OpKind::Compare>(const BodyText &b, const Op &op) {
  const auto &attrs = op.attr<CompareAttrs>();
  if (attrs.totalOrder()) { // on the stored bits' totalOrder keys
    const std::string key =
        "TotalOrder<" + std::string(elementTag(b.typeOf(op.operands[0]))) + ">::key(";
    return compareFunctor(attrs.direction) + "::apply(" + key + b.names.at(op.operands[0]) + "), " +
           key + b.names.at(op.operands[1]) + "))";
  }
  return compareFunctor(attrs.direction) + "::apply(" + b.load(op.operands[0]) + ", " +
         b.load(op.operands[1]) + ")";
}

template <> std::string otherValue<OpKind::Select>(const BodyText &b, const Op &op) {
  return b.names.at(op.operands[0]) + " ? " + b.names.at(op.operands[1]) + " : " +
         b.names.at(op.operands[2]);
}

template <> std::string otherValue<OpKind::Clamp>(const BodyText &b, const Op &op) {
  return b.tag(op) + "::store(math::minimum(math::maximum(" + b.load(op.operands[1]) + ", " +
         b.load(op.operands[0]) + "), " + b.load(op.operands[2]) + "))";
}

template <> std::string otherValue<OpKind::Convert>(const BodyText &b, const Op &op) {
  return b.tag(op) + "::store(convertElement<" + std::string(elementTag(b.typeOf(op.operands[0]))) +
         ", " + b.tag(op) + ">(" + b.load(op.operands[0]) + "))";
}

template <> std::string otherValue<OpKind::IsFinite>(const BodyText &b, const Op &op) {
  return "static_cast<uint8_t>(math::isfinite(" + b.load(op.operands[0]) + "))";
}

template <> std::string otherValue<OpKind::ReducePrecision>(const BodyText &, const Op &op) {
  SHARDGEN_CHECK(false, std::string(op.name()) + " in a scalar body (verify refuses it)");
  return "";
}

/// real and imag of a complex value, or of a float one (itself, and 0).
template <> std::string otherValue<OpKind::Real>(const BodyText &b, const Op &op) {
  return "partOf<" + std::string(elementTag(b.typeOf(op.operands[0]))) + ", false>(" +
         b.names.at(op.operands[0]) + ")";
}
template <> std::string otherValue<OpKind::Imag>(const BodyText &b, const Op &op) {
  return "partOf<" + std::string(elementTag(b.typeOf(op.operands[0]))) + ", true>(" +
         b.names.at(op.operands[0]) + ")";
}
template <> std::string otherValue<OpKind::Complex>(const BodyText &b, const Op &op) {
  return std::string(storageType(b.typeOf(op.results[0]))) + "{" + b.names.at(op.operands[0]) +
         ", " + b.names.at(op.operands[1]) + "}";
}

/// A scalar constant: its bits (a complex one's parts' bits).
std::string constantValue(const BodyText &, const Op &op) {
  const Literal &literal = op.attr<ConstantAttrs>().elements; // one element (a scalar)
  const ElementType type = literal.elementType();
  auto bitsOf = [&](ElementType part, size_t offset) {
    uint64_t bits = 0;
    for (size_t w = 0; w < elementByteWidth(part); ++w)
      bits |= static_cast<uint64_t>(literal.data()[offset + w]) << (8 * w); // little endian
    return "fromBits<" + std::string(storageType(part)) + ">(" + std::to_string(bits) + "ull)";
  };
  if (!isComplex(type))
    return bitsOf(type, 0);
  const ElementType part = complexPartType(type);
  return std::string(storageType(type)) + "{" + bitsOf(part, 0) + ", " +
         bitsOf(part, elementByteWidth(part)) + "}";
}

using ValueFn = std::string (*)(const BodyText &, const Op &);
constexpr auto kValues = tableByKind([](auto kind) -> ValueFn {
  constexpr OpKind K = decltype(kind)::value;
  if constexpr (isElementwise(K))
    return &functorValue;
  else if constexpr (opCategory(K) == OpCategory::ElementwiseOther)
    return &otherValue<K>;
  else if constexpr (K == OpKind::Constant)
    return &constantValue;
  else
    return nullptr; // not a scalar op: verify refuses it in a body
});

/// The statements of `body`'s ops; `names` maps the body's values to C++
/// names (its arguments are given).
std::string bodyStatements(const Graph &graph, const Region &body,
                           std::map<ValueId, std::string> &names) {
  const BodyText text{graph, names};
  CodeWriter code;
  for (const Op &op : body.ops) {
    const ValueFn value = entryFor(kValues, op.kind);
    SHARDGEN_CHECK(value != nullptr,
                   "a scalar body holds " + std::string(op.name()) + " (verify refuses it)");
    const ValueId result = op.results[0];
    std::string name = "v" + str(static_cast<int64_t>(names.size()));
    code.lines("const " + std::string(storageType(text.typeOf(result))) + " " + name + " = " +
               value(text, op) + ";");
    names[result] = name;
  }
  return code.take();
}

/// One body application per element: `acc_i = body(acc..., x...)`, the
/// elements read by `element(i)`.
template <typename Element>
std::string applyBody(const std::string &body, size_t n, Element element) {
  std::string accumulators, elements, results;
  for (size_t i = 0; i < n; ++i) {
    const std::string k = str(static_cast<int64_t>(i));
    accumulators += "acc" + k + ", ";
    elements += element(k) + ", ";
    results += (i ? ", acc" : "acc") + k;
  }
  return body + "::apply(" + accumulators + elements + results + ");";
}

/// A body's loop over a reduce's local pieces: per output element (`kept`)
/// the accumulators start at the inits, then take each reduced element in
/// row-major order (`reduced`), as the interpreter folds.
std::string reduceLoop(const std::string &body, const std::vector<std::string> &storage,
                       const std::vector<std::string> &buffers, const std::string &kept,
                       const std::string &reduced) {
  const size_t n = storage.size(); // buffers: inputs, inits, outputs
  CodeWriter code;
  {
    auto scope = code.block();
    for (size_t i = 0; i < n; ++i) {
      const std::string k = str(static_cast<int64_t>(i));
      code.lines("const auto *in" + k + " = as<" + storage[i] + ">(" + buffers[i] + ");");
      code.lines("auto *out" + k + " = as<" + storage[i] + ">(" + buffers[2 * n + i] + ");");
    }
    auto outer = code.block("forEach<" + kept + ">(0, 0, [&](int64_t base, int64_t o)", "});");
    for (size_t i = 0; i < n; ++i)
      code.lines(storage[i] + " acc" + str(static_cast<int64_t>(i)) + " = loadAt(as<" + storage[i] +
                 ">(" + buffers[n + i] + "), 0);");
    {
      auto inner = code.block("forEach<" + reduced + ">(base, 0, [&](int64_t i, int64_t)", "});");
      code.lines(applyBody(body, n, [](const std::string &k) { return "loadAt(in" + k + ", i)"; }));
    }
    for (size_t i = 0; i < n; ++i)
      code.lines("storeAt(out" + str(static_cast<int64_t>(i)) + ", o, acc" +
                 str(static_cast<int64_t>(i)) + ");");
  }
  return code.take();
}

/// A walk's template arguments: "R, Walk<R>{...}" (one of no elements for
/// a walk with an empty dim: a reduction over nothing yields its inits).
std::string walkArguments(const StridedWalk &walk) {
  if (walk.empty())
    return "1, Walk<1>{{0}, {0}, {0}, 0, 0}";
  const StridedWalk simple = walk.simplified();
  return str(static_cast<int64_t>(simple.extents.size())) + ", " + simple.print();
}

} // namespace

std::string scalarBodyStruct(EmitterContext &context, const Region &body) {
  const Graph &graph = *context.program.graph;
  std::map<ValueId, std::string> names;
  // An argument the body never reads (a sort comparator's payload inputs)
  // stays unnamed: generated code builds without warnings.
  std::set<ValueId> read;
  for (const Op &op : body.ops)
    read.insert(op.operands.begin(), op.operands.end());
  for (const RegionResult &result : body.results)
    read.insert(result.value);
  std::string parameters;
  for (size_t i = 0; i < body.args.size(); ++i) {
    const ValueId v = body.args[i].value;
    names[v] = "a" + str(static_cast<int64_t>(i));
    parameters += std::string(i ? ", " : "") + std::string(storageType(graph.type(v).elementType)) +
                  (read.count(v) ? " " + names[v] : "");
  }
  const std::string statements = bodyStatements(graph, body, names);
  std::string assignments;
  for (size_t j = 0; j < body.results.size(); ++j) {
    const ValueId v = body.results[j].value;
    parameters += ", " + std::string(storageType(graph.type(v).elementType)) + " &r" +
                  str(static_cast<int64_t>(j));
    assignments += "r" + str(static_cast<int64_t>(j)) + " = " + names.at(v) + ";\n";
  }
  CodeWriter code;
  {
    auto scope = code.block("static SHARDGEN_INLINE void apply(" + parameters + ")");
    code.lines(statements + assignments);
  }
  return context.constant("Body", "struct ", " {\n" + indented(code.take(), 2) + "};");
}

void emitReduceRegion(EmitterContext &context, const SpmdStep &step) {
  const Op &op = *step.op;
  const auto &dims = op.attr<ReduceAttrs>().dimensions;
  const size_t n = step.outputs.size();
  const std::string body = scalarBodyStruct(context, *op.body());
  std::vector<std::string> storage, buffers;
  for (size_t i = 0; i < n; ++i)
    storage.emplace_back(storageType(context.elementType(step.outputs[i])));
  std::vector<SpmdValueId> ids = step.inputs;
  ids.insert(ids.end(), step.outputs.begin(), step.outputs.end());
  for (SpmdValueId id : ids)
    buffers.push_back(EmitterContext::buffer(id));
  context.addPerPieceShape(ids, [&](int64_t d) -> std::string {
    const Shape in = context.localShape(step.inputs[0], d);
    const std::vector<int64_t> inStrides = denseStrides(in);
    StridedWalk kept, reduced;
    for (size_t dim = 0; dim < in.size(); ++dim) {
      const bool isReduced =
          std::find(dims.begin(), dims.end(), static_cast<int64_t>(dim)) != dims.end();
      StridedWalk &walk = isReduced ? reduced : kept;
      walk.extents.push_back(in[dim]);
      walk.inStrides.push_back(inStrides[dim]);
    }
    if (kept.empty()) // no output element here
      return "";
    kept.outStrides = denseStrides(kept.extents);
    reduced.outStrides.assign(reduced.extents.size(), 0);
    return reduceLoop(body, storage, buffers, walkArguments(kept), walkArguments(reduced));
  });
}

void emitRegionAllReduce(EmitterContext &context, const SpmdStep &step) {
  const SpmdProgram &program = context.program;
  const Mesh &mesh = program.mesh;
  const size_t n = step.inputs.size();
  const std::string body = scalarBodyStruct(context, *step.op->body());
  // The runtime gathers over whole axes; a group over sub-axes folds only
  // its own members' slots.
  std::vector<AxisRef> whole;
  std::vector<std::string> names;
  for (const AxisRef &axis : step.axes)
    if (std::find(names.begin(), names.end(), axis.name) == names.end()) {
      names.push_back(axis.name);
      whole.push_back(AxisRef::full(axis.name));
    }
  const std::string list = context.axisList(names);
  const int64_t slots = axesSize(mesh, whole);
  auto memberSlots = [&](int64_t d) {
    std::vector<int64_t> out;
    for (int64_t member : groupDevices(mesh, step.axes, d))
      out.push_back(indexOverAxes(mesh, whole, member));
    return out;
  };
  std::vector<SpmdValueId> ids = step.inputs;
  ids.insert(ids.end(), step.outputs.begin(), step.outputs.end());
  context.addPerDevice(
      [&](int64_t d, std::vector<int64_t> &key) {
        context.pieceKey(ids, d, key);
        std::vector<int64_t> members = memberSlots(d);
        key.insert(key.end(), members.begin(), members.end());
      },
      [&](int64_t d) -> std::string {
        const int64_t count = product(context.localShape(step.inputs[0], d));
        if (count == 0)
          return "";
        const std::vector<int64_t> members = memberSlots(d);
        CodeWriter code;
        {
          auto scope = code.block();
          code.lines("static constexpr int64_t kMembers[] = {" + joinInts(members) + "};");
          std::string stores;
          for (size_t i = 0; i < n; ++i) {
            const std::string k = str(static_cast<int64_t>(i));
            const ElementType type = context.elementType(step.inputs[i]);
            const std::string s(storageType(type));
            const int64_t bytes = count * static_cast<int64_t>(elementByteWidth(type));
            code.lines("Scratch gathered" + k + "(" + str(bytes * slots) + ");");
            code.lines("rt::allGather(device, " + list + ", " +
                       std::string(runtimeElementType(type)) + ", " + dimView({count}, 0) + ", " +
                       EmitterContext::buffer(step.inputs[i]) + ", gathered" + k + ".data);");
            code.lines("const auto *part" + k + " = as<" + s + ">(gathered" + k + ".data);");
            stores += "storeAt(as<" + s + ">(" + EmitterContext::buffer(step.outputs[i]) +
                      "), e, acc" + k + ");\n";
          }
          // Each element group folded in group position order, the first
          // member's partials the first accumulators.
          auto loop = code.block("for (int64_t e = 0; e < " + str(count) + "; ++e)");
          for (size_t i = 0; i < n; ++i) {
            const std::string k = str(static_cast<int64_t>(i));
            code.lines(std::string(storageType(context.elementType(step.inputs[i]))) + " acc" + k +
                       " = loadAt(part" + k + ", kMembers[0] * " + str(count) + " + e);");
          }
          {
            auto fold = code.block("for (int64_t p = 1; p < " +
                                   str(static_cast<int64_t>(members.size())) + "; ++p)");
            code.lines(applyBody(body, n, [&](const std::string &k) {
              return "loadAt(part" + k + ", kMembers[p] * " + str(count) + " + e)";
            }));
          }
          code.lines(stores);
        }
        return code.take();
      });
}

} // namespace shardgen::codegen
