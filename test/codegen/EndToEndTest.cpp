// Every sample and a few hand-written graphs, compiled and run through the
// JIT, equal the reference interpreter; generation is deterministic.

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "compiler/codegen/CodeGenerator.h"
#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string graphOn(const std::string &mesh, const std::string &inputs, const std::string &ops,
                    const std::string &outputs) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [)" + mesh +
         R"(], "inputs": [)" + inputs + R"(], "ops": [)" + ops + R"(], "outputs": [)" + outputs +
         "]}";
}

const std::string kMesh2x2 =
    R"({"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]})";

/// Gather's table or scatter's inputs, then the updates, sharded on the
/// 2x2 mesh: along the indexed dim, the window dim, both, or not.
const char *const kIndexedShardings[][2] = {{"[{x}, {}]", "[{}, {}]"},
                                            {"[{}, {y}]", "[{x}, {}]"},
                                            {"[{x}, {y}]", "[{y}, {x}]"},
                                            {"[{y, x}, {}]", "[{x}, {y}]"}};

} // namespace

TEST_CASE("every sample runs compiled and equals the interpreter") {
  for (const char *name : {"mlp", "attention", "attention_heads", "dp_grad_step", "nx_sharding"}) {
    CAPTURE(name);
    Graph graph = loadVerified(sample(name));
    CHECK(checkCompiledEqualsInterpreter(graph, 3) == "");
  }
}

TEST_CASE("generated code is byte-identical across runs") {
  std::string text = sample("attention");
  Graph first = loadVerified(text), second = loadVerified(text);
  GeneratedProgram a = generateProgram(partitionVerified(first));
  GeneratedProgram b = generateProgram(partitionVerified(second));
  CHECK(a.source == b.source);
  CHECK(a.header == b.header);
  CHECK(a.hostSource == b.hostSource);
  CHECK(a.cmakeLists == b.cmakeLists);
  // Readable: each step names the op it came from.
  CHECK(a.source.find("dot_general") != std::string::npos);
  CHECK(a.source.find("/ops/0") != std::string::npos);
}

TEST_CASE("uneven shards: iota offsets and constant slices per device") {
  // 5 rows over 2 devices: pieces of 3 and 2 rows.
  std::string json = graphOn(
      kMesh2x2, R"({"name": "a", "type": "tensor<5x3xf32>", "sharding": "<@m, [{x}, {}]>"})",
      R"({"op": "iota", "iota_dimension": 0, "result": "i", "type": "tensor<5x3xf32>",
          "sharding": "<@m, [{x}, {}]>"},
         {"op": "constant", "value": [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]],
          "result": "c0"},
         {"op": "convert", "operands": ["c0"], "result": "c", "type": "tensor<5x3xf32>",
          "sharding": "<@m, [{x}, {}]>"},
         {"op": "add", "operands": ["a", "i"], "result": "s"},
         {"op": "multiply", "operands": ["s", "c"], "result": "r"})",
      R"({"value": "r", "sharding": "<@m, [{}, {y}]>"})");
  Graph graph = loadVerified(json);
  GeneratedProgram generated = generateProgram(partitionVerified(graph));
  // Per-device code is one branch per piece shape, chosen by the x coordinate.
  CHECK(generated.source.find("if ((position / 2 % 2) == 0) {") != std::string::npos);
  Graph again = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(again, 1) == "");
}

TEST_CASE("dot_general with a sharded contraction, transposed operands, reduce and pad") {
  std::string json =
      graphOn(kMesh2x2,
              R"({"name": "a", "type": "tensor<6x8xf32>", "sharding": "<@m, [{}, {x}]>"},
         {"name": "b", "type": "tensor<5x8xf32>", "sharding": "<@m, [{y}, {x}]>"})",
              R"({"op": "dot_general", "operands": ["a", "b"], "result": "d",
          "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [1]},
         {"op": "constant", "value": 0.0, "type": "tensor<f32>", "result": "z"},
         {"op": "reduce", "operands": ["d", "z"], "dimensions": [1], "reducer": "add",
          "result": "r"},
         {"op": "pad", "operands": ["r", "z"], "edge_padding_low": [-1],
          "edge_padding_high": [2], "interior_padding": [1], "result": "p"})",
              R"({"value": "d"}, {"value": "p", "sharding": "<@m, [{x}]>"})");
  Graph graph = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(graph, 2) == "");
}

