// Bad input that is not a graph's content (issue 8): files that are too large,
// devices, .npy files whose size disagrees with their header, output folders
// that cannot be written, names that reach C++ or the terminal, and empty
// tensors. Each ends in exit 0 or in one error with exit 1, never in a crash
// or exit 4, and leaves no partial output.

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "compiler/frontend/Npy.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen;
using namespace shardgen::test;
namespace fs = std::filesystem;

namespace {

/// A graph of one 2x3 f32 input `a` and two outputs (-a, a).
const std::string kTwoOutputs = R"({"format": "shardgen-graph", "version": 1, "name": "two",
  "inputs": [{"name": "a", "type": "tensor<2x3xf32>"}],
  "ops": [{"op": "negate", "operands": ["a"], "result": "b"}],
  "outputs": [{"value": "b"}, {"value": "a"}]})";

std::string graphFile(const std::string &dir, const std::string &text,
                      const std::string &name = "graph.json") {
  std::string path = dir + "/" + name;
  writeFile(path, text);
  return path;
}

/// Every entry of `dir`, sorted (to see that nothing was left behind).
std::vector<std::string> entries(const std::string &dir) {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// A valid .npy of tensor<2x3xf32>.
std::string npyBytes() { return serializeNpy(Literal(TensorType{ElementType::F32, {2, 3}})); }

void checkError(const ToolResult &result, const std::string &start, const std::string &message) {
  INFO(result.err);
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  // The error is the last line (after eval's note on pseudo-random inputs).
  size_t line = result.err.rfind('\n', result.err.size() - 2);
  CHECK(result.err.substr(line == std::string::npos ? 0 : line + 1).rfind(start, 0) == 0);
  CHECK(result.err.find(message) != std::string::npos);
}

} // namespace

TEST_CASE("--help lists the exit codes, 4 only for bugs") {
  for (const char *args : {"--help", "run --help"}) {
    ToolResult help = runShardgen(args);
    CHECK(help.exitCode == 0);
    CHECK(help.out.find("  1  invalid graph or input data") != std::string::npos);
    CHECK(help.out.find("  4  internal error: a bug in shardgen") != std::string::npos);
  }
}

TEST_CASE("a reshape between empty tensors propagates, runs and compiles") {
  // gcd(0, 0) was a divisor in the reshape rule (SIGFPE in every command).
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, R"({"format": "shardgen-graph", "version": 1, "name": "z",
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<0x3xf32>", "sharding": "<@mesh, [{x}, {}]>"}],
    "ops": [{"op": "reshape", "operands": ["a"], "result": "b", "type": "tensor<0x5xf32>"}],
    "outputs": [{"value": "b"}]})");
  for (std::string args : {"propagate", "explain", "run --check", "compile"}) {
    if (args == "explain")
      args += " '" + graph + "' b";
    else if (args == "compile")
      args += " '" + graph + "' -o '" + dir + "/gen'";
    else
      args += " '" + graph + "'";
    ToolResult result = runShardgen(args);
    INFO(args, ": ", result.err);
    CHECK(result.exitCode == 0);
  }
}

TEST_CASE("a mesh of more than 8 axes runs") {
  std::string dir = makeTempDir();
  std::string axes;
  for (int i = 0; i < 9; ++i)
    axes += std::string(i ? ", " : "") + "{\"name\": \"a" + std::to_string(i) +
            "\", \"size\": " + (i == 8 ? "2" : "1") + "}";
  std::string graph = graphFile(dir, R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "mesh", "axes": [)" +
                                         axes + R"(]}],
    "inputs": [{"name": "a", "type": "tensor<4xf32>", "sharding": "<@mesh, [{a8}]>"}],
    "ops": [{"op": "negate", "operands": ["a"], "result": "b"}],
    "outputs": [{"value": "b"}]})");
  ToolResult result = runShardgen("run '" + graph + "' --check");
  INFO(result.err);
  CHECK(result.exitCode == 0);
}

