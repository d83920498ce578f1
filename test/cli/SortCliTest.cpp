// sort and top_k through the tool, end to end on a 2x2 mesh: JAX's argsort
// (values and an iota sorted by LT TOTALORDER) and chlo.top_k with their
// sorted dim sharded, replicated or the other dim sharded. eval, run --check
// and the compiled program agree bit for bit: NaNs of both signs, signed
// zeros and ties across shards included.

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>

#include "compiler/frontend/Npy.h"
#include "test/cli/RunMatchesEval.h"

using namespace shardgen;
using namespace shardgen::test;

namespace sort_cli {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

double negativeNaN() {
  const uint64_t bits = 0xfff8000000000000ull;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// Rows of 16 whose order crosses shards: ties, NaNs, zeros, infinities.
Literal sortRows() {
  Literal x(TensorType{ElementType::F32, {4, 16}});
  const double row0[] = {3,     1,    2,   kNaN, -0.0, 0.0, negativeNaN(), 1, 7, 7,
                         -kInf, kInf, 0.0, -0.0, 2,    1};
  for (int64_t c = 0; c < 16; ++c) {
    x.setFloat(c, row0[c]);
    x.setFloat(16 + c, static_cast<double>((c * 7) % 5)); // many ties
    x.setFloat(32 + c, 15.0 - static_cast<double>(c));    // descending
    x.setFloat(48 + c, c % 2 ? -kInf : kNaN);
  }
  return x;
}

std::string argsortMlir(const std::string &sharding, int64_t dimension) {
  return R"(module @jit_argsort attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, )" +
         sharding + R"(>}) -> (tensor<4x16xf32>, tensor<4x16xi32>) {
    %0 = stablehlo.iota dim = )" +
         std::to_string(dimension) + R"( : tensor<4x16xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = )" +
         std::to_string(dimension) + R"( : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %2 = stablehlo.compare  LT, %arg1, %arg2,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<4x16xf32>, tensor<4x16xi32>) -> (tensor<4x16xf32>, tensor<4x16xi32>)
    return %1#0, %1#1 : tensor<4x16xf32>, tensor<4x16xi32>
  }
}
)";
}

std::string topKMlir(const std::string &sharding, int64_t k) {
  const std::string out = "tensor<4x" + std::to_string(k);
  return R"(module @jit_top_k attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, )" +
         sharding + R"(>}) -> ()" + out + "xf32>, " + out + R"(xi32>) {
    %values, %indices = chlo.top_k(%arg0, k = )" +
         std::to_string(k) + ") : tensor<4x16xf32> -> (" + out + "xf32>, " + out + R"(xi32>)
    return %values, %indices : )" +
         out + "xf32>, " + out + R"(xi32>
  }
}
)";
}

/// eval, run --check and the outputs of both, byte for byte.
void checkAgrees(const std::string &mlir) {
  std::string work = makeTempDir();
  writeFile(work + "/g.mlir", mlir);
  writeNpy(work + "/x.npy", sortRows());
  std::string graph = "'" + work + "/g.mlir' --inputs '" + work + "/x.npy'";
  checkRunMatchesEval(work, graph, 2);
}

} // namespace sort_cli

using namespace sort_cli;

TEST_CASE("argsort as JAX prints it on a 2x2 mesh: each sharding gives eval's answer") {
  for (const char *sharding : {R"([{"x"}, {"y"}])", R"([{}, {"x", "y"}])", R"([{"y"}, {}])"})
    for (int64_t dimension : {1, 0}) {
      INFO(sharding, " dimension ", dimension);
      checkAgrees(argsortMlir(sharding, dimension));
    }
}

TEST_CASE("argsort's values and indices: TOTALORDER and stability through the tool") {
  std::string work = makeTempDir();
  writeFile(work + "/g.mlir", argsortMlir(R"([{"x"}, {"y"}])", 1));
  writeNpy(work + "/x.npy", sortRows());
  ToolResult run =
      runShardgen("run '" + work + "/g.mlir' --inputs '" + work + "/x.npy' -o '" + work + "/run'");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  Literal values = readNpy(work + "/run/out0.npy");
  Literal indices = readNpy(work + "/run/out1.npy");
  // Row 0: -NaN, -inf, -0 (4), -0 (13), +0 (5), +0 (12), 1 (1), 1 (7), 1 (15), 2 (2), 2 (14),
  // 3, 7 (8), 7 (9), inf, NaN.
  const std::vector<int64_t> row0 = {6, 10, 4, 13, 5, 12, 1, 7, 15, 2, 14, 0, 8, 9, 11, 3};
  for (int64_t c = 0; c < 16; ++c)
    CHECK(indices.getInt(c) == row0[c]);
  CHECK(std::signbit(values.getFloat(2)));
  CHECK_FALSE(std::signbit(values.getFloat(4)));
  CHECK(std::isnan(values.getFloat(15)));
  // Row 3: the -inf at odd columns in order, then the NaNs at even ones.
  for (int64_t c = 0; c < 8; ++c) {
    CHECK(indices.getInt(48 + c) == 2 * c + 1);
    CHECK(indices.getInt(56 + c) == 2 * c);
  }
}

