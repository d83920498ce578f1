// shardgen show in the terminal: the grid of which device holds which block,
// values by name, errors, the --html file written whole or not at all.

#include <doctest/doctest.h>

#include <filesystem>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;

TEST_CASE("show mlp: the mesh, then each input and output with its devices per block") {
  ToolResult result = runShardgen("show " + kSamples + "mlp.json");
  INFO(result.out, result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.err.empty());
  CHECK(contains(result.out, "mesh @mesh: data=2, model=2 (4 devices)\n"
                             "  device ids by coordinates (row-major position order)\n"
                             "  rows: data, columns: model\n"
                             "           model=0   model=1\n"
                             "         +---------+---------+\n"
                             "  data=0 | 0       | 1       |\n"
                             "         +---------+---------+\n"
                             "  data=1 | 2       | 3       |\n"));
  // x: batch on data; devices of one data coordinate hold the same rows.
  CHECK(contains(result.out,
                 "input 0 \"x\": tensor<8x16xf32>\n"
                 "  sharding: <@mesh, [{\"data\"}, {}]>\n"
                 "  origin:   user:/inputs/0/sharding\n"
                 "  blocks:   2 blocks on 4 devices, each held by 2 devices (replicas)\n"
                 "  rows: dim 0, columns: dim 1\n"
                 "        0:16\n"
                 "      +------+\n"
                 "  0:4 | d0,1 |\n"
                 "      +------+\n"
                 "  4:8 | d2,3 |\n"));
  // w1: columns on model; devices 0 and 2 (model=0) hold the first half.
  CHECK(contains(result.out, "input 1 \"w1\": tensor<16x32xf32>\n"
                             "  sharding: <@mesh, [{}, {\"model\"}]>\n"));
  CHECK(contains(result.out, "         0:16   16:32\n"
                             "       +------+-------+\n"
                             "  0:16 | d0,2 | d1,3  |\n"));
  // b1 (rank 1) on model, b2 replicated everywhere.
  CHECK(contains(result.out, "     0:16   16:32\n"
                             "   +------+-------+\n"
                             "   | d0,2 | d1,3  |\n"));
  CHECK(contains(result.out, "input 4 \"b2\": tensor<16xf32>\n"
                             "  sharding: <@mesh, [{}]>\n"
                             "  origin:   user:/inputs/4/sharding\n"
                             "  blocks:   1 block on 4 devices: replicated on every device\n"));
  CHECK(contains(result.out, "   | d0-3 |\n"));
  CHECK(contains(result.out, "output 0 \"y\": tensor<8x16xf32>\n"
                             "  sharding: <@mesh, [{\"data\"}, {}]>\n"
                             "  origin:   user:/outputs/0/sharding\n"));
  // Not a terminal: no colour.
  CHECK_FALSE(contains(result.out, "\x1b["));
}

