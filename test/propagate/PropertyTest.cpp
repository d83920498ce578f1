// Properties on random valid graphs: propagating twice equals once, the
// result does not depend on the order of ops in the file (any topological
// order), and every written sharding passes the verifier.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

#include "compiler/ir/Diagnostic.h"
#include "test/propagate/PropagationTestUtil.h"
#include "test/support/RandomGraphGenerator.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

struct RandomOp {
  std::string json;
  std::vector<std::string> operands;
};

struct RandomGraph {
  std::vector<std::string> inputs;
  std::vector<RandomOp> ops;
  std::vector<std::string> outputs;
};

/// Generates graphs of 2-d tensors over a 2x2x2 mesh: elementwise ops,
/// transposes, matmuls, reshapes, reduce+broadcast, constraints, groups,
/// barriers, with random (valid) user shardings, open/closed, priorities.
class Generator {
public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  RandomGraph generate() {
    RandomGraph graph;
    int numInputs = pick(2, 4);
    for (int i = 0; i < numInputs; ++i) {
      Value v{"in" + std::to_string(i), shapes_[pick(0, 2)]};
      std::string sharding = chance(0.6) ? R"(, "sharding": ")" + randomSharding() + "\"" : "";
      graph.inputs.push_back(R"({"name": ")" + v.name + R"(", "type": ")" + type(v.shape) + "\"" +
                             sharding + "}");
      values_.push_back(v);
    }
    int numOps = pick(4, 14);
    for (int i = 0; i < numOps; ++i)
      graph.ops.push_back(randomOp("v" + std::to_string(i)));
    int numOutputs = pick(1, 3);
    for (int i = 0; i < numOutputs; ++i) {
      const Value &v = values_[pick(0, static_cast<int>(values_.size()) - 1)];
      std::string sharding = chance(0.3) ? R"(, "sharding": ")" + randomSharding() + "\"" : "";
      graph.outputs.push_back(R"({"value": ")" + v.name + "\"" + sharding + "}");
    }
    return graph;
  }

