#pragma once
// How the dot kernel (templates/kernels/dot.h) reads dot_general's operands:
// lhs as [batch, free, contracting], rhs as [batch, contracting, free] or,
// transposed, [batch, free, contracting]; each as rows of its last group of
// dims. Shared by the dot's emitter (ComputeEmitter.cpp) and the inputs it
// reads in place with a row stride (InputBinding.h).

#include <cstdint>
#include <vector>

#include "compiler/ir/Attributes.h"

namespace shardgen::codegen {

struct DotOperandOrder {
  /// Each operand's dims in the kernel's order: an operand whose order is
  /// not the identity is permuted into a scratch first.
  std::vector<int64_t> lhs, rhs;
  /// The kernel packs B from [batch, free, contracting] (q k^T): such an rhs
  /// is read in place, and one that needs a copy anyway is copied into that
  /// form when it keeps the innermost dim innermost (whole rows move, not
  /// single elements).
  bool transposedRhs = false;
};

DotOperandOrder dotOperandOrder(const DotGeneralAttrs &attrs, int64_t lhsRank, int64_t rhsRank);

/// The first dim of operand `operand`'s (0: lhs, 1: rhs) kernel rows, in its
/// dims as given: its dims from there on make one row of the kernel's
/// [rows, row] view of it (lhs: the contracting dims; rhs: the free dims, or
/// the contracting ones when transposed). Meaningful when the operand's
/// order is the identity.
int64_t dotRowSplit(const DotGeneralAttrs &attrs, const DotOperandOrder &order, size_t operand);

bool isIdentityOrder(const std::vector<int64_t> &order);

} // namespace shardgen::codegen
