#pragma once
// Refusing runs that cannot fit before anything is allocated: the memory
// limit (`--max-memory SIZE`, the Python module's max_memory, or the
// machine's physical memory with a margin), what the interpreter and a
// compiled program need at their peak, and tensors whose size in bytes is
// not representable at all.

#include <cstdint>
#include <string>

#include "compiler/ir/Graph.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::driver {

/// "512M", "4G", "1.5G", "1024", "64KiB": bytes (K, M, G, T are powers of
/// 1024). Throws std::invalid_argument naming `option` on anything else.
int64_t parseByteSize(const std::string &text, const std::string &option);

/// "1.5 GiB".
std::string formatBytes(int64_t bytes);

struct MemoryLimit {
  int64_t bytes = 0;
  std::string origin; // "--max-memory 1M", "90% of this machine's 16 GiB"
};

/// The machine's memory (physical, or the cgroup's limit when lower) minus
/// a 10% margin: what a run may plan to use unless told otherwise.
MemoryLimit machineMemoryLimit();

/// What a run holds at its peak: the bytes, and the largest tensor then
/// live (what the error names).
struct MemoryDemand {
  int64_t bytes = 0;
  std::string pointer; // JSON pointer of the largest tensor
  std::string tensor;  // "\"c\" (tensor<4x8xf32>, 128 B)"
};

/// The unsharded interpreter over the graph (inputs, live values, outputs),
/// main region only: a lower bound for `eval`.
MemoryDemand interpreterDemand(const Graph &graph);

/// A partitioned run on the threads backend: every device's buffers at the
/// mesh-wide peak, plus the global inputs and outputs.
MemoryDemand meshRunDemand(const SpmdProgram &program);

/// Throws GraphError at the demand's tensor when it exceeds the limit
/// (`command` names what needs the memory: "run", "eval").
void requireFits(const std::string &command, const MemoryDemand &demand, const MemoryLimit &limit);

/// Adds without overflowing (saturates at INT64_MAX).
int64_t saturatingAdd(int64_t a, int64_t b);

} // namespace shardgen::driver