TEST_CASE("integer and f16 programs") {
  std::string json =
      graphOn(kMesh2x2,
              R"({"name": "a", "type": "tensor<4x6xi32>", "sharding": "<@m, [{x}, {y}]>"},
         {"name": "h", "type": "tensor<4x6xf16>", "sharding": "<@m, [{y}, {}]>"})",
              R"({"op": "constant", "value": 0, "type": "tensor<4x6xi32>", "result": "zero"},
         {"op": "divide", "operands": ["a", "zero"], "result": "q"},
         {"op": "compare", "operands": ["a", "q"], "comparison_direction": "GT", "result": "g"},
         {"op": "select", "operands": ["g", "a", "q"], "result": "s"},
         {"op": "convert", "operands": ["s"], "type": "tensor<4x6xf16>", "result": "f"},
         {"op": "multiply", "operands": ["f", "h"], "result": "m"},
         {"op": "transpose", "operands": ["m"], "permutation": [1, 0], "result": "t"})",
              R"({"value": "t", "sharding": "<@m, [{x}, {}]>"}, {"value": "s"})");
  Graph graph = loadVerified(json);
  CHECK(checkCompiledEqualsInterpreter(graph, 5) == "");
}

TEST_CASE("i16, ui16 and ui64 programs, their sums all-reduced across devices") {
  for (const char *type : {"i16", "ui16", "ui64"}) {
    CAPTURE(type);
    const std::string t(type);
    std::string json = graphOn(
        kMesh2x2,
        R"({"name": "a", "type": "tensor<4x6x)" + t + R"(>", "sharding": "<@m, [{x}, {y}]>"},
           {"name": "b", "type": "tensor<4x6x)" +
            t + R"(>", "sharding": "<@m, [{y}, {}]>"})",
        R"({"op": "multiply", "operands": ["a", "b"], "result": "p"},
           {"op": "divide", "operands": ["p", "b"], "result": "q"},
           {"op": "subtract", "operands": ["q", "a"], "result": "d"},
           {"op": "constant", "value": 0, "type": "tensor<)" +
            t + R"(>", "result": "zero"},
           {"op": "reduce", "operands": ["p", "zero"], "dimensions": [0], "reducer": "add",
            "type": "tensor<6x)" +
            t + R"(>", "result": "s"},
           {"op": "reduce", "operands": ["d", "zero"], "dimensions": [1], "reducer": "max",
            "type": "tensor<4x)" +
            t + R"(>", "result": "m"},
           {"op": "compare", "operands": ["a", "b"], "comparison_direction": "LT", "result": "lt"},
           {"op": "select", "operands": ["lt", "a", "b"], "result": "low"},
           {"op": "convert", "operands": ["low"], "type": "tensor<4x6xf32>", "result": "f"})",
        R"({"value": "s"}, {"value": "m", "sharding": "<@m, [{x}]>"}, {"value": "f"})");
    Graph graph = loadVerified(json);
    CHECK(checkCompiledEqualsInterpreter(graph, 9) == "");
  }
}

TEST_CASE("dynamic_slice and dynamic_update_slice: clamped starts, any sharding") {
  // Starts read at run time: constants past both ends (INT64_MIN and
  // INT64_MAX too) and inputs of other integer types. Each operand sharding
  // shards a kept dim, a sliced dim, or both.
  const std::string ops = R"(
    {"op": "constant", "value": -9223372036854775808, "type": "tensor<i64>", "result": "min"},
    {"op": "constant", "value": 9223372036854775807, "type": "tensor<i64>", "result": "max"},
    {"op": "constant", "value": -1, "type": "tensor<i64>", "result": "neg"},
    {"op": "constant", "value": 2, "type": "tensor<i64>", "result": "two"},
    {"op": "dynamic_slice", "operands": ["a", "min", "max"], "slice_sizes": [8, 3], "result": "s0"},
    {"op": "dynamic_slice", "operands": ["a", "two", "neg"], "slice_sizes": [3, 4], "result": "s1"},
    {"op": "dynamic_slice", "operands": ["a", "i", "i"], "slice_sizes": [5, 2], "result": "s2"},
    {"op": "dynamic_slice", "operands": ["a", "k", "k"], "slice_sizes": [0, 6], "result": "s3"},
    {"op": "dynamic_update_slice", "operands": ["a", "u", "max", "neg"], "result": "w0"},
    {"op": "dynamic_update_slice", "operands": ["a", "u", "two", "max"], "result": "w1"},
    {"op": "dynamic_update_slice", "operands": ["w1", "s1", "j", "j"], "result": "w2"})";
  const std::string outputs =
      R"({"value": "s0"}, {"value": "s1", "sharding": "<@m, [{}, {x}]>"}, {"value": "s2"},
         {"value": "s3"}, {"value": "w0"}, {"value": "w2", "sharding": "<@m, [{y}, {}]>"})";
  for (const char *sharding : {"[{x}, {}]", "[{}, {y}]", "[{x}, {y}]", "[{y, x}, {}]"}) {
    CAPTURE(sharding);
    const std::string inputs =
        R"({"name": "a", "type": "tensor<8x6xf32>", "sharding": "<@m, )" + std::string(sharding) +
        R"(>"}, {"name": "u", "type": "tensor<8x2xf32>", "sharding": "<@m, [{x}, {}]>"},
           {"name": "i", "type": "tensor<i32>"}, {"name": "j", "type": "tensor<ui8>"},
           {"name": "k", "type": "tensor<ui64>"})";
    Graph graph = loadVerified(graphOn(kMesh2x2, inputs, ops, outputs));
    CHECK(checkCompiledEqualsInterpreter(graph, 7) == "");
  }
}

