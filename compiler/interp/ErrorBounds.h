#pragma once
// Error bounds the interpreter computes alongside its values (for `run
// --check`): per element, how far a correct compiled program's value may be
// from the interpreter's. A bound tensor is f64 with the value's shape; 0
// means the compiled code must give the same bits (it runs the same
// operations in the same order), +inf means the value is not determined
// (e.g. a comparison its inputs' error can flip).
//
// Sources of difference, each bounded where it arises and then propagated
// through the ops that follow (|f(x') - f(x)| over the operands' error
// intervals, plus one ulp of the result for the two roundings):
// - sums in a different order: dot_general, reduce and the collectives that
//   add (sharded partial sums), (2 n u(compute) + 2 u(type)) * sum |terms|;
// - a bf16 dot_general on vdpbf16ps (AVX512_BF16), which reads denormal
//   inputs as zero and flushes denormal partial sums to zero: the products
//   with a denormal factor, plus 2^-126 per term;
// - the vectorized f32 exp/tanh/logistic/log of the generated code: 8 ulp
//   of f32 (they are within 4 of libm), and 1 ulp for the other libm
//   functions.

#include <vector>

#include "compiler/interp/DeviceGrid.h"
#include "compiler/ir/Graph.h"
#include "compiler/ir/Literal.h"

namespace shardgen::interp {

/// All-zero bounds for a value of `shape`.
Literal exactBounds(const Shape &shape);
/// Unknown (infinite) bounds for a value of `shape`: any value is accepted.
Literal unknownBounds(const Shape &shape);

/// The bounds of a local op's results (on one device), by the op's row's
/// Bounds column (compiler/ops/Ops.def).
std::vector<Literal> localOpBounds(const Graph &graph, const Op &op,
                                   const std::vector<const Literal *> &operands,
                                   const std::vector<const Literal *> &operandBounds,
                                   const std::vector<Literal> &results);

/// The bounds of a collective's result on every device, by the same column.
PerDevice collectiveBounds(const Graph &graph, const Op &op, const DeviceGrid &grid,
                           const std::vector<const PerDevice *> &operands,
                           const std::vector<const PerDevice *> &operandBounds,
                           const PerDevice &results);

/// Adds the bound of summing `count` partial values whose magnitudes sum to
/// `magnitudes` (f64) into `bounds`, for a result with values `result`.
void addSumBound(Literal &bounds, const Literal &magnitudes, const Literal &result, int64_t count);

/// |x| as f64 (the magnitudes reorder bounds scale with).
Literal magnitudes(const Literal &x);

} // namespace shardgen::interp
