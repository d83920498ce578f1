#include "bench/chain_graph.h"

namespace shardgen::bench {

bool weightShardedOnColumns(int64_t layer) { return layer % 2 == 0; }

std::string chainGraphJson(const ChainSpec &spec) {
  const std::string batch = "tensor<" + spec.batchShape + "xf32>";
  const std::string weight = "tensor<" + spec.weightShape + "xf32>";
  std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "chain",
 "meshes": [{"name": "mesh", "axes": [{"name": "data", "size": )" +
                     std::to_string(spec.dataSize) + R"(}, {"name": "model", "size": )" +
                     std::to_string(spec.modelSize) +
                     R"(}]}],
 "inputs": [{"name": "x", "type": ")" +
                     batch + R"(", "sharding": "<@mesh, [{\"data\"}, {}]>"})";
  for (int64_t i = 0; i < spec.layers; ++i) {
    std::string n = std::to_string(i);
    std::string sharding;
    if (spec.shardWeights)
      sharding = std::string(", \"sharding\": \"") +
                 (weightShardedOnColumns(i) ? R"(<@mesh, [{}, {\"model\"}]>)"
                                            : R"(<@mesh, [{\"model\"}, {}]>)") +
                 "\"";
    json += ",\n  {\"name\": \"w" + n + "\", \"type\": \"" + weight + "\"" + sharding + "}";
    json += ",\n  {\"name\": \"b" + n + "\", \"type\": \"" + batch + "\"}";
    if (spec.scale)
      json += ",\n  {\"name\": \"s" + n + "\", \"type\": \"" + batch + "\"}";
  }
  json += "],\n \"ops\": [";
  std::string h = "x";
  for (int64_t i = 0; i < spec.layers; ++i) {
    std::string n = std::to_string(i);
    json += std::string(i ? "," : "") + "\n  {\"op\": \"dot_general\", \"operands\": [\"" + h +
            "\", \"w" + n + "\"], \"result\": \"m" + n +
            "\", \"lhs_contracting_dimensions\": [1], \"rhs_contracting_dimensions\": [0]}";
    json += ",\n  {\"op\": \"add\", \"operands\": [\"m" + n + "\", \"b" + n +
            "\"], \"result\": \"a" + n + "\"}";
    std::string activated = "a" + n;
    if (spec.scale) {
      json += ",\n  {\"op\": \"multiply\", \"operands\": [\"a" + n + "\", \"s" + n +
              "\"], \"result\": \"p" + n + "\"}";
      activated = "p" + n;
    }
    json += ",\n  {\"op\": \"tanh\", \"operands\": [\"" + activated + "\"], \"result\": \"h" + n +
            "\"}";
    h = "h" + n;
  }
  return json + "],\n \"outputs\": [{\"value\": \"" + h + "\"}]}\n";
}

} // namespace shardgen::bench