TEST_CASE("graph files: devices, folders and files over 256 MiB are refused unread") {
  checkError(runShardgen("check /dev/zero"),
             "/dev/zero:: error: ", "cannot read file \"/dev/zero\": a device, not a file");
  std::string dir = makeTempDir();
  checkError(runShardgen("check '" + dir + "'"),
             dir + ":: error: ", "cannot read file \"" + dir + "\": Is a directory");
  std::string huge = dir + "/huge.json";
  writeFile(huge, "");
  fs::resize_file(huge, (uint64_t(256) << 20) + 1); // sparse: no disk space used
  checkError(runShardgen("check '" + huge + "'"), huge + ":: error: ",
             "it has 268435457 bytes, more than the limit of 256 MiB for a graph");
  // Standard input is bounded the same way.
  std::string err = dir + "/stdin.err";
  int status = std::system(("head -c 268435457 /dev/zero | '" + std::string(SHARDGEN_BINARY) +
                            "' check - 2>'" + err + "' >/dev/null")
                               .c_str());
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(readFile(err) == "<stdin>:: error: cannot read file \"-\" (standard input): larger than "
                         "the limit of 256 MiB for a graph\n");
}

TEST_CASE(".npy inputs are checked against their header before the data is read") {
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, kTwoOutputs);
  auto eval = [&](const std::string &input) {
    return runShardgen("eval '" + graph + "' --inputs " + input + " -o '" + dir + "/out'");
  };
  checkError(eval("/dev/zero"), "/dev/zero: error: ", "not a .npy file (bad magic)");
  checkError(eval("'" + dir + "'"), dir + ": error: ", "cannot read: Is a directory");

  std::string good = npyBytes();
  writeFile(dir + "/short.npy", good.substr(0, good.size() - 4));
  checkError(eval("'" + dir + "/short.npy'"), dir + "/short.npy: error: ",
             "truncated data: shape (2x3) of '<f4' needs 24 bytes, the file has 20");
  writeFile(dir + "/long.npy", good + "xyz");
  checkError(eval("'" + dir + "/long.npy'"), dir + "/long.npy: error: ",
             "trailing data: shape (2x3) of '<f4' needs 24 bytes, the file has 27");
  // Through a pipe, the size is learnt by reading (never more than promised + 1).
  checkError(runShardgen("eval '" + graph + "' --inputs /dev/stdin", good + "x"),
             "/dev/stdin: error: ", "trailing data");

  std::string hugeHeader =
      good.substr(0, 6) + std::string("\x02\x00", 2) + std::string("\x00\x00\x00\x40", 4) + "{";
  writeFile(dir + "/header.npy", hugeHeader);
  checkError(eval("'" + dir + "/header.npy'"), dir + "/header.npy: error: ",
             "header of 1073741824 bytes is too large (at most 1048576)");

  // A header promising 2^40 floats is refused for its type, nothing allocated.
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }\n";
  writeFile(dir + "/big.npy", good.substr(0, 8) + static_cast<char>(dict.size()) + '\0' + dict);
  checkError(eval("'" + dir + "/big.npy'"), graph + ":/inputs/0: error: ",
             "input \"a\" has type tensor<2x3xf32>, but " + dir +
                 "/big.npy holds tensor<1099511627776xf32>");
  CHECK_FALSE(fs::exists(dir + "/out"));
}

TEST_CASE(".npy inputs: bf16 as uint16 bit patterns; '<u2' is ui16 for any other type") {
  std::string dir = makeTempDir();
  auto graphOf = [&](const std::string &type) {
    return graphFile(dir,
                     R"({"format": "shardgen-graph", "version": 1, "name": "n",
      "inputs": [{"name": "a", "type": "tensor<2x)" +
                         type + R"(>"}],
      "ops": [{"op": "negate", "operands": ["a"], "result": "b"}], "outputs": [{"value": "b"}]})",
                     type + ".json");
  };
  Literal bits(TensorType{ElementType::UI16, {2}});
  bits.setInt(0, 0x3fc0); // bf16 1.5
  bits.setInt(1, 0x4000); // bf16 2
  writeFile(dir + "/bits.npy", serializeNpy(bits));
  ToolResult bf16 = runShardgen("eval '" + graphOf("bf16") + "' --inputs '" + dir +
                                "/bits.npy' -o '" + dir + "/bf16'");
  INFO(bf16.err);
  REQUIRE(bf16.exitCode == 0);
  Literal negated = readNpy(dir + "/bf16/out0.npy");
  CHECK(negated.elementType() == ElementType::BF16);
  CHECK(negated.getFloat(0) == -1.5);
  CHECK(negated.getFloat(1) == -2);
  ToolResult ui16 = runShardgen("eval '" + graphOf("ui16") + "' --inputs '" + dir +
                                "/bits.npy' -o '" + dir + "/ui16'");
  REQUIRE(ui16.exitCode == 0);
  CHECK(readNpy(dir + "/ui16/out0.npy").getInt(0) == 65536 - 0x3fc0); // wraps
  checkError(runShardgen("eval '" + graphOf("f16") + "' --inputs '" + dir + "/bits.npy'"),
             dir + "/f16.json:/inputs/0: error: ",
             "input \"a\" has type tensor<2xf16>, but " + dir + "/bits.npy holds tensor<2xui16>");
}