TEST_CASE("chlo.top_k on a 2x2 mesh: each sharding and k give eval's answer") {
  for (const char *sharding : {R"([{"x"}, {"y"}])", R"([{}, {"x", "y"}])", R"([{"y"}, {}])"})
    for (int64_t k : {1, 5, 16}) {
      INFO(sharding, " k ", k);
      checkAgrees(topKMlir(sharding, k));
    }
  std::string work = makeTempDir();
  writeFile(work + "/g.mlir", topKMlir(R"([{"x"}, {"y"}])", 4));
  writeNpy(work + "/x.npy", sortRows());
  ToolResult run =
      runShardgen("run '" + work + "/g.mlir' --inputs '" + work + "/x.npy' -o '" + work + "/run'");
  REQUIRE(run.exitCode == 0);
  Literal indices = readNpy(work + "/run/out1.npy");
  const std::vector<int64_t> expected = {3, 11, 8,  9,  // NaN, inf, the tied 7s in order
                                         2, 7,  12, 4,  // the 4s, then the first 3
                                         0, 1,  2,  3,  // descending: the first four
                                         0, 2,  4,  6}; // the NaNs in order
  for (size_t i = 0; i < expected.size(); ++i)
    CHECK(indices.getInt(static_cast<int64_t>(i)) == expected[i]);
}

TEST_CASE("sort of several element types by a comparator that is no strict weak order, top_k of "
          "f64, i8 and i1: eval and run agree bit for bit") {
  // The comparator mixes LT on ui64 with GT on i1: not a strict weak order,
  // so only the same merge schedule in the interpreter and the kernel gives
  // the same answer.
  std::string work = makeTempDir();
  writeFile(work + "/g.json", R"({"format": "shardgen-graph", "version": 1, "name": "types",
 "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
 "inputs": [{"name": "h", "type": "tensor<6x10xf16>", "sharding": "<@mesh, [{x}, {y}]>"},
            {"name": "b", "type": "tensor<6x10xi1>"},
            {"name": "u", "type": "tensor<6x10xui64>", "sharding": "<@mesh, [{y}, {}]>"},
            {"name": "d", "type": "tensor<6x10xf64>", "sharding": "<@mesh, [{}, {x}]>"},
            {"name": "c", "type": "tensor<6x10xi8>"}],
 "ops": [
  {"op": "sort", "operands": ["h", "b", "u"], "results": ["sh", "sb", "su"], "dimension": 0,
   "comparator": {"args": [{"name": "h0", "type": "tensor<f16>"}, {"name": "h1", "type": "tensor<f16>"},
                           {"name": "b0", "type": "tensor<i1>"}, {"name": "b1", "type": "tensor<i1>"},
                           {"name": "u0", "type": "tensor<ui64>"}, {"name": "u1", "type": "tensor<ui64>"}],
                  "ops": [{"op": "compare", "operands": ["u0", "u1"], "result": "lt", "comparison_direction": "LT"},
                          {"op": "compare", "operands": ["b0", "b1"], "result": "eqb", "comparison_direction": "GT"},
                          {"op": "or", "operands": ["lt", "eqb"], "result": "r"}],
                  "return": ["r"]}},
  {"op": "top_k", "operands": ["d"], "results": ["dv", "di"], "k": 4},
  {"op": "top_k", "operands": ["c"], "results": ["cv", "ci"], "k": 10},
  {"op": "top_k", "operands": ["b"], "results": ["bv", "bi"], "k": 3}
 ],
 "outputs": [{"value": "sh"}, {"value": "sb"}, {"value": "su"}, {"value": "dv"}, {"value": "di"}, {"value": "cv"}, {"value": "ci"}, {"value": "bv"}, {"value": "bi"}]})");
  ToolResult eval = runShardgen("eval '" + work + "/g.json' -o '" + work + "/eval'");
  INFO(eval.err);
  REQUIRE(eval.exitCode == 0);
  ToolResult run =
      runShardgen("run '" + work + "/g.json' --check --verify-spmd -o '" + work + "/run'");
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  for (int out = 0; out < 9; ++out) {
    const std::string name = "/out" + std::to_string(out) + ".npy";
    CHECK(readFile(work + "/eval" + name) == readFile(work + "/run" + name));
  }
}

