// Constant values: typing of untyped arrays, conversion to a given type,
// errors, and exact round trips of every element type.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Float16.h"

using namespace shardgen;

namespace {

std::string constantGraph(const std::string &fields) {
  return R"({"format": "shardgen-graph", "version": 1, "inputs": [],
    "ops": [{"op": "constant", "result": "c", )" +
         fields + R"(}],
    "outputs": [{"value": "c"}]})";
}

ConstantAttrs constantOf(const Graph &graph) { return graph.main.ops[0].attr<ConstantAttrs>(); }

ConstantAttrs readConstant(const std::string &fields) {
  Graph graph = readGraph(constantGraph(fields));
  // Inference takes the constant's type from declaredTypes[0].
  CHECK(graph.main.ops[0].declaredTypes[0] == constantOf(graph).type);
  return constantOf(graph);
}

std::pair<std::string, std::string> errorOf(const std::string &fields) {
  try {
    readGraph(constantGraph(fields));
  } catch (const GraphError &error) {
    return {error.pointer(), error.what()};
  }
  FAIL("expected an error for " << fields);
  return {};
}

} // namespace

TEST_CASE("constant typing without a type") {
  SUBCASE("integers are i32") {
    ConstantAttrs c = readConstant(R"("value": [[1, -2, 3], [4, 5, 2147483647]])");
    CHECK(c.type == TensorType{ElementType::I32, {2, 3}});
    CHECK_FALSE(c.splat);
    CHECK(c.elements.as<int32_t>()[1] == -2);
    CHECK(c.elements.as<int32_t>()[5] == 2147483647);
  }
  SUBCASE("booleans are i1") {
    ConstantAttrs c = readConstant(R"("value": [true, false, true])");
    CHECK(c.type == TensorType{ElementType::I1, {3}});
    CHECK(c.elements.as<uint8_t>()[0] == 1);
    CHECK(c.elements.as<uint8_t>()[1] == 0);
  }
  SUBCASE("any fraction makes f32") {
    ConstantAttrs c = readConstant(R"("value": [1, 2.5, -3])");
    CHECK(c.type == TensorType{ElementType::F32, {3}});
    CHECK(c.elements.as<float>()[0] == 1.0f);
    CHECK(c.elements.as<float>()[1] == 2.5f);
  }
  SUBCASE("inf and nan strings make f32") {
    ConstantAttrs c = readConstant(R"("value": ["inf", "-inf", "nan", 0])");
    CHECK(c.type == TensorType{ElementType::F32, {4}});
    CHECK(std::isinf(c.elements.as<float>()[0]));
    CHECK(c.elements.as<float>()[1] < 0);
    CHECK(std::isnan(c.elements.as<float>()[2]));
  }
  SUBCASE("an empty array is f32 of shape 0") {
    CHECK(readConstant(R"("value": [])").type == TensorType{ElementType::F32, {0}});
  }
  SUBCASE("empty inner arrays give a zero dim") {
    CHECK(readConstant(R"("value": [[], [], []])").type == TensorType{ElementType::F32, {3, 0}});
  }
}