private:
  struct Value {
    std::string name;
    std::pair<int, int> shape;
  };

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  static std::string type(std::pair<int, int> shape) {
    return "tensor<" + std::to_string(shape.first) + "x" + std::to_string(shape.second) + "xf32>";
  }

  std::string randomSharding() {
    std::vector<std::string> axes = {"x", "y", "z"};
    std::shuffle(axes.begin(), axes.end(), rng_);
    size_t next = 0;
    std::string dims[2];
    for (auto &dim : dims) {
      std::vector<std::string> used;
      int count = pick(0, 2);
      for (int k = 0; k < count && next < axes.size(); ++k)
        used.push_back(axes[next++]);
      dim = "{";
      for (size_t k = 0; k < used.size(); ++k)
        dim += (k ? ", " : "") + used[k];
      bool open = chance(0.5);
      if (open)
        dim += used.empty() ? "?" : ", ?";
      dim += "}";
      if ((open || !used.empty()) && chance(0.2))
        dim += "p" + std::to_string(pick(0, 2));
    }
    return "<@mesh, [" + dims[0] + ", " + dims[1] + "]>";
  }

  const Value &anyValue() { return values_[pick(0, static_cast<int>(values_.size()) - 1)]; }

  RandomOp randomOp(const std::string &name) {
    const Value a = anyValue();
    std::string head = R"({"result": ")" + name + "\", ";
    std::string sharding = chance(0.15) ? R"(, "sharding": ")" + randomSharding() + "\"" : "";
    switch (pick(0, 8)) {
    case 0: {
      for (size_t i = 0; i < values_.size(); ++i)
        if (Value b = values_[i]; b.shape == a.shape && b.name != a.name) {
          values_.push_back({name, a.shape});
          return {head + R"("op": "add", "operands": [")" + a.name + R"(", ")" + b.name + "\"]" +
                      sharding + "}",
                  {a.name, b.name}};
        }
      [[fallthrough]];
    }
    case 1:
      values_.push_back({name, a.shape});
      return {head + R"("op": "tanh", "operands": [")" + a.name + "\"]" + sharding + "}", {a.name}};
    case 2:
      values_.push_back({name, {a.shape.second, a.shape.first}});
      return {head + R"("op": "transpose", "operands": [")" + a.name +
                  R"("], "permutation": [1, 0])" + sharding + "}",
              {a.name}};
    case 3: {
      for (size_t i = 0; i < values_.size(); ++i)
        if (Value b = values_[i]; b.shape.first == a.shape.second) {
          values_.push_back({name, {a.shape.first, b.shape.second}});
          return {
              head + R"("op": "dot_general", "operands": [")" + a.name + R"(", ")" + b.name +
                  R"("], "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0])" +
                  sharding + "}",
              {a.name, b.name}};
        }
      values_.push_back({name, a.shape});
      return {head + R"("op": "negate", "operands": [")" + a.name + "\"]" + sharding + "}",
              {a.name}};
    }
    case 4: {
      std::pair<int, int> shape = {a.shape.first * 2, a.shape.second / 2};
      values_.push_back({name, shape});
      return {head + R"("op": "reshape", "operands": [")" + a.name + R"("], "type": ")" +
                  type(shape) + "\"" + sharding + "}",
              {a.name}};
    }
    case 5: {
      std::pair<int, int> shape = {a.shape.first, 4};
      values_.push_back({name, shape});
      // reduce + broadcast as one op pair is awkward to shuffle; use a
      // broadcast of a slice-free reduce via dot with itself instead.
      return {head + R"("op": "slice", "operands": [")" + a.name +
                  R"("], "start_indices": [0, 0], "limit_indices": [)" +
                  std::to_string(a.shape.first) + R"(, 4])" + sharding + "}",
              {a.name}};
    }
    case 6:
      values_.push_back({name, a.shape});
      return {head + R"("op": "sharding_constraint", "operands": [")" + a.name +
                  R"("], "sharding": ")" + randomSharding() + "\"}",
              {a.name}};
    case 7: {
      values_.push_back({name, a.shape});
      const char *directions[] = {"NONE", "FORWARD", "BACKWARD", "BOTH"};
      return {head + R"("op": "propagation_barrier", "operands": [")" + a.name +
                  R"("], "allowed_direction": ")" + directions[pick(0, 3)] + "\"}",
              {a.name}};
    }
    default: {
      values_.push_back({name, a.shape});
      // The value joins a group; a second op keeps the op count honest.
      return {R"({"op": "sharding_group", "operands": [")" + a.name + R"("], "group_id": )" +
                  std::to_string(pick(0, 1)) + R"(}, {"result": ")" + name +
                  R"(", "op": "abs", "operands": [")" + a.name + "\"]}",
              {a.name}};
    }
    }
  }

  std::mt19937 rng_;
  std::vector<Value> values_;
  const std::pair<int, int> shapes_[3] = {{8, 8}, {8, 16}, {16, 8}};
};

std::string toJson(const RandomGraph &graph, const std::vector<size_t> &order) {
  auto join = [](const std::vector<std::string> &items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
      out += (i ? ", " : "") + items[i];
    return out;
  };
  std::vector<std::string> ops;
  for (size_t index : order)
    ops.push_back(graph.ops[index].json);
  return graphJson(
      R"({"name": "x", "size": 2}, {"name": "y", "size": 2}, {"name": "z", "size": 2})",
      join(graph.inputs), join(ops), join(graph.outputs));
}

/// A random topological order: ops become ready once their operands exist.
std::vector<size_t> shuffledOrder(const RandomGraph &graph, std::mt19937 &rng) {
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    auto at = graph.ops[i].json.find(R"("result": ")");
    auto start = at + 11;
    producer[graph.ops[i].json.substr(start, graph.ops[i].json.find('"', start) - start)] = i;
  }
  std::vector<bool> placed(graph.ops.size(), false);
  std::vector<size_t> order;
  while (order.size() < graph.ops.size()) {
    std::vector<size_t> ready;
    for (size_t i = 0; i < graph.ops.size(); ++i) {
      if (placed[i])
        continue;
      bool ok = true;
      for (const auto &operand : graph.ops[i].operands)
        if (auto it = producer.find(operand); it != producer.end() && !placed[it->second])
          ok = false;
      if (ok)
        ready.push_back(i);
    }
    size_t chosen = ready[std::uniform_int_distribution<size_t>(0, ready.size() - 1)(rng)];
    placed[chosen] = true;
    order.push_back(chosen);
  }
  return order;
}

std::map<std::string, std::string> shardingsByName(const Graph &graph,
                                                   const PropagationResult &result) {
  std::map<std::string, std::string> out;
  for (size_t v = 0; v < graph.values.size(); ++v)
    out[graph.values[v].name] = printSharding(result.shardingOf(static_cast<ValueId>(v)));
  for (size_t i = 0; i < result.outputShardings.size(); ++i)
    out["output " + std::to_string(i)] = printSharding(result.outputShardings[i]);
  return out;
}

