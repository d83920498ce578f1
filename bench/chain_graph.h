#pragma once
// The layer chains the benches build (one generator for compile_scaling,
// propagation and run_latency): h = tanh(h . w_i + b_i) per layer, or with
// a scale, h = tanh((h . w_i + b_i) * s_i); every layer has its own weights,
// the input's batch is sharded on `data`.

#include <cstdint>
#include <string>

namespace shardgen::bench {

struct ChainSpec {
  int64_t layers = 1;
  int64_t dataSize = 2;            // mesh axis "data"
  int64_t modelSize = 2;           // mesh axis "model"
  std::string batchShape = "8x16"; // x, the biases, the scales and h
  std::string weightShape = "16x16";
  bool shardWeights = false; // alternately column- and row-sharded on `model`
  bool scale = false;        // the multiply by s_i
  int64_t opsPerLayer() const { return scale ? 4 : 3; }
};

/// The chain as a shardgen graph (JSON), named "chain".
std::string chainGraphJson(const ChainSpec &spec);

/// The weight sharding of `layer` when spec.shardWeights: "[{}, {model}]"
/// on even layers, "[{model}, {}]" on odd ones (as mesh axis lists).
bool weightShardedOnColumns(int64_t layer);

} // namespace shardgen::bench