TEST_CASE("constant conversion to a given type") {
  SUBCASE("splat fills the tensor") {
    ConstantAttrs c = readConstant(R"("type": "tensor<2x3xi8>", "value": -7)");
    CHECK(c.splat);
    CHECK(c.type == TensorType{ElementType::I8, {2, 3}});
    CHECK(c.elements.numElements() == 1); // kept as one element
    Literal whole = c.expanded();
    CHECK(whole.type() == c.type);
    for (int i = 0; i < 6; ++i)
      CHECK(whole.as<int8_t>()[i] == -7);
  }
  SUBCASE("scalar type") {
    ConstantAttrs c = readConstant(R"("type": "tensor<f64>", "value": 0.1)");
    CHECK(c.splat);
    CHECK(c.elements.as<double>()[0] == 0.1);
  }
  SUBCASE("integers to floats") {
    ConstantAttrs c = readConstant(R"("type": "tensor<2xf16>", "value": [1, 65504])");
    CHECK(c.elements.as<uint16_t>()[0] == 0x3c00);
    CHECK(c.elements.as<uint16_t>()[1] == 0x7bff);
  }
  SUBCASE("bf16 rounds to nearest even") {
    // 1 + 2^-8 is halfway between bf16 1.0 and 1.0078125: ties to even gives 1.0.
    ConstantAttrs c = readConstant(R"("type": "tensor<2xbf16>", "value": [1.00390625, -2])");
    CHECK(c.elements.as<uint16_t>()[0] == 0x3f80);
    CHECK(c.elements.as<uint16_t>()[1] == 0xc000);
  }
  SUBCASE("i1 takes booleans and 0/1") {
    ConstantAttrs c = readConstant(R"("type": "tensor<3xi1>", "value": [true, 0, 1])");
    CHECK(c.elements.as<uint8_t>()[0] == 1);
    CHECK(c.elements.as<uint8_t>()[1] == 0);
    CHECK(c.elements.as<uint8_t>()[2] == 1);
  }
  SUBCASE("unsigned and 64-bit extremes") {
    ConstantAttrs u = readConstant(R"("type": "tensor<2xui32>", "value": [0, 4294967295])");
    CHECK(u.elements.as<uint32_t>()[1] == 4294967295u);
    ConstantAttrs s = readConstant(
        R"("type": "tensor<2xi64>", "value": [-9223372036854775808, 9223372036854775807])");
    CHECK(s.elements.as<int64_t>()[0] == INT64_MIN);
    CHECK(s.elements.as<int64_t>()[1] == INT64_MAX);
  }
  SUBCASE("an integral float for an integer type") {
    CHECK(readConstant(R"("type": "tensor<ui8>", "value": 255.0)").elements.as<uint8_t>()[0] ==
          255);
  }
}

TEST_CASE("constant errors") {
  using Error = std::pair<std::string, std::string>;
  CHECK(errorOf(R"("value": 1.5)") ==
        Error{"/ops/0/type", "constant with a splat value needs a \"type\""});
  CHECK(errorOf(R"("type": "tensor<4xf32>")") ==
        Error{"/ops/0/value", "missing required key \"value\""});
  CHECK(errorOf(R"("value": [[1, 2], [3]])") ==
        Error{"/ops/0/value/1",
              "ragged nested array: expected 2 elements, like its siblings, got 1"});
  CHECK(errorOf(R"("value": [[1, 2], 3])") ==
        Error{"/ops/0/value/1",
              "ragged nested array: expected an array of 2 elements, like its siblings, got an "
              "integer"});
  CHECK(errorOf(R"("value": [1, [2]])") ==
        Error{"/ops/0/value/1",
              "ragged nested array: expected a scalar at depth 1, like its siblings"});
  CHECK(errorOf(R"("type": "tensor<3x2xf32>", "value": [[1, 2, 3], [4, 5, 6]])") ==
        Error{"/ops/0/value", "constant value has shape 2x3 but its \"type\" is tensor<3x2xf32>"});
  CHECK(errorOf(R"("type": "tensor<f32>", "value": [1])") ==
        Error{"/ops/0/value", "constant value has shape 1 but its \"type\" is tensor<f32>"});
  CHECK(errorOf(R"("type": "tensor<2xui8>", "value": [1, 256])") ==
        Error{"/ops/0/value/1", "value 256 is out of range for ui8"});
  CHECK(errorOf(R"("type": "tensor<2xui32>", "value": [-1, 0])") ==
        Error{"/ops/0/value/0", "value -1 is out of range for ui32"});
  CHECK(errorOf(R"("type": "tensor<2x2xi32>", "value": [[1, 2], [3, 4.5]])") ==
        Error{"/ops/0/value/1/1", "expected an integer for i32, got 4.5"});
  CHECK(errorOf(R"("type": "tensor<i1>", "value": 2)") ==
        Error{"/ops/0/value", "expected true, false, 0 or 1 for i1, got 2"});
  CHECK(errorOf(R"("type": "tensor<f16>", "value": 70000)") ==
        Error{"/ops/0/value", "value 70000 is out of range for f16"});
  CHECK(errorOf(R"("type": "tensor<2xf32>", "value": [1, true])") ==
        Error{"/ops/0/value/1",
              "expected a number (or \"inf\", \"-inf\", \"nan\") for f32, got a boolean"});
  CHECK(errorOf(R"("type": "tensor<f32>", "value": "infinity")") ==
        Error{"/ops/0/value", "expected a number, a boolean, \"inf\", \"-inf\", \"nan\" or a "
                              "nested array, got a string"});
  CHECK(errorOf(R"("value": [1, true])") ==
        Error{"/ops/0/value/1", "a constant without a \"type\" cannot mix booleans and numbers"});
  CHECK(errorOf(R"("value": [1, 3000000000])") ==
        Error{"/ops/0/value/1", "value 3000000000 does not fit i32, the type of untyped "
                                "integer constants; give the constant a \"type\""});
  CHECK(errorOf(R"("type": "tensor<4611686018427387904x4xf32>", "value": 0)") ==
        Error{"/ops/0/type", "constant of type tensor<4611686018427387904x4xf32> is too large"});
}

