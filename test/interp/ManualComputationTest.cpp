// manual_computation on a 2x2 mesh {x, y}: every collective, groups whose
// axes are listed in the opposite order to the mesh (["y", "x"]: position
// = 2 * y + x), sub-groups, nesting, replicated and unreduced results.
// Device (x, y) of the in_sharding <@m, [{x}, {y}]> holds the 2x2 block
// A[2x:2x+2, 2y:2y+2] of the 4x4 input A[r][c] = 4r + c.

#include <doctest/doctest.h>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

const char *kMesh =
    R"("meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}])";

std::string graphJson(const std::string &inputs, const std::string &ops,
                      const std::string &outputs) {
  return std::string(R"({"format": "shardgen-graph", "version": 1, )") + kMesh +
         R"(, "inputs": [)" + inputs + R"(], "ops": [)" + ops + R"(], "outputs": [)" + outputs +
         "]}";
}

/// A[r][c] = 4r + c, as i32.
Literal matrixA() {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 16; ++i)
    values.push_back(i);
  return intLiteral("tensor<4x4xi32>", values);
}

int64_t a(int64_t r, int64_t c) { return 4 * r + c; }

/// S[i][j] = sum over the four devices of their block element [i][j].
int64_t blockSum(int64_t i, int64_t j) {
  int64_t sum = 0;
  for (int64_t x = 0; x < 2; ++x)
    for (int64_t y = 0; y < 2; ++y)
      sum += a(2 * x + i, 2 * y + j);
  return sum;
}

} // namespace

TEST_CASE("manual_computation: every collective over axes [y, x] on a 2x2 mesh") {
  std::string json = graphJson(
      R"({"name": "a", "type": "tensor<4x4xi32>"}, {"name": "t", "type": "tensor<2x16xi32>"})",
      R"({"op": "manual_computation", "operands": ["a", "t"],
          "results": ["sum", "gathered", "scattered", "exchanged", "permuted", "ix", "iy"],
          "in_shardings": ["<@m, [{x}, {y}]>", "<@m, [{}, {x, y}]>"],
          "out_shardings": ["<@m, [{x}, {y}]>", "<@m, [{}, {}], replicated={x, y}>",
                            "<@m, [{x}, {y}]>", "<@m, [{x, y}, {}]>", "<@m, [{x}, {y}]>",
                            "<@m, [{x}, {y}]>", "<@m, [{x}, {y}]>"],
          "manual_axes": ["x", "y"],
          "body": {
            "args": [{"name": "al", "type": "tensor<2x2xi32>"}, {"name": "tl", "type": "tensor<2x4xi32>"}],
            "ops": [
              {"op": "all_reduce", "operands": ["al"], "result": "s", "axes": ["y", "x"], "reducer": "add"},
              {"op": "all_gather", "operands": ["al"], "result": "g", "axes": ["y", "x"], "dimension": 0},
              {"op": "concatenate", "operands": ["al", "al"], "result": "c", "dimension": 0},
              {"op": "reduce_scatter", "operands": ["c"], "result": "rs", "axes": ["y", "x"],
               "dimension": 0, "reducer": "add"},
              {"op": "all_to_all", "operands": ["tl"], "result": "e", "axes": ["y", "x"],
               "split_dimension": 1, "concat_dimension": 0},
              {"op": "collective_permute", "operands": ["al"], "result": "p", "axes": ["y", "x"], "shift": -1},
              {"op": "axis_index", "operands": [], "result": "xi", "axis": "x"},
              {"op": "axis_index", "operands": [], "result": "yi", "axis": "y"},
              {"op": "reshape", "operands": ["xi"], "result": "xr", "type": "tensor<1x1xi32>"},
              {"op": "reshape", "operands": ["yi"], "result": "yr", "type": "tensor<1x1xi32>"}
            ],
            "return": ["s", "g", "rs", "e", "p", "xr", "yr"]}})",
      R"({"value": "sum"}, {"value": "gathered"}, {"value": "scattered"}, {"value": "exchanged"},
         {"value": "permuted"}, {"value": "ix"}, {"value": "iy"})");
  std::vector<int64_t> tValues;
  for (int64_t i = 0; i < 32; ++i)
    tValues.push_back(i); // T[r][c] = 16r + c
  Graph graph = loadGraph(json);
  std::vector<Literal> out = evaluate(graph, {matrixA(), intLiteral("tensor<2x16xi32>", tValues)});
  REQUIRE(out.size() == 7);

  SUBCASE("all_reduce: every device holds the sum of all blocks") {
    std::vector<int64_t> expected;
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t c = 0; c < 4; ++c)
        expected.push_back(blockSum(r % 2, c % 2));
    CHECK(out[0].shape() == Shape{4, 4});
    CHECK(ints(out[0]) == expected);
    CHECK(blockSum(0, 0) == 20); // by hand: 0 + 2 + 8 + 10
  }
  SUBCASE("all_gather concatenates in position order (y major): (0,0) (1,0) (0,1) (1,1)") {
    CHECK(out[1].shape() == Shape{8, 2});
    CHECK(ints(out[1]) ==
          std::vector<int64_t>{0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15});
  }
  SUBCASE("reduce_scatter: position 2y + x keeps row (2y + x) % 2 = x of [S; S]") {
    // Device (x, y) holds S[x] (1x2); out_sharding [{x}, {y}] puts it at
    // global [x][2y : 2y + 2].
    CHECK(out[2].shape() == Shape{2, 4});
    CHECK(ints(out[2]) == std::vector<int64_t>{20, 24, 20, 24, 36, 40, 36, 40});
  }
  SUBCASE("all_to_all: position p receives column p of every source, stacked in source order") {
    // Device (x, y) holds columns 4s..4s+3 of T with s = 2x + y; the source
    // at position q is device (q % 2, q / 2), so s(q) = 2 (q % 2) + q / 2.
    // Position p receives, for q = 0..3 and rows r = 0, 1: T[r][4 s(q) + p].
    // The result dim 0 is sharded on {x, y}: global block s = 2x + y comes
    // from the device at position p = 2y + x.
    std::vector<int64_t> expected;
    for (int64_t s = 0; s < 4; ++s) {
      int64_t x = s / 2, y = s % 2, p = 2 * y + x;
      for (int64_t q = 0; q < 4; ++q)
        for (int64_t r = 0; r < 2; ++r)
          expected.push_back(16 * r + 4 * (2 * (q % 2) + q / 2) + p);
    }
    CHECK(out[3].shape() == Shape{32, 1});
    CHECK(ints(out[3]) == expected);
    CHECK(ints(out[3])[2] == 8); // device (0,0), source q = 1 = device (1,0): T[0][8]
  }
  SUBCASE("collective_permute with shift -1: position p receives from position p + 1") {
    // (0,0) <- (1,0); (0,1) <- (1,1); (1,0) <- (0,1); (1,1) <- (0,0).
    CHECK(ints(out[4]) == std::vector<int64_t>{8, 9, 10, 11, 12, 13, 14, 15, //
                                               2, 3, 0, 1, 6, 7, 4, 5});
  }
  SUBCASE("axis_index gives each device its coordinate") {
    CHECK(ints(out[5]) == std::vector<int64_t>{0, 0, 1, 1});
    CHECK(ints(out[6]) == std::vector<int64_t>{0, 1, 0, 1});
  }
}

