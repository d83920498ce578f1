// shardgen compile --backend threads|mpi and --name: which files the folder
// gets, what the header declares, and the usage errors.

#include <doctest/doctest.h>

#include <filesystem>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;
namespace fs = std::filesystem;

static const std::string kMlp = std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlp.json";

TEST_CASE("compile --backend mpi adds the MPI call styles and runtime; threads does not") {
  std::string dir = makeTempDir();
  ToolResult mpi = runShardgen("compile " + kMlp + " -o '" + dir + "/mpi' --backend mpi");
  INFO(mpi.err);
  REQUIRE(mpi.exitCode == 0);
  CHECK(fs::exists(dir + "/mpi/mlp_mpi.cpp"));
  CHECK(fs::exists(dir + "/mpi/runtime/mpi/MpiLaunch.cpp"));
  std::string header = readFile(dir + "/mpi/mlp.h");
  CHECK(contains(header, "void runRank(const void *const *inputs, void *const *outputs);"));
  CHECK(contains(header, "void runRankShards("));
  CHECK(contains(readFile(dir + "/mpi/CMakeLists.txt"),
                 "option(SHARDGEN_BACKEND_MPI \"Build the MPI call styles of shardgen programs "
                 "(links MPI::MPI_CXX)\" ON)"));
  CHECK(contains(readFile(dir + "/mpi/CMakeLists.txt"), "MPI::MPI_CXX"));

  ToolResult threads = runShardgen("compile " + kMlp + " -o '" + dir + "/threads'");
  REQUIRE(threads.exitCode == 0);
  CHECK_FALSE(fs::exists(dir + "/threads/mlp_mpi.cpp"));
  CHECK_FALSE(fs::exists(dir + "/threads/runtime/mpi"));
  CHECK_FALSE(contains(readFile(dir + "/threads/mlp.h"), "void runRank"));
  CHECK(contains(readFile(dir + "/threads/CMakeLists.txt"),
                 "shardgen programs (links MPI::MPI_CXX)\" OFF)"));
  // Both headers describe the mesh and every tensor's pieces.
  for (const std::string &header : {readFile(dir + "/threads/mlp.h"), header}) {
    CHECK(contains(header,
                   "inline constexpr MeshAxis kMeshAxes[kNumMeshAxes > 0 ? kNumMeshAxes : 1] "
                   "= {{\"data\", 2}, {\"model\", 2}};"));
    CHECK(contains(
        header, "{\"@mesh [data=2, model=2]\", \"<@mesh, [{\\\"data\\\"}, {}]>\", 2, {8, 16}},"));
    CHECK(contains(header, "constexpr Piece inputPiece(int64_t tensor, int64_t position) {"));
    CHECK(contains(header, "constexpr Piece outputPiece(int64_t tensor, int64_t position) {"));
  }
}

TEST_CASE("an unknown --backend is a usage error and writes nothing") {
  std::string dir = makeTempDir() + "/out";
  ToolResult result = runShardgen("compile " + kMlp + " -o '" + dir + "' --backend cuda");
  CHECK(result.exitCode == 2);
  CHECK(contains(result.err, "unknown --backend 'cuda' (expected threads or mpi)"));
  CHECK(result.out.empty());
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("compile --name names the header, namespace and target; unusable names are refused") {
  std::string dir = makeTempDir();
  ToolResult named = runShardgen("compile " + kMlp + " -o '" + dir + "/named' --name model_a");
  INFO(named.err);
  REQUIRE(named.exitCode == 0);
  CHECK(contains(readFile(dir + "/named/model_a.h"), "namespace model_a {"));
  CHECK(fs::exists(dir + "/named/model_a_host.cpp"));
  CHECK(contains(readFile(dir + "/named/CMakeLists.txt"), "add_library(model_a STATIC"));
  CHECK_FALSE(fs::exists(dir + "/named/mlp.h"));
  for (const char *name : {"int", "9lives", "has-dash", "NOLOWER", "_reserved"}) {
    ToolResult bad = runShardgen("compile " + kMlp + " -o '" + dir + "/bad' --name " + name);
    CHECK(bad.exitCode == 2);
    CHECK(contains(bad.err, std::string("--name '") + name + "' is not a usable C++ name"));
    CHECK_FALSE(fs::exists(dir + "/bad"));
  }
}

TEST_CASE("the header names a distributed tensor's distribution, not a placeholder sharding") {
  std::string dir = makeTempDir();
  ToolResult result = runShardgen("compile " + std::string(SHARDGEN_SOURCE_DIR) +
                                  "/samples/nd_channels.json -o '" + dir + "/out'");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  std::string header = readFile(dir + "/out/nd_channels.h");
  CHECK(contains(header, "{\"@cores [row=2, col=3]\", \"{\\\"mesh\\\": \\\"cores\\\", "
                         "\\\"shard_shape\\\": [1, 10, 10], \\\"order\\\": \\\"row_major\\\"}\", "
                         "3, {10, 10, 10, 1}},"));
  CHECK_FALSE(contains(header, "\"<@cores, [{}, {}, {}]>\""));
}