TEST_CASE("gather and scatter: every partitioning, compiled, equals the interpreter") {
  // Indices read at run time (random: past both ends too) of several types;
  // the table sharded along its rows (a partial gather: one all_reduce),
  // its columns (taken whole: no communication) or both; updates sharded
  // on their batch dim (a partial scatter-add) or not; the scatter's input
  // along its inserted dim.
  const std::string ops = R"(
    {"op": "gather", "operands": ["t", "i"], "result": "rows",
     "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                           "start_index_map": [0], "index_vector_dim": 1},
     "slice_sizes": [1, 6]},
    {"op": "gather", "operands": ["t", "j"], "result": "windows",
     "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                           "start_index_map": [0, 1], "index_vector_dim": 1},
     "slice_sizes": [1, 4]},
    {"op": "scatter", "operands": ["t", "i", "u"], "result": "added",
     "scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                   "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1},
     "update_computation": {"args": [{"name": "a", "type": "tensor<f32>"},
                                     {"name": "b", "type": "tensor<f32>"}],
                            "ops": [{"op": "add", "operands": ["a", "b"], "result": "s"}],
                            "return": ["s"]}},
    {"op": "scatter", "operands": ["t", "k", "w"], "result": "placed",
     "scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                   "scatter_dims_to_operand_dims": [0, 1], "index_vector_dim": 1},
     "update_computation": {"args": [{"name": "a", "type": "tensor<f32>"},
                                     {"name": "b", "type": "tensor<f32>"}],
                            "ops": [], "return": ["b"]}})";
  const std::string outputs =
      R"({"value": "rows"}, {"value": "windows"}, {"value": "added"}, {"value": "placed"})";
  for (const auto &[table, updates] : kIndexedShardings) {
    CAPTURE(table);
    CAPTURE(updates);
    const std::string inputs =
        R"({"name": "t", "type": "tensor<8x6xf32>", "sharding": "<@m, )" + std::string(table) +
        R"(>"}, {"name": "i", "type": "tensor<4x1xi32>", "sharding": "<@m, [{x}, {}]>"},
           {"name": "j", "type": "tensor<4x2xui8>"}, {"name": "k", "type": "tensor<3x2xi64>"},
           {"name": "u", "type": "tensor<4x6xf32>", "sharding": "<@m, )" +
        std::string(updates) + R"(>"}, {"name": "w", "type": "tensor<3x3xf32>"})";
    Graph graph = loadVerified(graphOn(kMesh2x2, inputs, ops, outputs));
    CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("gather of complex<f32> and complex<f64>: every partitioning of the table") {
  // A partial gather starts from the sum's identity, (-0, -0): a 128-bit
  // word for complex<f64> (a blocked LU's row gather is one).
  const std::string ops = R"(
    {"op": "gather", "operands": ["t", "i"], "result": "rows",
     "dimension_numbers": {"offset_dims": [1], "collapsed_slice_dims": [0],
                           "start_index_map": [0], "index_vector_dim": 1},
     "slice_sizes": [1, 6]})";
  for (const char *type : {"complex<f32>", "complex<f64>"})
    for (const auto &[table, updates] : kIndexedShardings) {
      CAPTURE(std::string(type));
      CAPTURE(table);
      const std::string inputs = R"({"name": "t", "type": "tensor<8x6x)" + std::string(type) +
                                 R"(>", "sharding": "<@m, )" + std::string(table) +
                                 R"(>"}, {"name": "i", "type": "tensor<4x1xi32>"})";
      Graph graph = loadVerified(graphOn(kMesh2x2, inputs, ops, R"({"value": "rows"})"));
      CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
    }
}

