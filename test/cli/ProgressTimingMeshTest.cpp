// What a person at a terminal sees: the progress line (on a terminal only,
// never in a pipe or file unless --progress), `run --repeat N` timings, and
// `--mesh AXIS=SIZE` trying another mesh without editing the graph.
//
// A real graph is too fast to pass the 1 s delay; SHARDGEN_PROGRESS_DELAY_MS=0
// makes every stage "long", so no test waits or measures time.

#include <doctest/doctest.h>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "test/cli/ToolRunner.h"

using namespace shardgen::test;

/// Runs shardgen with stdin, stdout and stderr on a new pseudo-terminal (as
/// in an interactive shell), SHARDGEN_PROGRESS_DELAY_MS=0; returns the exit
/// code and everything the terminal received.
static ToolResult runOnTerminal(const std::vector<std::string> &args) {
  int master = -1;
  pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::setenv("SHARDGEN_PROGRESS_DELAY_MS", "0", 1);
    std::vector<char *> argv{const_cast<char *>(SHARDGEN_BINARY)};
    for (const std::string &arg : args)
      argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(SHARDGEN_BINARY, argv.data());
    ::_exit(127);
  }
  ToolResult result;
  char buffer[4096];
  for (;;) {
    ssize_t count = ::read(master, buffer, sizeof buffer);
    if (count > 0)
      result.out.append(buffer, static_cast<size_t>(count));
    else if (count < 0 && errno == EINTR)
      continue;
    else
      break; // EIO: the child closed the terminal
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST_CASE("progress: on a terminal the stages show, then the line is cleared") {
  ToolResult result = runOnTerminal({"run", kSamples + "mlp.json", "-o", makeTempDir()});
  INFO(result.out);
  REQUIRE(result.exitCode == 0);
  CHECK(contains(result.out, "\r\x1b[Kshardgen: propagating"));
  CHECK(contains(result.out, "shardgen: compiling (JIT)"));
  // Each drawn line is cleared before anything else is printed.
  CHECK(result.out.rfind("\r\x1b[K") > result.out.rfind("shardgen: compiling (JIT)"));

  result = runOnTerminal({"run", kSamples + "mlp.json", "-o", makeTempDir(), "--no-progress"});
  REQUIRE(result.exitCode == 0);
  CHECK_FALSE(contains(result.out, "shardgen: propagating"));
  CHECK_FALSE(contains(result.out, "\x1b[K")); // (the terminal turns \n into \r\n)
}

TEST_CASE("progress: never in a pipe or a file, unless --progress forces it") {
  std::string graph = kSamples + "mlp.json";
  // The tool runner's redirections apply to `cat`: shardgen writes into the pipe.
  ::setenv("SHARDGEN_PROGRESS_DELAY_MS", "0", 1);
  ToolResult inPipe = runShardgen("run " + graph + " -o " + makeTempDir() + " 2>&1 | cat");
  ToolResult forced = runShardgen("propagate " + graph + " --progress");
  ::unsetenv("SHARDGEN_PROGRESS_DELAY_MS");
  REQUIRE(inPipe.exitCode == 0);
  CHECK_FALSE(contains(inPipe.out, "shardgen: propagating"));
  CHECK_FALSE(contains(inPipe.out, "\r"));
  REQUIRE(forced.exitCode == 0);
  CHECK(contains(forced.err, "\r\x1b[Kshardgen: propagating"));
  CHECK(forced.out.find('\r') == std::string::npos); // stdout stays the graph alone

  ToolResult both = runShardgen("check " + graph + " --progress --no-progress");
  CHECK(both.exitCode == 2);
  CHECK(contains(both.err, "--progress and --no-progress exclude each other"));
}

TEST_CASE("run --repeat N: stage times and the time per call on stderr, outputs unchanged") {
  std::string graph = kSamples + "mlp.json";
  ToolResult once = runShardgen("run " + graph);
  ToolResult repeated = runShardgen("run " + graph + " --repeat 3 --check");
  INFO(repeated.err);
  REQUIRE(once.exitCode == 0);
  REQUIRE(repeated.exitCode == 0);
  CHECK(repeated.out == once.out);
  CHECK(contains(repeated.err, graph + ": timings\n  read       "));
  for (const char *stage : {"\n  verify     ", "\n  propagate  ", "\n  partition  ",
                            "\n  generate   ", "\n  JIT        ", "\n  run        min "})
    CHECK(contains(repeated.err, stage));
  CHECK(contains(repeated.err, " per call (3 calls)\n"));
  CHECK(contains(repeated.err, "check passed"));
  CHECK_FALSE(contains(once.err, "timings"));

  for (const char *bad : {"0", "-1", "x", "1.5", "1000001"}) {
    ToolResult result = runShardgen("run " + graph + " --repeat " + bad);
    CHECK(result.exitCode == 2);
    CHECK(contains(result.err, "--repeat takes a number of runs from 1 to 1000000, not '" +
                                   std::string(bad) + "'"));
  }
}

TEST_CASE("--mesh AXIS=SIZE: another mesh without editing the file") {
  std::string graph = kSamples + "mlp.json";
  // 8 devices: the same program on a 4x2 mesh, checked against the reference.
  ToolResult result = runShardgen("run " + graph + " --mesh data=4,model=2 --check");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  CHECK(contains(result.err, "agree with the reference interpreter's on 8 devices"));
  // Uneven: 16 columns of w1... on 3 devices.
  result = runShardgen("partition " + graph + " --mesh model=3");
  REQUIRE(result.exitCode == 0);
  CHECK(contains(result.out, "mesh @mesh [\"data\"=2, \"model\"=3], 6 devices\n"));
  CHECK(contains(result.out, "  %w1: tensor<16x32xf32> <@mesh, [{}, {\"model\"}]>, uneven "
                             "(chunks of 16x11)\n"));
  // The verified graph carries the new sizes.
  result = runShardgen("check " + graph + " --mesh=model=1 --dump-after verify");
  REQUIRE(result.exitCode == 0);
  CHECK(contains(result.out, "{\"name\": \"model\", \"size\": 1}"));
}

TEST_CASE("--mesh errors name the option, exit 1, nothing on stdout") {
  std::string graph = kSamples + "mlp.json";
  struct Case {
    std::string value, message;
  };
  const std::vector<Case> cases = {
      {"batch=2",
       "--mesh: error: no mesh of the graph has an axis \"batch\" (its axes: data, model)\n"},
      {"data=0", "--mesh: error: size of axis \"data\" must be an integer from 1 to 1048576, "
                 "got '0'\n"},
      {"data=two", "--mesh: error: size of axis \"data\" must be an integer from 1 to "
                   "1048576, got 'two'\n"},
      {"data", "--mesh: error: expected AXIS=SIZE[,AXIS=SIZE...], got 'data' in 'data'\n"},
      {"data=2,data=4", "--mesh: error: axis \"data\" is given twice\n"},
  };
  for (const Case &c : cases) {
    ToolResult result = runShardgen("show " + graph + " --mesh " + c.value);
    INFO(c.value);
    CHECK(result.exitCode == 1);
    CHECK(result.out.empty());
    CHECK(result.err == c.message);
  }
  // device_ids listing 4 devices no longer fit 8.
  std::string uneven = std::string(SHARDGEN_SOURCE_DIR) + "/test/cli/golden/uneven.json";
  ToolResult result = runShardgen("run " + uneven + " --mesh x=8");
  CHECK(result.exitCode == 1);
  CHECK(result.out.empty());
  CHECK(result.err == "--mesh: error: mesh @mesh lists 4 device_ids (/meshes/0/device_ids), "
                      "but with x=8 it has 8 devices\n");
  // What the verifier then finds says the mesh was changed.
  result = runShardgen("eval " + graph + " --mesh model=1048576,data=1048576");
  CHECK(result.exitCode == 1);
  CHECK(contains(result.err, graph + ":/meshes/0/axes/1/size: error: "));
  CHECK(contains(result.err, " (with --mesh model=1048576,data=1048576)\n"));
}
