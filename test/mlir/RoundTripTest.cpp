// import(export(g)) equals g, in the pretty and the generic form, for every
// sample, every sample after propagation (a sharding on every value) and
// random graphs; export(import(t)) keeps every op and sharding of the
// hand-written MLIR samples, which compute what their JSON twins compute.
#include <doctest/doctest.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"
#include "test/frontend/GraphEquality.h"
#include "test/mlir/MlirTestSupport.h"
#include "test/support/RandomGraphGenerator.h"
#include "test/support/TestValues.h"

using namespace shardgen;
using namespace shardgen::testing;
using mlir::MlirForm;
namespace fs = std::filesystem;

namespace {

Graph verified(Graph graph) {
  verifyGraph(graph);
  return graph;
}

Graph importText(const std::string &text) {
  try {
    return verified(mlir::importMlir(text).graph);
  } catch (const GraphError &error) {
    FAIL_CHECK("import failed at " << error.pointer() << ": " << error.what() << "\n" << text);
    throw;
  }
}

/// Exports `graph` in both forms, imports each and compares.
void checkRoundTrip(const Graph &graph) {
  for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
    std::string text = mlir::writeMlir(graph, form);
    INFO((form == MlirForm::Pretty ? "pretty" : "generic") << " form:\n" << text);
    Graph back = importText(text);
    Graph expected = graph.clone();
    normalizeForMlir(expected);
    normalizeForMlir(back);
    checkSameGraph(back, expected);
    // Written again, the text is the same: nothing drifts.
    CHECK(mlir::writeMlir(back, form) == text);
  }
}

std::vector<fs::path> jsonSamples() {
  fs::path samples = fs::path(SHARDGEN_SOURCE_DIR) / "samples";
  std::vector<fs::path> files = filesIn(samples, ".json");
  for (const auto &file : filesIn(samples / "custom_call", ".json"))
    files.push_back(file);
  return files;
}

} // namespace

TEST_CASE("import(export(g)) equals g for every JSON sample, before and after propagation") {
  std::vector<fs::path> samples = jsonSamples();
  REQUIRE(samples.size() >= 5);
  for (const auto &path : samples) {
    INFO(path.filename().string());
    Graph graph = verified(readGraph(readFile(path)));
    if (!firstDistributionPointer(graph).empty())
      continue; // MLIR has no form for distributions (the nd_* samples)
    checkRoundTrip(graph);
    applyPropagation(graph, propagateShardings(graph, PropagationStrategy::UserPriority));
    checkRoundTrip(graph);
  }
}

TEST_CASE("import(export(g)) equals g for random graphs") {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    INFO("seed " << seed);
    Graph graph = verified(readGraph(randomGraphJson(seed)));
    checkRoundTrip(graph);
    if (seed % 4 == 0) {
      applyPropagation(graph, propagateShardings(graph, PropagationStrategy::UserPriority));
      checkRoundTrip(graph);
    }
  }
}

TEST_CASE("export(import(t)) keeps every op and sharding of the hand-written MLIR samples") {
  fs::path folder = fs::path(SHARDGEN_SOURCE_DIR) / "samples" / "mlir";
  std::vector<fs::path> samples = filesIn(folder, ".mlir");
  REQUIRE(samples.size() >= 3);
  for (const auto &path : samples) {
    INFO(path.filename().string());
    Graph graph = importText(readFile(path));
    for (MlirForm form : {MlirForm::Pretty, MlirForm::Generic}) {
      Graph back = importText(mlir::writeMlir(graph, form));
      checkSameGraph(back, graph); // exact: both state every type
    }
  }
}

TEST_CASE("the MLIR samples compute what their JSON twins compute") {
  fs::path root = fs::path(SHARDGEN_SOURCE_DIR) / "samples";
  for (const char *name : {"mlp", "attention", "dp_grad_step", "argmax", "argsort_topk"}) {
    INFO(name);
    Graph fromMlir = importText(readFile(root / "mlir" / (std::string(name) + ".mlir")));
    Graph fromJson = verified(readGraph(readFile(root / (std::string(name) + ".json"))));
    REQUIRE(fromMlir.main.args.size() == fromJson.main.args.size());
    for (size_t i = 0; i < fromJson.main.args.size(); ++i) {
      CHECK(fromMlir.type(fromMlir.main.args[i].value) ==
            fromJson.type(fromJson.main.args[i].value));
      CHECK(fromMlir.main.args[i].sharding == fromJson.main.args[i].sharding);
    }
    for (size_t i = 0; i < fromJson.main.results.size(); ++i)
      CHECK(fromMlir.main.results[i].sharding == fromJson.main.results[i].sharding);
    std::vector<Literal> inputs = randomInputs(fromJson, 7);
    std::vector<Literal> expected = evaluate(fromJson, inputs), actual = evaluate(fromMlir, inputs);
    REQUIRE(actual.size() == expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
      std::string why;
      CHECK_MESSAGE(literalsClose(actual[i], expected[i], 1e-6, &why), why);
    }
  }
}

