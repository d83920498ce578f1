// dot_general's `algorithm` (jax.lax.DotAlgorithmPreset): each operand
// rounded to its precision type and split into components, one dot per pair
// of components the algorithm takes, summed in the accumulation type. The
// values are chosen so each algorithm gives other bits: 1 + 2^-10 is no bf16
// value (bf16_1x rounds it to 1) but is the bf16 pair 1 + 2^-10 (bf16_3x);
// (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20, whose 2^-20 only the product of the
// low components gives (bf16_6x, bf16_9x).
#include <cmath>

#include <doctest/doctest.h>

#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;

namespace {

using testing::evalFloats;
using testing::importErrorOf;

std::string algorithmOf(const std::string &precision, const std::string &accumulation,
                        int components, int operations) {
  const std::string count = std::to_string(components);
  return "algorithm = <lhs_precision_type = " + precision + ", rhs_precision_type = " + precision +
         ", accumulation_type = " + accumulation + ", lhs_component_count = " + count +
         ", rhs_component_count = " + count +
         ", num_primitive_operations = " + std::to_string(operations) +
         ", allow_imprecise_accumulation = false>";
}

/// @main: lhs . rhs (1-D constants, contracted) with `attributes`.
std::string dotOf(const std::string &lhs, const std::string &rhs, const std::string &type,
                  const std::string &attributes, const std::string &resultType = "f32") {
  return "func.func @main() -> tensor<" + resultType + "> {\n  %lhs = stablehlo.constant dense<" +
         lhs + "> : tensor<" + type + ">\n  %rhs = stablehlo.constant dense<" + rhs +
         "> : tensor<" + type +
         ">\n  %0 = stablehlo.dot_general %lhs, %rhs, contracting_dims = [0] x [0]" +
         (attributes.empty() ? "" : ", " + attributes) + " : (tensor<" + type + ">, tensor<" +
         type + ">) -> tensor<" + resultType + ">\n  return %0 : tensor<" + resultType + ">\n}\n";
}

const std::string kOnePlus = "1.0009765625"; // 1 + 2^-10

} // namespace

TEST_CASE("dot algorithm: bf16, tf32 and f32 precisions round the operands first") {
  const double exact = std::ldexp(1.0, 0) + std::ldexp(1.0, -9) + std::ldexp(1.0, -20);
  CHECK(evalFloats(dotOf("[" + kOnePlus + "]", "[" + kOnePlus + "]", "1xf32", "")) ==
        std::vector<double>{exact});
  // bf16: both round to 1.
  CHECK(evalFloats(dotOf("[" + kOnePlus + "]", "[" + kOnePlus + "]", "1xf32",
                         algorithmOf("bf16", "f32", 1, 1))) == std::vector<double>{1.0});
  // tf32 keeps 10 mantissa bits: 1 + 2^-10 stays, 1 + 2^-12 rounds to 1.
  CHECK(evalFloats(dotOf("[" + kOnePlus + "]", "[" + kOnePlus + "]", "1xf32",
                         algorithmOf("tf32", "f32", 1, 1))) == std::vector<double>{exact});
  CHECK(evalFloats(dotOf("[1.000244140625]", "[3.0]", "1xf32", algorithmOf("tf32", "f32", 1, 1))) ==
        std::vector<double>{3.0});
  // f32 on f32: the operands as they are; f16 rounds 1 + 2^-12 to 1.
  CHECK(evalFloats(dotOf("[1.000244140625]", "[3.0]", "1xf32", algorithmOf("f32", "f32", 1, 1))) ==
        std::vector<double>{3.000732421875});
  CHECK(evalFloats(dotOf("[1.000244140625]", "[3.0]", "1xf32", algorithmOf("f16", "f32", 1, 1))) ==
        std::vector<double>{3.0});
}