TEST_CASE("manual_computation: collectives over one axis form groups of two") {
  std::string json =
      graphJson(R"({"name": "a", "type": "tensor<4x4xi32>"})",
                R"({"op": "manual_computation", "operands": ["a"], "results": ["r", "g", "p"],
          "in_shardings": ["<@m, [{x}, {y}]>"],
          "out_shardings": ["<@m, [{x}, {y}]>", "<@m, [{x}, {y}]>", "<@m, [{x}, {y}]>"],
          "manual_axes": ["x", "y"],
          "body": {
            "args": [{"name": "al", "type": "tensor<2x2xi32>"}],
            "ops": [
              {"op": "all_reduce", "operands": ["al"], "result": "s", "axes": ["x"], "reducer": "max"},
              {"op": "all_gather", "operands": ["al"], "result": "g", "axes": ["y"], "dimension": 1},
              {"op": "collective_permute", "operands": ["al"], "result": "p", "axes": ["x"], "shift": 3}
            ],
            "return": ["s", "g", "p"]}})",
                R"({"value": "r"}, {"value": "g"}, {"value": "p"})");
  Graph graph = loadGraph(json);
  std::vector<Literal> out = evaluate(graph, {matrixA()});
  // max over x of A[i][c] and A[2 + i][c] is the bottom block: A[2 + r % 2][c].
  std::vector<int64_t> maxOverX, gathered, swapped;
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 4; ++c) {
      maxOverX.push_back(a(2 + r % 2, c));
      swapped.push_back(a((r + 2) % 4, c)); // shift 3 = -1 mod 2: the other x
    }
  // all_gather over y along dim 1 gives each device its two rows in full;
  // out_sharding [{x}, {y}] lays the two (identical) copies side by side.
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t copy = 0; copy < 2; ++copy)
      for (int64_t c = 0; c < 4; ++c)
        gathered.push_back(a(r, c));
  CHECK(ints(out[0]) == maxOverX);
  CHECK(out[1].shape() == Shape{4, 8});
  CHECK(ints(out[1]) == gathered);
  CHECK(ints(out[2]) == swapped);
}

