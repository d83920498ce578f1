// The bit ops (shifts, popcnt, count_leading_zeros, bitcast_convert,
// reduce_precision), is_finite, atan2 and the decomposed chlo ops as JAX
// prints them: `shardgen run --check` on a 2x2 mesh equals the interpreter,
// and `eval` gives the StableHLO interpreter tests' values.

#include <doctest/doctest.h>

#include <filesystem>

#include "compiler/frontend/Npy.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen;
using namespace shardgen::test;

namespace bitops_cli_test {

/// A module on a 2x2 mesh ("x", "y") whose @main has `signature` and `body`.
std::string module(const std::string &signature, const std::string &body) {
  return R"(module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main)" +
         signature + " {\n" + body + "\n  }\n}\n";
}

ToolResult runChecked(const std::string &text) {
  const std::string dir = makeTempDir();
  writeFile(dir + "/f.mlir", text);
  return runShardgen("run " + dir + "/f.mlir --check");
}

const std::string kXY = R"({sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})";
const std::string kYX = R"({sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>})";

} // namespace bitops_cli_test

using namespace bitops_cli_test;

TEST_CASE("shifts, popcnt and count_leading_zeros: run --check on a 2x2 mesh") {
  // The pseudo-random inputs are in [-8, 8] (unsigned: [0, 7]): negative
  // amounts and amounts past an 8-bit width both occur.
  const std::string text = module(
      "(%a: tensor<8x6xi32> " + kXY + ", %b: tensor<8x6xi32> " + kYX +
          ", %c: tensor<8x6xui8> " + kXY + ", %d: tensor<8x6xi8>) -> (tensor<8x6xi32>, "
          "tensor<8x6xi32>, tensor<8x6xi32>, tensor<8x6xi32>, tensor<8x6xi32>, tensor<8x6xui8>, "
          "tensor<8x6xui8>, tensor<8x6xi8>, tensor<8x6xi8>)",
      R"(    %0 = stablehlo.shift_left %a, %b : tensor<8x6xi32>
    %1 = stablehlo.shift_right_arithmetic %a, %b : tensor<8x6xi32>
    %2 = stablehlo.shift_right_logical %a, %b : tensor<8x6xi32>
    %3 = stablehlo.popcnt %a : tensor<8x6xi32>
    %4 = stablehlo.count_leading_zeros %a : tensor<8x6xi32>
    %5 = stablehlo.shift_right_arithmetic %c, %c : tensor<8x6xui8>
    %6 = stablehlo.count_leading_zeros %c : tensor<8x6xui8>
    %7 = stablehlo.shift_left %d, %d : tensor<8x6xi8>
    %8 = stablehlo.popcnt %d : tensor<8x6xi8>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<8x6xi32>, tensor<8x6xi32>, tensor<8x6xi32>, tensor<8x6xi32>, tensor<8x6xi32>, tensor<8x6xui8>, tensor<8x6xui8>, tensor<8x6xi8>, tensor<8x6xi8>)");
  ToolResult result = runChecked(text);
  INFO(result.err);
  CHECK(result.exitCode == 0);
}

TEST_CASE("atan2, is_finite, reduce_precision and bitcast_convert: run --check on a 2x2 mesh") {
  const std::string text = module(
      "(%a: tensor<8x6xf32> " + kXY + ", %b: tensor<8x6xf32> " + kYX +
          ", %h: tensor<8x6xf16> " + kXY + ") -> (tensor<8x6xf32>, tensor<8x6xi1>, "
          "tensor<8x6xf32>, tensor<8x6xf16>, tensor<8x6xui32>, tensor<8x6x2xui16>, "
          "tensor<8x3xf32>, tensor<8x6xf32>)",
      R"(    %0 = stablehlo.atan2 %a, %b : tensor<8x6xf32>
    %z = stablehlo.divide %a, %b : tensor<8x6xf32>
    %1 = stablehlo.is_finite %z : (tensor<8x6xf32>) -> tensor<8x6xi1>
    %2 = stablehlo.reduce_precision %a, format = e5m10 : tensor<8x6xf32>
    %3 = stablehlo.reduce_precision %h, format = e4m3 : tensor<8x6xf16>
    %4 = stablehlo.bitcast_convert %a : (tensor<8x6xf32>) -> tensor<8x6xui32>
    %5 = stablehlo.bitcast_convert %a : (tensor<8x6xf32>) -> tensor<8x6x2xui16>
    %r = stablehlo.reshape %h : (tensor<8x6xf16>) -> tensor<8x3x2xf16>
    %6 = stablehlo.bitcast_convert %r : (tensor<8x3x2xf16>) -> tensor<8x3xf32>
    %u = stablehlo.shift_right_logical %4, %4 : tensor<8x6xui32>
    %7 = stablehlo.bitcast_convert %u : (tensor<8x6xui32>) -> tensor<8x6xf32>
    return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8x6xf32>, tensor<8x6xi1>, tensor<8x6xf32>, tensor<8x6xf16>, tensor<8x6xui32>, tensor<8x6x2xui16>, tensor<8x3xf32>, tensor<8x6xf32>)");
  ToolResult result = runChecked(text);
  INFO(result.err);
  CHECK(result.exitCode == 0);
}

TEST_CASE("the chlo ops JAX prints: run --check on a 2x2 mesh, f32, f64 and bf16") {
  for (const char *type : {"f32", "f64", "bf16"}) {
    CAPTURE(type);
    const std::string t = std::string("tensor<8x6x") + type + ">";
    std::string body, results, types;
    int k = 0;
    auto add = [&](const std::string &line, const std::string &resultType) {
      const std::string name = "%r" + std::to_string(k++);
      body += "    " + name + " = " + line + "\n";
      results += (results.empty() ? "" : ", ") + name;
      types += (types.empty() ? "" : ", ") + resultType;
    };
    // The inputs are in [-1, 1]: acosh and lgamma's poles get shifted ones.
    body += "    %one = stablehlo.constant dense<1.5> : " + t + "\n";
    body += "    %big = stablehlo.add %a, %one : " + t + "\n";
    for (const char *op : {"erf_inv", "erf", "erfc", "lgamma", "digamma", "sinh", "cosh", "asin",
                           "acos", "atan", "asinh", "atanh", "square"})
      add(std::string("chlo.") + op + " %a : " + t + " -> " + t, t);
    add("chlo.acosh %big : " + t + " -> " + t, t);
    add("chlo.lgamma %big : " + t + " -> " + t, t);
    add("chlo.digamma %big : " + t + " -> " + t, t);
    const std::string b = "tensor<8x6xi1>";
    add("chlo.is_inf %a : " + t + " -> " + b, b);
    add("chlo.is_pos_inf %a : " + t + " -> " + b, b);
    add("chlo.is_neg_inf %a : " + t + " -> " + b, b);
    body += "    return " + results + " : " + types;
    ToolResult result = runChecked(module("(%a: " + t + " " + kXY + ") -> (" + types + ")", body));
    INFO(result.err);
    CHECK(result.exitCode == 0);
  }
}
