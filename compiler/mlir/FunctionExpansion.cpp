#include "compiler/mlir/FunctionExpansion.h"

#include "compiler/ir/Attributes.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Literal.h"
#include "compiler/mlir/DenseElements.h"
#include "compiler/mlir/MlirParser.h"

namespace shardgen::mlir {

namespace {

/// Every op of `block` and its regions, depth first.
void forEachOp(Block &block, const std::function<void(Operation &)> &fn) {
  for (Operation &op : block.ops) {
    fn(op);
    for (Block &region : op.regions)
      forEachOp(region, fn);
  }
}

void placeAttributeAt(Attribute &attr, const SourceLoc &loc) {
  attr.loc = loc;
  for (Attribute &element : attr.elements)
    placeAttributeAt(element, loc);
  for (NamedAttribute &field : attr.fields)
    placeAttributeAt(field.value, loc);
}

/// Gives every op (and nested op) of a generated function, its attributes,
/// types and block arguments the expanded op's place, so any later error
/// names it.
void placeAt(Block &block, const SourceLoc &loc) {
  block.loc = loc;
  for (BlockArgument &arg : block.args) {
    arg.loc = loc;
    arg.type.loc = loc;
  }
  for (Operation &op : block.ops) {
    op.loc = loc;
    for (ValueUse &use : op.operands)
      use.loc = loc;
    for (NamedAttribute &attr : op.attrs)
      placeAttributeAt(attr.value, loc);
    for (TypeRef &type : op.operandTypes)
      type.loc = loc;
    for (TypeRef &type : op.resultTypes)
      type.loc = loc;
    for (Block &region : op.regions)
      placeAt(region, loc);
  }
}

/// Parses `functionText`, gives its functions and their ops `op`'s place,
/// adds them to `added` and makes `op` a `func.call` of the first.
void replaceWithCall(Operation &op, const std::string &name, const std::string &functionText,
                     std::vector<Function> &added) {
  // The text is the op's meaning, so an error in it (a constant over the
  // size limit) is the op's, at its place.
  Module parsed;
  try {
    parsed = parseModule(functionText);
  } catch (const GraphError &error) {
    fail(op.loc.str(), error.what());
  }
  for (Function &function : parsed.functions) {
    function.loc = op.loc;
    for (BlockArgument &arg : function.args)
      arg.loc = op.loc;
    placeAt(function.body, op.loc);
    added.push_back(std::move(function));
  }
  Attribute callee = makeAttribute(Attribute::Kind::Symbol, op.loc, name);
  // The op's result shardings stay the call's (the importer makes them
  // sharding constraints on the inlined results); its other attributes
  // are the function's text now.
  std::vector<NamedAttribute> kept = {{"callee", callee}};
  if (const Attribute *shardings = op.find("sdy.sharding"))
    kept.push_back({"sdy.sharding", *shardings});
  op.name = "func.call";
  op.generic = false;
  op.attrs = std::move(kept);
}

} // namespace

std::string integerList(const std::vector<int64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

std::vector<int64_t> upTo(int64_t n) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(i);
  return values;
}

std::string zeroOf(ElementType type) {
  const TensorType scalar{type, {}};
  return printDenseBody(ConstantAttrs::splatOf(scalar, Literal(scalar)));
}

void expandEach(
    Module &module, const std::string &opName,
    const std::function<std::string(const Operation &op, const std::string &name)> &functionText) {
  expandEachMatching(
      module, [&](const Operation &op) { return op.name == opName; },
      [&](const Operation &) { return opName; }, functionText);
}

void expandEachMatching(
    Module &module, const std::function<bool(const Operation &op)> &matches,
    const std::function<std::string(const Operation &op)> &nameOf,
    const std::function<std::string(const Operation &op, const std::string &name)> &functionText) {
  std::vector<Function> added;
  int64_t count = 0;
  for (Function &fn : module.functions)
    forEachOp(fn.body, [&](Operation &op) {
      if (!matches(op))
        return;
      const std::string name = nameOf(op) + "." + std::to_string(++count);
      replaceWithCall(op, name, functionText(op, name), added);
    });
  for (Function &function : added)
    module.functions.push_back(std::move(function));
}

} // namespace shardgen::mlir
