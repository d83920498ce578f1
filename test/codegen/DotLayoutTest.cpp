// How a dot_general's operands reach the kernel (ComputeEmitter,
// templates/kernels/dot.h): an rhs laid out [batch, free, contracting] (the
// k of attention's q k^T) is packed from its rows in place, with no
// transposed copy; every element type, depth (one depth block or several,
// odd depths for bf16's pairs) and ragged tile edge gives the interpreter's
// results.

#include <doctest/doctest.h>

#include <cctype>
#include <string>

#include "test/codegen/CodegenTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// p = a . b^T per batch: a [2, M, K], b [2, N, K], contracting the last
/// dims, on a mesh of 2 with a's rows split.
std::string transposedRhsDot(const std::string &element, int64_t m, int64_t n, int64_t k) {
  auto type = [&](int64_t rows, int64_t cols) {
    return "\"tensor<2x" + std::to_string(rows) + "x" + std::to_string(cols) + "x" + element +
           ">\"";
  };
  return R"({"format": "shardgen-graph", "version": 1, "name": "qk",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": )" +
         type(m, k) + R"(, "sharding": "<@m, [{}, {x}, {}]>"},
               {"name": "b", "type": )" +
         type(n, k) + R"(, "sharding": "<@m, [{}, {}, {}]>"}],
    "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "p",
             "lhs_batching_dimensions": [0], "rhs_batching_dimensions": [0],
             "lhs_contracting_dimensions": [2], "rhs_contracting_dimensions": [2]}],
    "outputs": [{"value": "p", "sharding": "<@m, [{}, {x}, {}]>"}]})";
}

} // namespace

TEST_CASE("a transposed rhs is packed in place") {
  const std::string source = generatedSource(transposedRhsDot("f32", 6, 5, 7));
  CHECK(countOccurrences(source, "dotGeneral<F32, 2, 3, 5, 7, true>") == 1);
  CHECK(countOccurrences(source, "Scratch rhs") == 0);
}

TEST_CASE("a transposed rhs gives the interpreter's results") {
  struct Shape {
    int64_t m, n, k;
  };
  // Ragged tiles; an odd depth (bf16 pairs a zero); depths of more than
  // one block (f32 256, bf16 512).
  for (const Shape shape : {Shape{6, 5, 7}, Shape{18, 40, 33}, Shape{4, 35, 300}, Shape{4, 9, 601}})
    for (const char *element : {"f32", "bf16", "f16", "i32", "f64"}) {
      CAPTURE(element);
      CAPTURE(shape.m);
      CAPTURE(shape.n);
      CAPTURE(shape.k);
      Graph graph = loadVerified(transposedRhsDot(element, shape.m, shape.n, shape.k));
      CHECK(checkCompiledEqualsInterpreter(graph, 3) == "");
    }
}

TEST_CASE(
    "a dot_general with a wider result widens its operands' pieces and sums in the result's type") {
  // JAX's preferred_element_type; the contracting dim split over y (partial
  // sums all-reduced in the result's type), lhs rows over x.
  for (const auto &[from, to] :
       {std::pair{"bf16", "f32"}, {"f16", "f64"}, {"i8", "i32"}, {"ui8", "i16"}, {"f32", "f64"}}) {
    CAPTURE(from);
    CAPTURE(to);
    const std::string graph =
        std::string(R"({"format": "shardgen-graph", "version": 1, "name": "mixed",
      "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
      "inputs": [{"name": "a", "type": "tensor<6x37x)") +
        from + R"(>", "sharding": "<@m, [{x}, {y}]>"},
                 {"name": "b", "type": "tensor<37x5x)" +
        from + R"(>", "sharding": "<@m, [{y}, {}]>"}],
      "ops": [{"op": "dot_general", "operands": ["a", "b"], "result": "p", "type": "tensor<6x5x)" +
        to + R"(>",
               "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]}],
      "outputs": [{"value": "p"}]})";
    auto tag = [](std::string name) {
      for (char &c : name)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return name;
    };
    // Both operands widen (lhs and rhs pieces), before the dot in `to`.
    const std::string source = generatedSource(graph);
    CHECK(countOccurrences(source, "convert<" + tag(from) + ", " + tag(to) + ",") >= 2);
    CHECK(countOccurrences(source, "dotGeneral<" + tag(to) + ",") >= 1);
    Graph verified = loadVerified(graph);
    CHECK(checkCompiledEqualsInterpreter(verified, 5) == "");
  }
}