TEST_CASE("show VALUE ...: the propagated layout of named values, each on its own devices") {
  ToolResult result = runShardgen("show " + kSamples + "mlp.json h --strategy basic");
  INFO(result.out, result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(contains(result.out, "value \"h\": tensor<8x32xf32>\n"
                             "  sharding: <@mesh, [{\"data\"}, {\"model\"}]>\n"
                             "  origin:   op:/ops/3\n"
                             "  blocks:   4 blocks on 4 devices, one device each\n"
                             "  rows: dim 0, columns: dim 1\n"
                             "        0:16   16:32\n"
                             "      +------+-------+\n"
                             "  0:4 | d0   | d1    |\n"
                             "      +------+-------+\n"
                             "  4:8 | d2   | d3    |\n"));
  CHECK_FALSE(contains(result.out, "input 0"));
}

TEST_CASE("show: rank 4 as labelled slices over the leading dims") {
  ToolResult result = runShardgen("show " + kSamples + "attention.json scores");
  INFO(result.out, result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(contains(result.out, "value \"scores\": tensor<2x4x8x8xf32>\n"));
  CHECK(contains(result.out, "slices over dim 0, dim 1; rows: dim 2, columns: dim 3\n"
                             "  [0:1, 0:2, :, :]   [0:1, 2:4, :, :]   [1:2, 0:2, :, :]   "
                             "[1:2, 2:4, :, :]\n"));
  CHECK(contains(result.out,
                 "  0:8 | d0  |        0:8 | d1  |        0:8 | d2  |        0:8 | d3  |\n"));
}

TEST_CASE("show: an unknown value is an error naming it; nothing on stdout") {
  ToolResult result = runShardgen("show " + kSamples + "mlp.json h nosuchvalue");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err == kSamples + "mlp.json:: error: no value named \"nosuchvalue\" in the graph\n");
  std::string dir = makeTempDir();
  ToolResult html =
      runShardgen("show " + kSamples + "mlp.json nosuchvalue --html " + dir + "/p.html");
  CHECK(html.exitCode == 1);
  CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("show: colour on a terminal, none with NO_COLOR") {
  if (std::system("command -v script >/dev/null 2>&1") != 0) {
    MESSAGE("skipping the terminal check: util-linux 'script' is missing");
    return;
  }
  std::string dir = makeTempDir();
  auto onTerminal = [&](const std::string &env) {
    std::string command = env + " script -qec \"'" + std::string(SHARDGEN_BINARY) + "' show '" +
                          kSamples + "mlp.json' x\" /dev/null > '" + dir + "/tty' 2>&1";
    CHECK(std::system(command.c_str()) == 0);
    return readFile(dir + "/tty");
  };
  std::string coloured = onTerminal("TERM=xterm NO_COLOR=");
  CHECK(contains(coloured, "\x1b[30;101m d0,1 \x1b[0m|"));
  std::string plain = onTerminal("TERM=xterm NO_COLOR=1");
  CHECK(contains(plain, "| d0,1 |"));
  CHECK_FALSE(contains(plain, "\x1b[30;"));
}

TEST_CASE("show --html writes the page whole, or nothing") {
  std::string dir = makeTempDir();
  ToolResult result = runShardgen("show " + kSamples + "mlp.json --html " + dir + "/mlp.html");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(result.out.empty());
  CHECK(result.err == "wrote " + dir + "/mlp.html\n");
  std::string page = readFile(dir + "/mlp.html");
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.size() > 10000);
  CHECK(contains(page, "</html>\n"));
  // Self-contained: nothing is fetched.
  CHECK_FALSE(contains(page, "src="));
  CHECK_FALSE(contains(page, "href="));
  CHECK_FALSE(contains(page, "@import"));
  CHECK_FALSE(contains(page, "url("));
  size_t files = 0;
  for ([[maybe_unused]] const auto &entry : std::filesystem::directory_iterator(dir))
    ++files;
  CHECK(files == 1);

  ToolResult missing =
      runShardgen("show " + kSamples + "mlp.json --html " + dir + "/no/such/p.html");
  CHECK(missing.exitCode == 1);
  CHECK(missing.err == dir + "/no/such/p.html: error: cannot write: No such file or directory\n");
  ToolResult folder = runShardgen("show " + kSamples + "mlp.json --html " + dir);
  CHECK(folder.exitCode == 1);
  CHECK(folder.err == dir + ": error: cannot write: Is a directory\n");
  files = 0;
  for ([[maybe_unused]] const auto &entry : std::filesystem::directory_iterator(dir))
    ++files;
  CHECK(files == 1);
}

TEST_CASE("show has --help and is in the command list") {
  ToolResult help = runShardgen("show --help");
  CHECK(help.exitCode == 0);
  CHECK(contains(help.out, "usage: shardgen show GRAPH [VALUE ...] [--html FILE] [--strategy S]"));
  CHECK(contains(help.out, "--html FILE"));
  CHECK(contains(runShardgen("--help").out, "  show        which device holds which part"));
  CHECK(runShardgen("show").exitCode == 2);
  CHECK(runShardgen("show " + kSamples + "mlp.json --html").exitCode == 2);
  CHECK(runShardgen("show " + kSamples + "mlp.json --strategy nosuch").exitCode == 2);
}