TEST_CASE("-o DIR: all outputs or none, never through a symlink") {
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, kTwoOutputs);
  std::string out = dir + "/out";

  SUBCASE("a new folder appears whole") {
    ToolResult result = runShardgen("eval '" + graph + "' -o '" + out + "'");
    REQUIRE(result.exitCode == 0);
    CHECK(entries(out) == std::vector<std::string>{"out0.npy", "out1.npy"});
    CHECK(entries(dir) == std::vector<std::string>{"graph.json", "out"});
  }
  SUBCASE("an existing folder: the outputs replace their files, other files stay") {
    fs::create_directories(out);
    writeFile(out + "/out0.npy", "old");
    writeFile(out + "/notes.txt", "mine");
    REQUIRE(runShardgen("eval '" + graph + "' -o '" + out + "'").exitCode == 0);
    CHECK(entries(out) == std::vector<std::string>{"notes.txt", "out0.npy", "out1.npy"});
    CHECK(readNpy(out + "/out0.npy").type() == TensorType{ElementType::F32, {2, 3}});
  }
  SUBCASE("out1.npy is a folder: an error, and out0.npy is not written either") {
    fs::create_directories(out + "/out1.npy");
    checkError(runShardgen("eval '" + graph + "' -o '" + out + "'"),
               out + "/out1.npy: error: ", "cannot replace it: Is a directory");
    CHECK(entries(out) == std::vector<std::string>{"out1.npy"});
    CHECK(entries(dir) == std::vector<std::string>{"graph.json", "out"});
  }
  SUBCASE("a symlinked out0.npy is replaced, its target untouched") {
    fs::create_directories(out);
    writeFile(dir + "/elsewhere", "keep");
    fs::create_symlink(dir + "/elsewhere", out + "/out0.npy");
    REQUIRE(runShardgen("eval '" + graph + "' -o '" + out + "'").exitCode == 0);
    CHECK(readFile(dir + "/elsewhere") == "keep");
    CHECK_FALSE(fs::is_symlink(out + "/out0.npy"));
  }
  SUBCASE("a name too long for the file system: the system's reason") {
    std::string longName = out + std::string(300, 'x');
    checkError(runShardgen("eval '" + graph + "' -o '" + longName + "'"),
               longName + ": error: ", "File name too long");
    CHECK(entries(dir) == std::vector<std::string>{"graph.json"});
  }
}

TEST_CASE("compile writes its folder all-or-nothing and never through a symlink") {
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, kTwoOutputs);
  std::string out = dir + "/gen";
  fs::create_directories(out);
  fs::create_directories(dir + "/outside");
  fs::create_directory_symlink(dir + "/outside", out + "/kernels");
  checkError(runShardgen("compile '" + graph + "' -o '" + out + "'"), out + "/kernels: error: ",
             "a symlink (shardgen writes only inside the output folder)");
  CHECK(entries(out) == std::vector<std::string>{"kernels"});
  CHECK(entries(dir + "/outside").empty());
  CHECK(entries(dir) == std::vector<std::string>{"gen", "graph.json", "outside"});
}

