#pragma once
// The one place that decides whether an AOT-built program's output matches
// the reference interpreter's: per element, |actual - expected| <= atol +
// rtol * |expected| with float tolerances per element type, integers and i1
// exactly, NaN equal to NaN, an infinity only to itself.

#include <string>

#include "compiler/ir/Literal.h"

namespace shardgen::testing {

struct Tolerance {
  double rtol = 0, atol = 0;
};

/// The tolerance of one element type (zero for integers and i1).
Tolerance elementTolerance(ElementType type);

/// "" when `actual` matches `expected`, else where and how it differs.
std::string compareElementwise(const Literal &actual, const Literal &expected);

} // namespace shardgen::testing