namespace sort_cli {

size_t occurrences(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

/// Rows of 64 (four sortRows rows side by side, rotated per row): NaNs of
/// both signs, signed zeros and ties in every quarter of the row.
Literal wideRows() {
  const Literal narrow = sortRows();
  Literal x(TensorType{ElementType::F32, {4, 64}});
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 64; ++c)
      x.setFloat(r * 64 + c, narrow.getFloat((r + c / 16) % 4 * 16 + c % 16));
  return x;
}

/// top_k of a 4x64 row on mesh [x=a, y=b], as chlo.top_k or as the
/// mhlo.topk custom call older JAX prints.
std::string wideTopKMlir(int64_t a, int64_t b, const std::string &sharding, int64_t k,
                         bool customCall) {
  const std::string out = "tensor<4x" + std::to_string(k);
  const std::string types = out + "xf32>, " + out + "xi32>";
  const std::string call =
      customCall
          ? "stablehlo.custom_call @mhlo.topk(%arg0) {mhlo.attributes = {k = " + std::to_string(k) +
                " : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<4x64xf32>) -> (" +
                types + ")"
          : "chlo.top_k(%arg0, k = " + std::to_string(k) + ") : tensor<4x64xf32> -> (" + types +
                ")";
  return "module @jit_top_k attributes {mhlo.num_partitions = " + std::to_string(a * b) +
         " : i32, mhlo.num_replicas = 1 : i32} {\n  sdy.mesh @mesh = <[\"x\"=" + std::to_string(a) +
         ", \"y\"=" + std::to_string(b) +
         "]>\n  func.func public @main(%arg0: tensor<4x64xf32> {sdy.sharding = "
         "#sdy.sharding<@mesh, " +
         sharding + ">}) -> (" + types + ") {\n    %values, %indices = " + call +
         "\n    return %values, %indices : " + types + "\n  }\n}\n";
}

} // namespace sort_cli

TEST_CASE("top_k of a sharded row on 2x2 and 1x4 meshes: candidates merged, eval's bits") {
  // Each device takes the top k of its piece; only k candidates per piece
  // (a value and an index each) move: 4 rows x (pieces - 1) x k per device.
  for (auto [a, b, sharding, pieces] :
       {std::tuple{2, 2, R"([{}, {"x", "y"}])", 4}, std::tuple{2, 2, R"([{"x"}, {"y"}])", 2},
        std::tuple{1, 4, R"([{}, {"y"}])", 4}})
    for (int64_t k : {1, 3, 5})
      for (bool customCall : {false, true}) {
        INFO(sharding, " k ", k, customCall ? " mhlo.topk" : " chlo.top_k");
        std::string work = makeTempDir();
        writeFile(work + "/g.mlir", wideTopKMlir(a, b, sharding, k, customCall));
        writeNpy(work + "/x.npy", wideRows());
        const std::string graph = "'" + work + "/g.mlir' --inputs '" + work + "/x.npy'";
        ToolResult eval = runShardgen("eval " + graph + " -o '" + work + "/eval'");
        INFO(eval.err);
        REQUIRE(eval.exitCode == 0);
        ToolResult run =
            runShardgen("run " + graph + " --check --verify-spmd --report -o '" + work + "/run'");
        INFO(run.out, run.err);
        REQUIRE(run.exitCode == 0);
        const int64_t rows = pieces == 2 ? 2 : 4, bytes = rows * (pieces - 1) * k * 4;
        const std::string each = std::to_string(bytes) + "/" + std::to_string(bytes);
        CHECK(occurrences(run.out + run.err, "all_gather") == 2);
        CHECK(occurrences(run.out + run.err, "d3: " + each) == 2);
        for (const char *out : {"/out0.npy", "/out1.npy"})
          CHECK(readFile(work + "/eval" + out) == readFile(work + "/run" + out));
      }
}
