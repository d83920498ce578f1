#pragma once
// The op table's Eval column (compiler/ops/Ops.def): every op's kernel, with
// one signature for the ops that run on each device's values and for the
// collectives, which run for every device of a grid at once. The kernels of
// the first kind are in LocalOps.cpp, the collectives' in Collectives.cpp;
// a row naming a kernel that is defined nowhere fails the link.

#include <vector>

#include "compiler/interp/DeviceGrid.h"
#include "compiler/ir/Graph.h"
#include "compiler/ir/Literal.h"
#include "runtime/include/shardgen/custom_call.h"

namespace shardgen::interp::kernels {

/// What a kernel runs on: one device's operands (an op run on each device:
/// `grid` is null), or every device's (a collective).
struct KernelInputs {
  const Graph *graph = nullptr; // the op's graph (an op run on each device)
  const Op &op;
  std::vector<const Literal *> operands;
  shardgen_custom_call_fn customCall = nullptr; // a custom_call's resolved target
  const DeviceGrid *grid = nullptr;
  std::vector<const PerDevice *> deviceOperands;

  bool onGrid() const { return grid != nullptr; }
};

// An op run on each device gives its results; a collective (one result)
// gives that result on every device of the grid.
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, Eval, ...)                                                               \
  std::vector<Literal> Eval(const KernelInputs &in);
#include "compiler/ops/Ops.def"

/// The kernel of `in.op`'s row.
std::vector<Literal> runKernel(const KernelInputs &in);

} // namespace shardgen::interp::kernels
