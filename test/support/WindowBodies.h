#pragma once
// The f32 bodies the window-op suites reduce with (max and average
// pooling), as JSON regions. Shared by the suites that partition and
// compile them.

namespace shardgen::testing {

inline constexpr const char *kMaxBody =
    R"({"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
  "ops": [{"op": "maximum", "operands": ["a", "b"], "result": "m"}], "return": ["m"]})";
inline constexpr const char *kAddBody =
    R"({"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
  "ops": [{"op": "add", "operands": ["a", "b"], "result": "s"}], "return": ["s"]})";

} // namespace shardgen::testing