TEST_CASE("manual_computation: nested, with collectives over inner and enclosing axes") {
  // Outer: manual x, rows split. Inner: manual y, columns split; it adds the
  // all-device block sum S to its block. Back in the outer body, an
  // all_gather over x rebuilds the full matrix on every x.
  std::string json =
      graphJson(R"({"name": "a", "type": "tensor<4x4xi32>"})",
                R"({"op": "manual_computation", "operands": ["a"], "results": ["r", "full"],
          "in_shardings": ["<@m, [{x}, {}]>"],
          "out_shardings": ["<@m, [{x}, {}]>", "<@m, [{}, {}], replicated={x}>"],
          "manual_axes": ["x"],
          "body": {
            "args": [{"name": "rows", "type": "tensor<2x4xi32>"}],
            "ops": [
              {"op": "manual_computation", "operands": ["rows"], "results": ["inner"],
               "in_shardings": ["<@m, [{}, {y}]>"], "out_shardings": ["<@m, [{}, {y}]>"],
               "manual_axes": ["y"],
               "body": {
                 "args": [{"name": "block", "type": "tensor<2x2xi32>"}],
                 "ops": [
                   {"op": "all_reduce", "operands": ["block"], "result": "s", "axes": ["x", "y"], "reducer": "add"},
                   {"op": "add", "operands": ["s", "block"], "result": "sum"}
                 ],
                 "return": ["sum"]}},
              {"op": "all_gather", "operands": ["rows"], "result": "g", "axes": ["x"], "dimension": 0}
            ],
            "return": ["inner", "g"]}})",
                R"({"value": "r"}, {"value": "full"})");
  Graph graph = loadGraph(json);
  std::vector<Literal> out = evaluate(graph, {matrixA()});
  std::vector<int64_t> expected;
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 4; ++c)
      expected.push_back(a(r, c) + blockSum(r % 2, c % 2));
  CHECK(ints(out[0]) == expected);
  CHECK(ints(out[1]) == ints(matrixA()));
}

TEST_CASE(
    "manual_computation: unreduced results are summed, replicated ones come from coordinate 0") {
  // Contracting dim sharded on x: each x holds a partial product. Every
  // device adds 1000 * x + 100 * y: the unreduced sum over x adds 1000, and
  // the replicated y takes y = 0 (adds 0).
  std::string json = graphJson(
      R"({"name": "l", "type": "tensor<2x4xi32>"}, {"name": "r", "type": "tensor<4x2xi32>"})",
      R"({"op": "manual_computation", "operands": ["l", "r"], "results": ["p"],
          "in_shardings": ["<@m, [{}, {x}], replicated={y}>", "<@m, [{x}, {}], replicated={y}>"],
          "out_shardings": ["<@m, [{}, {}], replicated={y}, unreduced={x}>"],
          "manual_axes": ["x", "y"],
          "body": {
            "args": [{"name": "ll", "type": "tensor<2x2xi32>"}, {"name": "rl", "type": "tensor<2x2xi32>"}],
            "ops": [
              {"op": "dot_general", "operands": ["ll", "rl"], "result": "d",
               "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
              {"op": "axis_index", "operands": [], "result": "xi", "axis": "x"},
              {"op": "axis_index", "operands": [], "result": "yi", "axis": "y"},
              {"op": "constant", "operands": [], "result": "k1000", "value": 1000, "type": "tensor<i32>"},
              {"op": "constant", "operands": [], "result": "k100", "value": 100, "type": "tensor<i32>"},
              {"op": "multiply", "operands": ["xi", "k1000"], "result": "xs"},
              {"op": "multiply", "operands": ["yi", "k100"], "result": "ys"},
              {"op": "add", "operands": ["xs", "ys"], "result": "offset"},
              {"op": "broadcast_in_dim", "operands": ["offset"], "result": "ob",
               "broadcast_dimensions": [], "type": "tensor<2x2xi32>"},
              {"op": "add", "operands": ["d", "ob"], "result": "out"}
            ],
            "return": ["out"]}})",
      R"({"value": "p"})");
  Graph graph = loadGraph(json);
  Literal l = intLiteral("tensor<2x4xi32>", {1, 2, 3, 4, 5, 6, 7, 8});
  Literal r = intLiteral("tensor<4x2xi32>", {1, 0, 0, 1, 1, 1, 2, -1});
  std::vector<Literal> out = evaluate(graph, {l, r});
  // l . r = [[12, 1], [28, 5]] (by hand).
  CHECK(ints(out[0]) == std::vector<int64_t>{1012, 1001, 1028, 1005});
}