namespace {

/// Writes a graph holding `literal` as a constant and reads it back.
Literal roundTrip(const Literal &literal) {
  Graph graph =
      readGraph(constantGraph(R"("type": ")" + printType(literal.type()) + R"(", "value": 0)"));
  Op &op = graph.main.ops[0];
  op.attr<ConstantAttrs>() = ConstantAttrs::dense(literal);
  return constantOf(readGraph(writeGraph(graph))).elements;
}

} // namespace

TEST_CASE("constants round-trip bit-exactly") {
  std::mt19937_64 random(42);
  for (ElementType type :
       {ElementType::F32, ElementType::F64, ElementType::F16, ElementType::BF16, ElementType::I1,
        ElementType::I8, ElementType::I32, ElementType::I64, ElementType::UI8, ElementType::UI32}) {
    INFO(elementTypeName(type));
    Literal literal(TensorType{type, {4, 64}});
    // Random bit patterns, with NaNs replaced by the canonical quiet NaN
    // (JSON's "nan" has no payload) and i1 kept to 0/1.
    for (int64_t i = 0; i < literal.numElements(); ++i) {
      uint64_t bits = random();
      size_t width = elementByteWidth(type);
      std::memcpy(literal.data() + i * width, &bits, width);
      if (type == ElementType::I1)
        literal.setInt(i, bits & 1);
      if (isFloat(type) && std::isnan(literal.getFloat(i)))
        literal.setFloat(i, NAN);
    }
    literal.setFloat(0, -0.0);
    literal.setFloat(1, INFINITY);
    CHECK(roundTrip(literal) == literal);
  }
}

TEST_CASE("constants are written compactly") {
  Graph graph =
      readGraph(constantGraph(R"("type": "tensor<2x2xf32>", "value": [[0.1, -0.0], ["inf", 3]])"));
  std::string text = writeGraph(graph);
  CHECK(text.find("\"value\": [\n        [0.1, -0.0],\n        [\"inf\", 3.0]\n      ]") !=
        std::string::npos);
  Graph splat = readGraph(constantGraph(R"("type": "tensor<2x2xi1>", "value": true)"));
  CHECK(writeGraph(splat).find(R"("value": true)") != std::string::npos);
}

TEST_CASE("complex constants: [real, imaginary] pairs, a pair as a splat, exact round trips") {
  ConstantAttrs dense =
      readConstant(R"("type": "tensor<2xcomplex<f32>>", "value": [[1.5, -2], ["nan", "-inf"]])");
  CHECK(dense.type == TensorType{ElementType::C64, {2}});
  CHECK(dense.getFloat(0) == 1.5);
  CHECK(dense.getImag(0) == -2);
  CHECK(std::isnan(dense.getFloat(1)));
  CHECK(dense.getImag(1) == -INFINITY);
  ConstantAttrs splat = readConstant(R"("type": "tensor<3x2xcomplex<f64>>", "value": [0.25, 1])");
  CHECK(splat.splat);
  CHECK(splat.getFloat(5) == 0.25);
  CHECK(splat.getImag(5) == 1);
  // A scalar's dense form is its pair.
  ConstantAttrs scalar = readConstant(R"("type": "tensor<complex<f64>>", "value": [3, 4])");
  CHECK(scalar.getImag(0) == 4);

  std::mt19937_64 random(7);
  for (ElementType type : {ElementType::C64, ElementType::C128}) {
    INFO(elementTypeName(type));
    Literal literal(TensorType{type, {3, 16}});
    std::uniform_real_distribution<double> part(-1e6, 1e6);
    for (int64_t i = 0; i < literal.numElements(); ++i) {
      const double real = part(random);
      literal.setComplex(i, real, part(random));
    }
    literal.setComplex(0, -0.0, INFINITY);
    literal.setComplex(1, 1e-40, -0.0);
    CHECK(roundTrip(literal) == literal);
  }

  CHECK(errorOf(R"("type": "tensor<2xcomplex<f32>>", "value": [[1, 2], 3])") ==
        std::pair<std::string, std::string>{
            "/ops/0/value/1", "expected a [real, imaginary] pair for complex<f32>, got 3"});
  CHECK(errorOf(R"("type": "tensor<2xcomplex<f32>>", "value": [[1, 2], [3, true]])") ==
        std::pair<std::string, std::string>{
            "/ops/0/value/1/1",
            "expected a number (or \"inf\", \"-inf\", \"nan\") for f32, got a boolean"});
  CHECK(errorOf(R"("type": "tensor<2xcomplex<f32>>", "value": [[1, 1e39], [3, 4]])") ==
        std::pair<std::string, std::string>{"/ops/0/value/0/1",
                                            "value 1e+39 is out of range for f32"});
}