TEST_CASE("dot algorithm: bf16 components emulate f32 (bf16_3x, bf16_6x, bf16_9x)") {
  const std::string a = "[" + kOnePlus + "]";
  const double withoutLowProduct = 1.0 + std::ldexp(1.0, -9);
  const double exact = withoutLowProduct + std::ldexp(1.0, -20);
  CHECK(evalFloats(dotOf(a, a, "1xf32", algorithmOf("bf16", "f32", 2, 3))) ==
        std::vector<double>{withoutLowProduct});
  CHECK(evalFloats(dotOf(a, a, "1xf32", algorithmOf("bf16", "f32", 3, 6))) ==
        std::vector<double>{exact});
  CHECK(evalFloats(dotOf(a, a, "1xf32", algorithmOf("bf16", "f32", 3, 9))) ==
        std::vector<double>{exact});
  // tf32_3x: 1 + 2^-12 + 2^-24 is the tf32 pair 1, 2^-12 (+ 2^-24 lost).
  CHECK(evalFloats(dotOf("[1.000244140625]", "[1.000244140625]", "1xf32",
                         algorithmOf("tf32", "f32", 2, 3))) ==
        std::vector<double>{1.0 + std::ldexp(1.0, -11)});
}

TEST_CASE("dot algorithm: the accumulation type, bf16 operands, integers") {
  // f32 operands summed in f64: 2^24 + 1 - 2^24 keeps its 1 in any order.
  CHECK(evalFloats(dotOf("[16777216.0, 1.0, -16777216.0]", "[1.0, 1.0, 1.0]", "3xf32",
                         algorithmOf("f32", "f64", 1, 1))) == std::vector<double>{1.0});
  // bf16 operands, bf16 precision, f32 sums, a bf16 result (rounded once).
  CHECK(evalFloats(dotOf("[1.0, 0.0078125]", "[1.0, 1.0]", "2xbf16",
                         algorithmOf("bf16", "f32", 1, 1), "bf16")) ==
        std::vector<double>{1.0078125});
  // Integers: the float precisions do not apply (StableHLO's interpreter).
  CHECK(evalFloats(dotOf("[3, 4]", "[5, 6]", "2xi32", algorithmOf("tf32", "f32", 1, 1), "i32")) ==
        std::vector<double>{39.0});
}

TEST_CASE("dot algorithm: the generic form") {
  const std::string text = R"(func.func @main() -> tensor<f32> {
  %lhs = stablehlo.constant dense<[1.0009765625]> : tensor<1xf32>
  %0 = "stablehlo.dot_general"(%lhs, %lhs) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1xf32>, tensor<1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
)";
  CHECK(evalFloats(text) == std::vector<double>{1.0});
}

TEST_CASE("dot algorithm: errors name the place") {
  auto errorOf = [](const std::string &attributes, const std::string &type = "1xf32") {
    return importErrorOf(dotOf("[1.0]", "[1.0]", type, attributes));
  };
  auto [place, message] = errorOf(algorithmOf("bf16", "f32", 2, 2));
  CHECK(place == "4:3");
  CHECK(message.find("2 x 2 components and 2 primitive operations is not supported") !=
        std::string::npos);
  std::tie(place, message) = errorOf(algorithmOf("bf16", "f32", 4, 1));
  CHECK(message.find("lhs_component_count must be an integer in [1, 3], got '4'") !=
        std::string::npos);
  std::tie(place, message) = errorOf(algorithmOf("bf16", "f32", 0, 1));
  CHECK(message.find("got '0'") != std::string::npos);
  std::tie(place, message) = errorOf(algorithmOf("i8", "f32", 1, 1));
  CHECK(message.find("lhs_precision_type must be a floating-point type or tf32, got 'i8'") !=
        std::string::npos);
  std::tie(place, message) = errorOf(algorithmOf("bf16", "tf32", 1, 1));
  CHECK(message.find("accumulation_type must be a floating-point type, got 'tf32'") !=
        std::string::npos);
  std::tie(place, message) = errorOf("algorithm = <lhs_precision_type = bf16>");
  CHECK(message.find("'rhs_precision_type' is missing") != std::string::npos);
  std::tie(place, message) =
      errorOf("algorithm = <speed = 11, " + algorithmOf("bf16", "f32", 1, 1).substr(13));
  CHECK(message.find("unknown field 'speed'") != std::string::npos);
  std::tie(place, message) =
      errorOf("precision = [HIGHEST, DEFAULT], " + algorithmOf("bf16", "f32", 1, 1));
  CHECK(message.find("DEFAULT precision config (C21)") != std::string::npos);
  std::tie(place, message) = importErrorOf(dotOf("[(1.0, 0.0)]", "[(1.0, 0.0)]", "1xcomplex<f32>",
                                                 algorithmOf("f32", "f32", 1, 1), "complex<f32>"));
  CHECK(message.find("dot algorithms on complex operands are not supported") != std::string::npos);
}