TEST_CASE("complex<f32> and complex<f64> programs: sharded dot and sums, functions, parts") {
  for (const char *type : {"complex<f32>", "complex<f64>"}) {
    CAPTURE(type);
    const std::string t(type), part = t == "complex<f32>" ? "f32" : "f64";
    std::string json = graphOn(
        kMesh2x2,
        R"({"name": "a", "type": "tensor<4x6x)" + t + R"(>", "sharding": "<@m, [{x}, {y}]>"},
           {"name": "b", "type": "tensor<6x4x)" +
            t + R"(>", "sharding": "<@m, [{y}, {}]>"},
           {"name": "r", "type": "tensor<4x6x)" +
            part + R"(>", "sharding": "<@m, [{x}, {}]>"})",
        R"({"op": "dot_general", "operands": ["a", "b"], "lhs_contracting_dimensions": [1],
            "rhs_contracting_dimensions": [0], "result": "d"},
           {"op": "complex", "operands": ["r", "r"], "result": "rr"},
           {"op": "multiply", "operands": ["a", "rr"], "result": "p"},
           {"op": "divide", "operands": ["p", "a"], "result": "q"},
           {"op": "exponential", "operands": ["q"], "result": "e"},
           {"op": "sqrt", "operands": ["a"], "result": "s"},
           {"op": "tanh", "operands": ["s"], "result": "th"},
           {"op": "add", "operands": ["e", "th"], "result": "sum"},
           {"op": "constant", "value": [0.5, -0.25], "type": "tensor<)" +
            t + R"(>", "result": "init"},
           {"op": "reduce", "operands": ["sum", "init"], "dimensions": [1], "reducer": "add",
            "type": "tensor<4x)" +
            t + R"(>", "result": "rows"},
           {"op": "reduce", "operands": ["a", "init"], "dimensions": [0], "reducer": "max",
            "type": "tensor<6x)" +
            t + R"(>", "result": "cmax"},
           {"op": "abs", "operands": ["d"], "type": "tensor<4x4x)" +
            part + R"(>", "result": "m"},
           {"op": "imag", "operands": ["d"], "result": "im"},
           {"op": "compare", "operands": ["a", "q"], "comparison_direction": "LT", "result": "lt"},
           {"op": "select", "operands": ["lt", "a", "e"], "result": "sel"},
           {"op": "convert", "operands": ["sel"], "type": "tensor<4x6xf32>", "result": "f"},
           {"op": "convert", "operands": ["r"], "type": "tensor<4x6x)" +
            t + R"(>", "result": "rc"},
           {"op": "transpose", "operands": ["rc"], "permutation": [1, 0], "result": "rt"})",
        R"({"value": "d"}, {"value": "rows"}, {"value": "cmax"}, {"value": "m"},
           {"value": "im", "sharding": "<@m, [{x}, {}]>"}, {"value": "f"}, {"value": "rt"})");
    Graph graph = loadVerified(json);
    CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("i2, i4, ui2 and ui4 programs wrap to their bits, sums all-reduced across devices") {
  for (const char *type : {"i2", "i4", "ui2", "ui4"}) {
    CAPTURE(type);
    const std::string t(type);
    std::string json = graphOn(
        kMesh2x2,
        R"({"name": "a", "type": "tensor<4x6x)" + t + R"(>", "sharding": "<@m, [{x}, {y}]>"},
           {"name": "b", "type": "tensor<6x4x)" +
            t + R"(>", "sharding": "<@m, [{y}, {}]>"},
           {"name": "f", "type": "tensor<4x6xf32>", "sharding": "<@m, [{x}, {}]>"})",
        R"({"op": "dot_general", "operands": ["a", "b"], "lhs_contracting_dimensions": [1],
            "rhs_contracting_dimensions": [0], "result": "d"},
           {"op": "multiply", "operands": ["a", "a"], "result": "p"},
           {"op": "divide", "operands": ["p", "a"], "result": "q"},
           {"op": "negate", "operands": ["q"], "result": "n"},
           {"op": "not", "operands": ["n"], "result": "x"},
           {"op": "constant", "value": 1, "type": "tensor<)" +
            t + R"(>", "result": "one"},
           {"op": "reduce", "operands": ["x", "one"], "dimensions": [1], "reducer": "add",
            "type": "tensor<4x)" +
            t + R"(>", "result": "s"},
           {"op": "constant", "value": 16, "type": "tensor<4x6xf32>", "result": "sixteen"},
           {"op": "multiply", "operands": ["f", "sixteen"], "result": "wide"},
           {"op": "convert", "operands": ["wide"], "type": "tensor<4x6x)" +
            t + R"(>", "result": "c"},
           {"op": "compare", "operands": ["a", "c"], "comparison_direction": "LT", "result": "lt"},
           {"op": "select", "operands": ["lt", "a", "c"], "result": "low"},
           {"op": "convert", "operands": ["low"], "type": "tensor<4x6xf32>", "result": "back"})",
        R"({"value": "d"}, {"value": "s", "sharding": "<@m, [{x}]>"}, {"value": "back"},
           {"value": "c"})");
    Graph graph = loadVerified(json);
    CHECK(checkCompiledEqualsInterpreter(graph, 13) == "");
  }
}

