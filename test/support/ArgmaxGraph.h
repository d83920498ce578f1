#pragma once
// jnp.argmax as a graph: a reduce of the values and their indices (an iota)
// whose body keeps the larger value (a NaN wins) and, on a tie, the smaller
// index. Shared by the suites that run it (interpreter, tool).

#include <string>

namespace shardgen::testing {

/// argmax over `dims` ("[1]") of x (`type`, e.g. "tensor<4x16xf32>", with
/// `sharding` JSON-escaped or empty) with indices from input `index`
/// (`indexType`) or, when `indexType` is empty, an iota over dim 1; results
/// `best` (`valueType`) and `token` (`tokenType`); mesh data=2, model=2.
inline std::string argmaxGraph(const std::string &type, const std::string &sharding,
                               const std::string &indexType, const std::string &dims,
                               const std::string &valueType, const std::string &tokenType) {
  const std::string index = indexType.empty() ? R"({"op": "iota", "result": "index", "type": ")" +
                                                    type.substr(0, type.size() - 4) +
                                                    R"(i32>", "iota_dimension": 1},)"
                                              : "";
  return R"({"format": "shardgen-graph", "version": 1, "name": "argmax",
  "meshes": [{"name": "mesh", "axes": [{"name": "data", "size": 2}, {"name": "model", "size": 2}]}],
  "inputs": [{"name": "x", "type": ")" +
         type + "\"" + (sharding.empty() ? "" : R"(, "sharding": ")" + sharding + "\"") + "}" +
         (indexType.empty() ? "" : R"(, {"name": "index", "type": ")" + indexType + "\"}") +
         R"(],
  "ops": [)" +
         index +
         R"(
    {"op": "constant", "result": "lowest", "value": "-inf", "type": "tensor<f32>"},
    {"op": "constant", "result": "zero", "value": 0, "type": "tensor<i32>"},
    {"op": "reduce", "operands": ["x", "index", "lowest", "zero"], "results": ["best", "token"],
     "types": [")" +
         valueType + R"(", ")" + tokenType + R"("], "dimensions": )" + dims + R"(,
     "body": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "ai", "type": "tensor<i32>"},
                       {"name": "b", "type": "tensor<f32>"}, {"name": "bi", "type": "tensor<i32>"}],
              "ops": [
                {"op": "compare", "operands": ["a", "b"], "result": "gt", "comparison_direction": "GT"},
                {"op": "compare", "operands": ["a", "a"], "result": "nan", "comparison_direction": "NE"},
                {"op": "or", "operands": ["gt", "nan"], "result": "pick"},
                {"op": "compare", "operands": ["a", "b"], "result": "eq", "comparison_direction": "EQ"},
                {"op": "compare", "operands": ["ai", "bi"], "result": "lt", "comparison_direction": "LT"},
                {"op": "and", "operands": ["eq", "lt"], "result": "tie"},
                {"op": "or", "operands": ["pick", "tie"], "result": "pickIndex"},
                {"op": "select", "operands": ["pick", "a", "b"], "result": "value"},
                {"op": "select", "operands": ["pickIndex", "ai", "bi"], "result": "position"}],
              "return": ["value", "position"]}}],
  "outputs": [{"value": "token"}, {"value": "best"}]})";
}

} // namespace shardgen::testing