/// Every sharding `propagate` wrote passes the verifier: inputs, outputs, op
/// results, manual bodies' arguments and returns, in/out shardings.
void verifyAll(const Graph &graph) {
  auto check = [&](const std::optional<TensorSharding> &sharding, ValueId value,
                   const std::string &pointer) {
    CAPTURE(pointer);
    CHECK(sharding.has_value());
    if (sharding)
      CHECK_NOTHROW(verifySharding(*sharding, graph.type(value), graph, pointer));
  };
  auto checkRegion = [&](const Region &region) {
    for (const auto &arg : region.args)
      check(arg.sharding, arg.value, arg.pointer);
    for (const auto &result : region.results)
      if (result.sharding) // body returns carry none unless the user wrote one
        check(result.sharding, result.value, result.pointer);
  };
  checkRegion(graph.main);
  walkOps(graph.main, [&](const Op &op) {
    for (size_t j = 0; j < op.results.size(); ++j)
      check(op.shardings[j], op.results[j], op.pointer);
    if (op.kind != OpKind::ManualComputation)
      return;
    const auto &attrs = op.attr<ManualComputationAttrs>();
    for (size_t j = 0; j < attrs.inShardings.size() && j < op.operands.size(); ++j)
      check(attrs.inShardings[j], op.operands[j], op.pointer + "/in_shardings");
    for (size_t j = 0; j < attrs.outShardings.size() && j < op.results.size(); ++j)
      check(attrs.outShardings[j], op.results[j], op.pointer + "/out_shardings");
    checkRegion(*op.body());
  });
}

constexpr PropagationStrategy kStrategies[] = {
    PropagationStrategy::Basic, PropagationStrategy::Aggressive, PropagationStrategy::OpPriority,
    PropagationStrategy::UserPriority};

} // namespace

TEST_CASE("random graphs: idempotent, independent of op order, verifier-clean") {
  std::mt19937 shuffleRng(7);
  int checked = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    RandomGraph random = Generator(seed).generate();
    std::vector<size_t> identity(random.ops.size());
    for (size_t i = 0; i < identity.size(); ++i)
      identity[i] = i;
    std::string json = toJson(random, identity);
    Graph graph;
    try {
      graph = loadGraph(json);
    } catch (const GraphError &) {
      // The generator may produce an invalid corner (e.g. a group of mixed
      // shapes); such graphs are not what the properties are about.
      continue;
    }
    for (auto strategy : kStrategies) {
      CAPTURE(seed);
      CAPTURE(strategyName(strategy));
      CAPTURE(json);
      PropagationResult result = propagateShardings(graph, strategy);
      auto expected = shardingsByName(graph, result);

      Graph applied = loadGraph(json);
      applyPropagation(applied, propagateShardings(applied, strategy));
      std::string once = writeGraph(applied);
      Graph reread = loadGraph(once);
      verifyAll(reread);
      PropagationResult again = propagateShardings(reread, strategy);
      CHECK(shardingsByName(reread, again) == expected);
      applyPropagation(reread, again);
      CHECK(writeGraph(reread) == once);

      for (int shuffle = 0; shuffle < 3; ++shuffle) {
        Graph shuffled = loadGraph(toJson(random, shuffledOrder(random, shuffleRng)));
        CHECK(shardingsByName(shuffled, propagateShardings(shuffled, strategy)) == expected);
      }
    }
    ++checked;
  }
  CHECK(checked >= 150);
}

// The shared generator's graphs (test/support) add what the one above lacks:
// ranks 0-4, size-1 dims and mesh axes, uneven dims, every op of the spec,
// manual computations (nested), constraints and groups.
TEST_CASE("shared random graphs: written shardings verify, propagate is idempotent") {
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    std::string json = randomGraphJson(seed);
    for (auto strategy : kStrategies) {
      CAPTURE(seed);
      CAPTURE(strategyName(strategy));
      Graph graph = loadGraph(json);
      applyPropagation(graph, propagateShardings(graph, strategy));
      std::string once = writeGraph(graph);
      verifyAll(graph);
      // What `shardgen propagate` writes reads back and propagates to itself.
      Graph reread;
      bool readBack = false;
      CHECK_NOTHROW((reread = loadGraph(once), readBack = true));
      if (!readBack)
        continue;
      applyPropagation(reread, propagateShardings(reread, strategy));
      CHECK(writeGraph(reread) == once);
    }
  }
}
