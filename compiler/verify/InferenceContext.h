#pragma once
// What a type inference rule sees of one op: its operands' types, declared
// result types, attributes, enclosing manual axes, and how to report errors
// at the op or at one of its keys.

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Graph.h"
#include "compiler/verify/ManualScope.h"
#include "compiler/verify/VerifyUtil.h"

namespace shardgen::verify {

struct InferenceContext {
  const Graph &graph;
  const Op &op;
  const ManualScope &scope;

  size_t numOperands() const { return op.operands.size(); }
  const TensorType &operand(size_t index) const {
    const Value &value = graph.value(op.operands[index]);
    if (!value.type)
      fail(op.pointer, "operand \"" + value.name + "\" has no type yet");
    return *value.type;
  }
  UniquedOptional<TensorType> declared(size_t index) const {
    return index < op.declaredTypes.size() ? op.declaredTypes[index] : std::nullopt;
  }
  /// The declared type of result `index`, for ops that cannot infer it.
  const TensorType &requireDeclared(size_t index) const {
    if (index >= op.declaredTypes.size() || !op.declaredTypes[index])
      fail(op.pointer, opLabel() + " needs a `type`: its result type cannot be inferred");
    return *op.declaredTypes[index];
  }
  /// The op's attributes; the frontend guarantees the kind's struct.
  template <typename T> const T &attrs() const {
    if (const T *found = std::get_if<T>(&op.attrs.get()))
      return *found;
    fail(op.pointer, opLabel() + " is missing its attributes");
  }
  std::string opLabel() const { return quotedOpName(op); }
  [[noreturn]] void failOp(const std::string &message) const {
    fail(op.pointer, opLabel() + " " + message);
  }
  [[noreturn]] void failAttr(const std::string &key, const std::string &message) const {
    fail(attrPointer(op, key), opLabel() + " " + message);
  }
};

} // namespace shardgen::verify
