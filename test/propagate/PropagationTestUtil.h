#pragma once
// Helpers for propagation tests: build a verified graph from JSON written
// compactly in the test, propagate it, and read a value's sharding as text.

#include <string>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/ir/Sharding.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"

namespace shardgen::testing {

inline Graph loadGraph(const std::string &json) {
  Graph graph = readGraph(json);
  verifyGraph(graph);
  return graph;
}

/// A graph with one mesh `mesh` = [meshAxes], and the given inputs, ops and
/// outputs (JSON arrays' contents).
inline std::string graphJson(const std::string &meshAxes, const std::string &inputs,
                             const std::string &ops, const std::string &outputs) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [{"name": "mesh", "axes": [)" +
         meshAxes + R"(]}], "inputs": [)" + inputs + R"(], "ops": [)" + ops + R"(], "outputs": [)" +
         outputs + "]}";
}

inline ValueId valueNamed(const Graph &graph, const std::string &name) {
  for (size_t v = 0; v < graph.values.size(); ++v)
    if (graph.values[v].name == name)
      return static_cast<ValueId>(v);
  throw std::runtime_error("no value " + name);
}

/// Propagates and returns the result; the graph gets the shardings written.
struct Propagated {
  Graph graph;
  PropagationResult result;

  std::string sharding(const std::string &name) const {
    return printSharding(result.shardingOf(valueNamed(graph, name)));
  }
  std::string output(size_t index) const { return printSharding(result.outputShardings[index]); }
  std::string origin(const std::string &name) const {
    return result.origins[valueNamed(graph, name)].str();
  }
};

inline Propagated propagate(const std::string &json,
                            PropagationStrategy strategy = PropagationStrategy::UserPriority) {
  Propagated p{loadGraph(json), {}};
  p.result = propagateShardings(p.graph, strategy);
  return p;
}

} // namespace shardgen::testing
