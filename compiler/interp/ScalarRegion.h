#pragma once
// The general scalar-region path of the interpreter: a scalar body (a
// reduce's, later a sort comparator or a scatter combiner) compiled once into
// steps on a file of scalar registers, then run on one element group at a
// time. Each step is the op's scalar function from ElementFunctions.h on the
// element type's compute type, rounded to the element type as the tensor
// kernels round each op's result, so a body gives the same bits as its ops
// run on tensors.

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen::interp {

class ScalarRegion {
public:
  /// `region`: a verified scalar body (rank-0 arguments, per-element ops
  /// and constants).
  ScalarRegion(const Graph &graph, const Region &region);

  size_t numArguments() const { return argumentSlots_.size(); }
  size_t numResults() const { return resultSlots_.size(); }

  /// Runs the body once. A scalar is the bits of its element's storage type
  /// in the low bytes of a uint64_t (the rest zero): `arguments` one per
  /// region argument, `results` one per returned value.
  void run(std::span<const uint64_t> arguments, std::span<uint64_t> results) const;

  /// One step: reads its operand registers, writes its result register.
  using StepFn = void (*)(uint64_t *registers, const int32_t *slots);
  struct Step {
    StepFn fn = nullptr;
    int32_t slots[4] = {}; // operand registers, then the result's
  };

private:
  std::vector<Step> steps_;
  std::vector<int32_t> argumentSlots_, resultSlots_;
  /// Constants' registers hold their bits from the start.
  std::vector<uint64_t> initial_;
  mutable std::vector<uint64_t> registers_;
};

/// A scalar's bits (the element's storage) read from and written to a
/// tensor's buffer.
uint64_t loadScalarBits(const Literal &tensor, int64_t index);
void storeScalarBits(Literal &tensor, int64_t index, uint64_t bits);

} // namespace shardgen::interp
