#pragma once
// Helpers for the interpreter tests: graphs from JSON text (read + verified
// like the tool does), literals from plain numbers, and results as numbers.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "compiler/frontend/GraphReader.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/TensorType.h"
#include "compiler/verify/Verifier.h"

namespace shardgen::test {

inline const double kNaN = std::numeric_limits<double>::quiet_NaN();
inline const double kInf = std::numeric_limits<double>::infinity();

inline Graph loadGraph(const std::string &json) {
  Graph graph = readGraph(json);
  verifyGraph(graph);
  return graph;
}

inline TensorType tensorType(const std::string &text) {
  std::string error;
  auto type = parseType(text, &error);
  REQUIRE_MESSAGE(type.has_value(), error);
  return *type;
}

/// A literal of `type` ("tensor<2x3xf32>") with the given values (converted
/// with Literal::setFloat, which wraps integers and rounds f16/bf16).
inline Literal literal(const std::string &type, const std::vector<double> &values) {
  Literal out(tensorType(type));
  REQUIRE(static_cast<int64_t>(values.size()) == out.numElements());
  for (size_t i = 0; i < values.size(); ++i)
    out.setFloat(static_cast<int64_t>(i), values[i]);
  return out;
}

/// Like literal() but through setInt, for 64-bit values doubles cannot hold.
inline Literal intLiteral(const std::string &type, const std::vector<int64_t> &values) {
  Literal out(tensorType(type));
  REQUIRE(static_cast<int64_t>(values.size()) == out.numElements());
  for (size_t i = 0; i < values.size(); ++i)
    out.setInt(static_cast<int64_t>(i), values[i]);
  return out;
}

inline std::vector<double> floats(const Literal &literal) {
  std::vector<double> out;
  for (int64_t i = 0; i < literal.numElements(); ++i)
    out.push_back(literal.getFloat(i));
  return out;
}

inline std::vector<int64_t> ints(const Literal &literal) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < literal.numElements(); ++i)
    out.push_back(literal.getInt(i));
  return out;
}

/// Evaluates a graph with one output and returns it.
inline Literal evalOne(const std::string &json, const std::vector<Literal> &inputs) {
  Graph graph = loadGraph(json);
  std::vector<Literal> outputs = evaluate(graph, inputs);
  REQUIRE(outputs.size() == 1);
  return outputs.front();
}

/// A graph `y = op(inputs...)` with the given input types, op attributes (a
/// JSON fragment starting with a comma, or empty) and optional result type.
inline std::string opGraph(const std::string &op, const std::vector<std::string> &inputTypes,
                           const std::string &attributes = "", const std::string &resultType = "") {
  std::string inputs, operands;
  for (size_t i = 0; i < inputTypes.size(); ++i) {
    std::string name = "a" + std::to_string(i);
    inputs += (i ? ", " : "") + std::string(R"({"name": ")") + name + R"(", "type": ")" +
              inputTypes[i] + R"("})";
    operands += (i ? ", " : "") + std::string("\"") + name + "\"";
  }
  std::string type = resultType.empty() ? "" : R"(, "type": ")" + resultType + "\"";
  return R"({"format": "shardgen-graph", "version": 1, "meshes": [], "inputs": [)" + inputs +
         R"(], "ops": [{"op": ")" + op + R"(", "operands": [)" + operands + R"(], "result": "y")" +
         type + attributes + R"(}], "outputs": [{"value": "y"}]})";
}

} // namespace shardgen::test