TEST_CASE("the bit ops, is_finite, atan2, reduce_precision and bitcast_convert round trip") {
  const std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "bits",
  "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
  "inputs": [{"name": "a", "type": "tensor<4x2xi32>", "sharding": "<@mesh, [{x}, {}]>"},
             {"name": "f", "type": "tensor<4x2xf32>"}],
  "ops": [{"op": "shift_left", "operands": ["a", "a"], "result": "s0"},
          {"op": "shift_right_arithmetic", "operands": ["s0", "a"], "result": "s1"},
          {"op": "shift_right_logical", "operands": ["s1", "a"], "result": "s2"},
          {"op": "popcnt", "operands": ["s2"], "result": "p"},
          {"op": "count_leading_zeros", "operands": ["p"], "result": "z"},
          {"op": "atan2", "operands": ["f", "f"], "result": "t"},
          {"op": "is_finite", "operands": ["t"], "result": "ok"},
          {"op": "reduce_precision", "operands": ["t"], "result": "r", "exponent_bits": 5,
           "mantissa_bits": 2},
          {"op": "bitcast_convert", "operands": ["r"], "result": "bits", "type": "tensor<4x2xi32>"},
          {"op": "bitcast_convert", "operands": ["bits"], "result": "halves",
           "type": "tensor<4x2x2xi16>"}],
  "outputs": [{"value": "z"}, {"value": "ok"}, {"value": "halves"}]})";
  Graph graph = verified(readGraph(json));
  checkRoundTrip(graph);
  Graph again = verified(readGraph(writeGraph(graph)));
  checkSameGraph(again, graph);
  const std::string pretty = mlir::writeMlir(graph, MlirForm::Pretty);
  CHECK(pretty.find("stablehlo.reduce_precision %t, format = e5m2 : tensor<4x2xf32>") !=
        std::string::npos);
  CHECK(pretty.find("stablehlo.is_finite %t : (tensor<4x2xf32>) -> tensor<4x2xi1>") !=
        std::string::npos);
  const std::string generic = mlir::writeMlir(graph, MlirForm::Generic);
  CHECK(generic.find("<{exponent_bits = 5 : i32, mantissa_bits = 2 : i32}>") != std::string::npos);
}

TEST_CASE("rng_bit_generator round trips, its output sharded and its state replicated") {
  const std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "rng",
  "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
  "inputs": [{"name": "key", "type": "tensor<2xui64>"}],
  "ops": [{"op": "rng_bit_generator", "operands": ["key"], "results": ["state", "bits"],
           "types": ["tensor<2xui64>", "tensor<8x6xui32>"], "rng_algorithm": "THREE_FRY",
           "shardings": [null, "<@mesh, [{x}, {y}]>"]},
          {"op": "rng_bit_generator", "operands": ["state"], "results": ["state2", "more"],
           "types": ["tensor<2xui64>", "tensor<5xf64>"], "rng_algorithm": "PHILOX"}],
  "outputs": [{"value": "bits"}, {"value": "state2"}, {"value": "more"}]})";
  Graph graph = verified(readGraph(json));
  checkRoundTrip(graph);
  Graph again = verified(readGraph(writeGraph(graph)));
  checkSameGraph(again, graph);
  const std::string pretty = mlir::writeMlir(graph, MlirForm::Pretty);
  CHECK(pretty.find("stablehlo.rng_bit_generator %key, algorithm = THREE_FRY") !=
        std::string::npos);
  CHECK(pretty.find("algorithm = PHILOX") != std::string::npos);
}

TEST_CASE("fft round trips: each type, 1 to 3 lengths, a batch dim sharded") {
  const std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "fft",
  "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
  "inputs": [{"name": "signal", "type": "tensor<4x6x10xf64>", "sharding": "<@mesh, [{x}, {}, {}]>"},
             {"name": "image", "type": "tensor<2x3x5x7xcomplex<f32>>"}],
  "ops": [{"op": "fft", "operands": ["signal"], "result": "spectrum", "fft_type": "RFFT",
           "fft_length": [6, 10], "sharding": "<@mesh, [{x}, {}, {}]>"},
          {"op": "fft", "operands": ["spectrum"], "result": "back", "fft_type": "IRFFT",
           "fft_length": [6, 10]},
          {"op": "fft", "operands": ["image"], "result": "f", "fft_type": "FFT",
           "fft_length": [3, 5, 7]},
          {"op": "fft", "operands": ["f"], "result": "g", "fft_type": "IFFT", "fft_length": [7]}],
  "outputs": [{"value": "back"}, {"value": "g"}]})";
  Graph graph = verified(readGraph(json));
  CHECK(graph.type(graph.main.ops[0].results[0]) == TensorType{ElementType::C128, {4, 6, 6}});
  checkRoundTrip(graph);
  Graph again = verified(readGraph(writeGraph(graph)));
  checkSameGraph(again, graph);
  const std::string pretty = mlir::writeMlir(graph, MlirForm::Pretty);
  CHECK(pretty.find("stablehlo.fft %signal, type = RFFT, length = [6, 10]") != std::string::npos);
  CHECK(pretty.find("type = FFT, length = [3, 5, 7]") != std::string::npos);
  CHECK(writeGraph(graph).find("\"fft_type\": \"IRFFT\"") != std::string::npos);
}
