#pragma once
// JAX's max of complex values as a scalar body's ops (jnp.max, cummax and
// argmax of complex arrays): the first argument `p` wins when its real part
// is larger, or equal with a larger imaginary part. Shared by the suites
// that interpret and compile it.

namespace shardgen::testing {

/// The ops (the inside of a body's "ops" array) over complex arguments `p`
/// and `q`: "first" (an i1, p wins) and "m" (the winner).
inline constexpr const char *kComplexMaxOps = R"(
  {"op": "real", "operands": ["p"], "result": "pr"},
  {"op": "real", "operands": ["q"], "result": "qr"},
  {"op": "compare", "operands": ["pr", "qr"], "comparison_direction": "EQ", "result": "eq"},
  {"op": "compare", "operands": ["pr", "qr"], "comparison_direction": "GT", "result": "gt"},
  {"op": "imag", "operands": ["p"], "result": "pi"},
  {"op": "imag", "operands": ["q"], "result": "qi"},
  {"op": "compare", "operands": ["pi", "qi"], "comparison_direction": "GT", "result": "igt"},
  {"op": "select", "operands": ["eq", "igt", "gt"], "result": "first"},
  {"op": "select", "operands": ["first", "p", "q"], "result": "m"})";

} // namespace shardgen::testing