TEST_CASE("sub-byte integer constants: the type's range, one byte per element") {
  ConstantAttrs c = readConstant(R"("type": "tensor<4xi4>", "value": [-8, 7, 0, -1])");
  CHECK(c.getInt(0) == -8);
  CHECK(c.getInt(1) == 7);
  CHECK(c.getInt(3) == -1);
  CHECK(readConstant(R"("type": "tensor<ui2>", "value": 3)").getInt(0) == 3);
  CHECK(errorOf(R"("type": "tensor<2xi4>", "value": [8, 0])") ==
        std::pair<std::string, std::string>{"/ops/0/value/0", "value 8 is out of range for i4"});
  CHECK(errorOf(R"("type": "tensor<2xui2>", "value": [3, 4])") ==
        std::pair<std::string, std::string>{"/ops/0/value/1", "value 4 is out of range for ui2"});
  CHECK(errorOf(R"("type": "tensor<i2>", "value": -3)") ==
        std::pair<std::string, std::string>{"/ops/0/value", "value -3 is out of range for i2"});
  for (ElementType type : {ElementType::I2, ElementType::I4, ElementType::UI2, ElementType::UI4}) {
    INFO(elementTypeName(type));
    Literal literal(TensorType{type, {6}});
    for (int64_t i = 0; i < 6; ++i)
      literal.setInt(i, i * 5 - 13); // wrapped to the type's bits
    CHECK(roundTrip(literal) == literal);
  }
}

TEST_CASE("8-, 6- and 4-bit float constants: numbers rounded to the format, one byte each") {
  ConstantAttrs c = readConstant(R"("type": "tensor<4xf8E4M3FN>", "value": [0.1, 448, -3, "nan"])");
  CHECK(c.getFloat(0) == 0.1015625);
  CHECK(c.getFloat(1) == 448);
  CHECK(c.getFloat(2) == -3);
  CHECK(std::isnan(c.getFloat(3)));
  CHECK(readConstant(R"("type": "tensor<f4E2M1FN>", "value": 100)").getFloat(0) == 6); // saturates
  CHECK(readConstant(R"("type": "tensor<f8E8M0FNU>", "value": 0.1)").getFloat(0) == 0.125);
  CHECK(errorOf(R"("type": "tensor<2xf8E4M3FN>", "value": [1, 500])") ==
        std::pair<std::string, std::string>{"/ops/0/value/1",
                                            "value 500 is out of range for f8E4M3FN"});
  CHECK(errorOf(R"("type": "tensor<f8E8M0FNU>", "value": -1)") ==
        std::pair<std::string, std::string>{"/ops/0/value",
                                            "value -1 is out of range for f8E8M0FNU"});
  for (ElementType type : {ElementType::F8E5M2, ElementType::F8E4M3FNUZ, ElementType::F8E3M4,
                           ElementType::F8E8M0FNU, ElementType::F6E3M2FN, ElementType::F4E2M1FN}) {
    INFO(elementTypeName(type));
    Literal literal(TensorType{type, {6}});
    for (int64_t i = 0; i < 6; ++i)
      literal.setFloat(i, 0.3 * static_cast<double>(i) - 0.7);
    CHECK(roundTrip(literal) == literal);
  }
}