TEST_CASE("rng_bit_generator: each device makes exactly its piece of the global stream") {
  // THREE_FRY's 32-bit words pair along the halved dim (even, odd and
  // scalar shapes), 64-bit and narrow words, PHILOX with 2 and 3 state
  // words; each output sharded on every dim, unevenly too; the state,
  // sharded, is gathered first (it needs replication).
  const std::string ops = R"(
    {"op": "rng_bit_generator", "operands": ["k2"], "results": ["t0", "a"],
     "types": ["tensor<2xui64>", "tensor<5x6x3xui32>"], "rng_algorithm": "THREE_FRY"},
    {"op": "rng_bit_generator", "operands": ["t0"], "results": ["t1", "b"],
     "types": ["tensor<2xui64>", "tensor<7x5xi16>"], "rng_algorithm": "THREE_FRY"},
    {"op": "rng_bit_generator", "operands": ["k2"], "results": ["t2", "c"],
     "types": ["tensor<2xui64>", "tensor<9x3xui64>"], "rng_algorithm": "THREE_FRY"},
    {"op": "rng_bit_generator", "operands": ["k2"], "results": ["t3", "d"],
     "types": ["tensor<2xui64>", "tensor<ui32>"], "rng_algorithm": "THREE_FRY"},
    {"op": "rng_bit_generator", "operands": ["k3"], "results": ["p0", "e"],
     "types": ["tensor<3xui64>", "tensor<3x5xf32>"], "rng_algorithm": "PHILOX"},
    {"op": "rng_bit_generator", "operands": ["k2"], "results": ["p1", "f"],
     "types": ["tensor<2xui64>", "tensor<7x3xi64>"], "rng_algorithm": "DEFAULT"},
    {"op": "rng_bit_generator", "operands": ["k3"], "results": ["p2", "g"],
     "types": ["tensor<3xui64>", "tensor<6x5xui8>"], "rng_algorithm": "PHILOX"})";
  for (const char *sharding : {"[{x}, {y}]", "[{y}, {x}]", "[{x, y}, {}]", "[{}, {}]"}) {
    CAPTURE(sharding);
    const std::string s = std::string(R"(", "sharding": "<@m, )") + sharding + ">\"}";
    const std::string outputs =
        R"({"value": "a", "sharding": "<@m, )" +
        std::string(sharding).substr(0, std::string(sharding).size() - 1) +
        R"(, {}]>"}, {"value": "b)" + s + R"(, {"value": "c)" + s + R"(, {"value": "d"},
           {"value": "e)" +
        s + R"(, {"value": "f)" + s + R"(, {"value": "g)" + s +
        R"(, {"value": "t1"}, {"value": "p0"}, {"value": "p1"}, {"value": "t3"})";
    const std::string inputs =
        R"({"name": "k2", "type": "tensor<2xui64>", "sharding": "<@m, [{x}]>"},
           {"name": "k3", "type": "tensor<3xui64>"})";
    Graph graph = loadVerified(graphOn(kMesh2x2, inputs, ops, outputs));
    CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("a scatter of two inputs (argmax by scatter, a sum of each), compiled, equals the "
          "interpreter") {
  // Indices read at run time (random: past both ends too); the inputs
  // sharded along their inserted dim, their window dim or both; the updates
  // along their batch dim (the argmax gathers them for the op, the sums of
  // f32 and i32 add their pieces) or their window dim.
  const std::string body = R"("update_computation": {"args": [
      {"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<i32>"},
      {"name": "c", "type": "tensor<f32>"}, {"name": "d", "type": "tensor<i32>"}], "ops": [)";
  const std::string numbers =
      R"("scatter_dimension_numbers": {"update_window_dims": [1], "inserted_window_dims": [0],
                                       "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1})";
  const std::string ops =
      R"({"op": "scatter", "operands": ["t", "n", "i", "u", "v"], "results": ["max", "argmax"], )" +
      numbers + ", " + body +
      R"({"op": "compare", "operands": ["a", "c"], "result": "keep", "comparison_direction": "GE"},
         {"op": "select", "operands": ["keep", "a", "c"], "result": "m"},
         {"op": "select", "operands": ["keep", "b", "d"], "result": "k"}],
         "return": ["m", "k"]}},
      {"op": "scatter", "operands": ["t", "n", "i", "u", "v"], "results": ["sum", "count"], )" +
      numbers + ", " + body +
      R"({"op": "add", "operands": ["a", "c"], "result": "s"},
         {"op": "add", "operands": ["b", "d"], "result": "e"}],
         "return": ["s", "e"]}})";
  const std::string outputs =
      R"({"value": "max"}, {"value": "argmax"}, {"value": "sum"}, {"value": "count"})";
  for (const auto &[table, updates] : kIndexedShardings) {
    CAPTURE(table);
    CAPTURE(updates);
    const std::string t(table), u(updates);
    const std::string inputs =
        R"({"name": "t", "type": "tensor<8x6xf32>", "sharding": "<@m, )" + t +
        R"(>"}, {"name": "n", "type": "tensor<8x6xi32>", "sharding": "<@m, )" + t +
        R"(>"}, {"name": "i", "type": "tensor<4x1xi32>", "sharding": "<@m, [{x}, {}]>"},
           {"name": "u", "type": "tensor<4x6xf32>", "sharding": "<@m, )" +
        u + R"(>"}, {"name": "v", "type": "tensor<4x6xi32>", "sharding": "<@m, )" + u + R"(>"})";
    Graph graph = loadVerified(graphOn(kMesh2x2, inputs, ops, outputs));
    CHECK(checkCompiledEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("8-, 6- and 4-bit float programs round each op's result; sums all-reduced") {
  for (const char *type : {"f8E4M3FN", "f8E5M2FNUZ", "f8E8M0FNU", "f6E3M2FN"}) {
    CAPTURE(type);
    const std::string t(type);
    std::string json = graphOn(
        kMesh2x2,
        R"({"name": "a", "type": "tensor<4x6x)" + t + R"(>", "sharding": "<@m, [{x}, {y}]>"},
           {"name": "b", "type": "tensor<6x4x)" +
            t + R"(>", "sharding": "<@m, [{y}, {}]>"},
           {"name": "f", "type": "tensor<4x6xf64>", "sharding": "<@m, [{x}, {}]>"})",
        R"({"op": "dot_general", "operands": ["a", "b"], "lhs_contracting_dimensions": [1],
            "rhs_contracting_dimensions": [0], "result": "d"},
           {"op": "multiply", "operands": ["a", "a"], "result": "p"},
           {"op": "add", "operands": ["p", "a"], "result": "q"},
           {"op": "constant", "value": 0.5, "type": "tensor<)" +
            t + R"(>", "result": "half"},
           {"op": "reduce", "operands": ["q", "half"], "dimensions": [1], "reducer": "add",
            "type": "tensor<4x)" +
            t + R"(>", "result": "s"},
           {"op": "constant", "value": 1.0625, "type": "tensor<4x6xf64>", "result": "tie"},
           {"op": "multiply", "operands": ["f", "tie"], "result": "wide"},
           {"op": "convert", "operands": ["wide"], "type": "tensor<4x6x)" +
            t + R"(>", "result": "c"},
           {"op": "compare", "operands": ["a", "c"], "comparison_direction": "LT", "result": "lt"},
           {"op": "select", "operands": ["lt", "a", "c"], "result": "low"},
           {"op": "convert", "operands": ["low"], "type": "tensor<4x6xf32>", "result": "back"})",
        R"({"value": "d"}, {"value": "s", "sharding": "<@m, [{x}]>"}, {"value": "back"},
           {"value": "c"})");
    Graph graph = loadVerified(json);
    CHECK(checkCompiledEqualsInterpreter(graph, 17) == "");
  }
}
