#pragma once
// The general scalar-region path of the interpreter: a scalar body (a
// reduce's, later a sort comparator or a scatter combiner) compiled once into
// steps on a file of scalar registers, then run on one element group at a
// time. Each step is the op's scalar function from ElementFunctions.h on the
// element type's compute type, rounded to the element type as the tensor
// kernels round each op's result, so a body gives the same bits as its ops
// run on tensors. A register is 8 bytes, or 16 in a body holding a
// complex<f64> value (the widest element); scalars pass in and out as
// 16-byte ScalarBits.

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen::interp {

/// A scalar: the bits of its element's storage type in the low bytes (the
/// rest zero). A predicate is 0 or 1 in words[0].
struct ScalarBits {
  uint64_t words[2] = {0, 0};

  bool isTrue() const { return (words[0] & 1) != 0; }
  friend bool operator==(const ScalarBits &, const ScalarBits &) = default;
};

class ScalarRegion {
public:
  /// `region`: a verified scalar body (rank-0 arguments, per-element ops
  /// and constants).
  ScalarRegion(const Graph &graph, const Region &region);

  size_t numArguments() const { return argumentSlots_.size(); }
  size_t numResults() const { return resultSlots_.size(); }

  /// Runs the body once: `arguments` one per region argument, `results` one
  /// per returned value.
  void run(std::span<const ScalarBits> arguments, std::span<ScalarBits> results) const;

  /// One step: reads its operand registers, writes its result register
  /// (registers of uint64_t, or of ScalarBits in a wide body).
  using StepFn = void (*)(void *registers, const int32_t *slots);
  struct Step {
    StepFn fn = nullptr;
    int32_t slots[4] = {}; // operand registers, then the result's
  };

private:
  template <typename R>
  void runOn(R *registers, std::span<const ScalarBits> arguments,
             std::span<ScalarBits> results) const;

  /// A body holding a complex<f64> value runs on 16-byte registers, any
  /// other on 8-byte ones.
  bool wide_ = false;
  std::vector<Step> steps_;
  std::vector<int32_t> argumentSlots_, resultSlots_;
  /// Constants' registers hold their bits from the start.
  std::vector<ScalarBits> initial_;
  mutable std::vector<uint64_t> narrowRegisters_;
  mutable std::vector<ScalarBits> wideRegisters_;
};

/// A scalar's bits (the element's storage) read from and written to a
/// tensor's buffer.
ScalarBits loadScalarBits(const Literal &tensor, int64_t index);
void storeScalarBits(Literal &tensor, int64_t index, ScalarBits bits);

} // namespace shardgen::interp