TEST_CASE("propagate -o: written whole, with the system's reason on failure") {
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, kTwoOutputs);
  checkError(runShardgen("propagate '" + graph + "' -o '" + dir + "'"),
             dir + ": error: ", "cannot write: Is a directory");
  std::string longName = dir + "/" + std::string(300, 'p') + ".json";
  checkError(runShardgen("propagate '" + graph + "' -o '" + longName + "'"),
             longName + ": error: ", "cannot write: File name too long");
  CHECK(entries(dir) == std::vector<std::string>{"graph.json"});
  REQUIRE(runShardgen("propagate '" + graph + "' -o '" + dir + "/p.json'").exitCode == 0);
  CHECK(entries(dir) == std::vector<std::string>{"graph.json", "p.json"});
}

TEST_CASE("outputs get the permissions of ordinary new files (umask applies), not 0600") {
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, kTwoOutputs);
  REQUIRE(runShardgen("eval '" + graph + "' -o '" + dir + "/out'").exitCode == 0);
  REQUIRE(runShardgen("compile '" + graph + "' -o '" + dir + "/gen'").exitCode == 0);
  REQUIRE(runShardgen("propagate '" + graph + "' -o '" + dir + "/p.json'").exitCode == 0);
  // The test runs shardgen under the umask the shell gives it: 022 by default.
  mode_t mask = ::umask(0);
  ::umask(mask);
  auto mode = [](const std::string &path) {
    return static_cast<unsigned>(fs::status(path).permissions() & fs::perms::mask);
  };
  CHECK(mode(dir + "/out") == (0777u & ~mask));
  CHECK(mode(dir + "/out/out0.npy") == (0666u & ~mask));
  CHECK(mode(dir + "/gen") == (0777u & ~mask));
  CHECK(mode(dir + "/p.json") == (0666u & ~mask));
}

TEST_CASE("names: C++ words and long graph names compile; odd mesh names read back") {
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, R"({"format": "shardgen-graph", "version": 1, "name": "int",
    "meshes": [{"name": "me, sh", "axes": [{"name": "x y", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4xf32>", "sharding": "<@\"me, sh\", [{\"x y\"}]>"}],
    "ops": [{"op": "negate", "operands": ["a"], "result": "b"}],
    "outputs": [{"value": "b"}]})");
  ToolResult compiled = runShardgen("compile '" + graph + "' -o '" + dir + "/gen'");
  INFO(compiled.err);
  REQUIRE(compiled.exitCode == 0);
  CHECK(fs::exists(dir + "/gen/sg_int.h"));
  // The header and host code compile: no `namespace int`.
  int status = std::system(("c++ -std=gnu++20 -fsyntax-only -I'" + dir + "/gen' -I'" + dir +
                            "/gen/runtime/include' '" + dir + "/gen/sg_int_host.cpp'")
                               .c_str());
  CHECK(WEXITSTATUS(status) == 0);

  // The propagated graph reads back and propagates to itself.
  REQUIRE(runShardgen("propagate '" + graph + "' -o '" + dir + "/p.json'").exitCode == 0);
  ToolResult again = runShardgen("propagate '" + dir + "/p.json'");
  CHECK(again.exitCode == 0);
  CHECK(again.out == readFile(dir + "/p.json"));

  std::string longName = std::string(247, 'n');
  std::string named = graphFile(dir,
                                R"({"format": "shardgen-graph", "version": 1, "name": ")" +
                                    longName + R"(", "inputs": [], "ops": [],
    "outputs": []})",
                                "long.json");
  ToolResult result = runShardgen("compile '" + named + "' -o '" + dir + "/long'");
  INFO(result.err);
  CHECK(result.exitCode == 0);
}

TEST_CASE("control characters from the input are escaped in messages") {
  std::string dir = makeTempDir();
  std::string graph = graphFile(dir, R"({"format": "shardgen-graph", "version": 1,
    "inputs": [], "ops": [], "outputs": [{"value": "x\u001b[2J\ny"}]})");
  checkError(runShardgen("check '" + graph + "'"),
             graph + ":/outputs/0/value: error: ", "unknown value \"x\\x1b[2J\\ny\"");
  CHECK(runShardgen("check '" + graph + "'").err.find('\x1b') == std::string::npos);
}
