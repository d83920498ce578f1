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
      "(%a: tensor<8x6xi32> " + kXY + ", %b: tensor<8x6xi32> " + kYX + ", %c: tensor<8x6xui8> " +
          kXY +
          ", %d: tensor<8x6xi8>) -> (tensor<8x6xi32>, "
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
  const std::string text =
      module("(%a: tensor<8x6xf32> " + kXY + ", %b: tensor<8x6xf32> " + kYX +
                 ", %h: tensor<8x6xf16> " + kXY +
                 ") -> (tensor<8x6xf32>, tensor<8x6xi1>, "
                 "tensor<8x6xf32>, tensor<8x6xf16>, tensor<8x6xui32>, tensor<8x6x2xui16>, "
                 "tensor<8x3xf32>, tensor<8x6xf32>, tensor<8x6x16xi1>, tensor<8x6xi16>)",
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
    %bits = stablehlo.bitcast_convert %h : (tensor<8x6xf16>) -> tensor<8x6x16xi1>
    %w = stablehlo.bitcast_convert %bits : (tensor<8x6x16xi1>) -> tensor<8x6xi16>
    %7 = stablehlo.bitcast_convert %u : (tensor<8x6xui32>) -> tensor<8x6xf32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %bits, %w : tensor<8x6xf32>, tensor<8x6xi1>, tensor<8x6xf32>, tensor<8x6xf16>, tensor<8x6xui32>, tensor<8x6x2xui16>, tensor<8x3xf32>, tensor<8x6xf32>, tensor<8x6x16xi1>, tensor<8x6xi16>)");
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
                           "acos", "atan", "asinh", "atanh", "square", "tan", "bessel_i1e"})
      add(std::string("chlo.") + op + " %a : " + t + " -> " + t, t);
    add("chlo.acosh %big : " + t + " -> " + t, t);
    add("chlo.lgamma %big : " + t + " -> " + t, t);
    add("chlo.digamma %big : " + t + " -> " + t, t);
    // The binary ones as chlo prints them: `: t, t -> t`.
    body += "    %two = stablehlo.constant dense<2.0> : " + t + "\n";
    add("chlo.next_after %a, %big : " + t + ", " + t + " -> " + t, t);
    add("chlo.zeta %two, %big : " + t + ", " + t + " -> " + t, t);
    add("chlo.polygamma %two, %big : " + t + ", " + t + " -> " + t, t);
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

TEST_CASE("eval reads the StableHLO interpreter tests' forms and gives their values") {
  // stablehlo/tests/interpret/{shift_*,popcnt,count_leading_zeros,atan2,
  // is_finite,reduce_precision,bitcast_convert}.mlir, check.expect_* turned
  // into returns.
  const std::string text =
      R"(func.func @main() -> (tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<4xi64>, tensor<2x2xi64>, tensor<3xf64>, tensor<7xi1>, tensor<6xf64>, tensor<4xf16>) {
  %lhs = stablehlo.constant dense<[-1, 0, 1]> : tensor<3xi64>
  %rhs = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %lhs2 = stablehlo.constant dense<[-1, 0, 8]> : tensor<3xi64>
  %0 = stablehlo.shift_left %lhs, %rhs : tensor<3xi64>
  %1 = stablehlo.shift_right_arithmetic %lhs2, %rhs : tensor<3xi64>
  %2 = "stablehlo.shift_right_logical"(%lhs2, %rhs) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %p = stablehlo.constant dense<[0, 1, 2, 127]> : tensor<4xi64>
  %3 = stablehlo.popcnt %p : tensor<4xi64>
  %c = stablehlo.constant dense<[[0, 1], [128, -1]]> : tensor<2x2xi64>
  %4 = stablehlo.count_leading_zeros %c : tensor<2x2xi64>
  %a = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf64>
  %b = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf64>
  %5 = stablehlo.atan2 %a, %b : tensor<3xf64>
  %f = stablehlo.constant dense<[0xFFF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, -10.0, -0.0, 0.0, 10.0]> : tensor<7xf64>
  %6 = stablehlo.is_finite %f : (tensor<7xf64>) -> tensor<7xi1>
  %r = stablehlo.constant dense<[0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF, 0x0000000000000001, 0.0, 65519.0, 65520.0]> : tensor<6xf64>
  %7 = "stablehlo.reduce_precision"(%r) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<6xf64>) -> tensor<6xf64>
  %i = stablehlo.constant dense<0x0123456789ABCDEF> : tensor<i64>
  %d = stablehlo.bitcast_convert %i : (tensor<i64>) -> tensor<f64>
  %8 = stablehlo.bitcast_convert %d : (tensor<f64>) -> tensor<4xf16>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<4xi64>, tensor<2x2xi64>, tensor<3xf64>, tensor<7xi1>, tensor<6xf64>, tensor<4xf16>
}
)";
  const std::string dir = makeTempDir();
  writeFile(dir + "/interp.mlir", text);
  ToolResult result = runShardgen("eval " + dir + "/interp.mlir");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  for (const char *expected :
       {"out0: tensor<3xi64>\n[-2, 0, 8]", "out1: tensor<3xi64>\n[-1, 0, 1]",
        "out2: tensor<3xi64>\n[9223372036854775807, 0, 1]", "out3: tensor<4xi64>\n[0, 1, 1, 7]",
        "out4: tensor<2x2xi64>\n[[64, 63],\n [56, 0]]", "out5: tensor<3xf64>\n[0, 1.5708, -1.5708]",
        "out7: tensor<6xf64>\n[inf, nan, 0, 0, 65504, inf]",
        // 0xCDEF, 0x89AB, 0x4567, 0x0123 as f16.
        "out8: tensor<4xf16>\n[-23.7344, -0.000172973, 5.40234, 1.7345e-05]"})
    CHECK(contains(result.out, expected));
  // is_finite's seven values in full.
  ToolResult written = runShardgen("eval " + dir + "/interp.mlir -o " + dir);
  REQUIRE(written.exitCode == 0);
  const Literal finite = readNpy(dir + "/out6.npy");
  std::vector<int64_t> flags;
  for (int64_t i = 0; i < finite.numElements(); ++i)
    flags.push_back(finite.getInt(i));
  CHECK(flags == std::vector<int64_t>{0, 0, 0, 1, 1, 1, 1});
}
