// Loop and branch steps: the coherence check enters their blocks and wants
// the condition or index whole on every device, the printer nests them, the
// manifest lists their collectives, the simulator runs them.

#include <doctest/doctest.h>

#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/SpmdCoherence.h"
#include "compiler/show/ProgramPrinter.h"
#include "test/partition/PartitionTestUtil.h"
#include "test/partition/SpmdSimulator.h"
#include "test/partition/StructuredPrograms.h"

using namespace shardgen;
using namespace shardgen::testing;

TEST_CASE("a loop step: carried values, collectives in its body, run until its condition fails") {
  Graph graph = loadGraph(loopIterationGraph());
  SpmdProgram program = loopProgram(graph);
  verifySpmdCoherence(program);
  std::string text = show::printProgram(program);
  INFO(text);
  CHECK(text.find("loop(%x, %i) carried (%x.carried, %i.carried)") != std::string::npos);
  CHECK(text.find("condition:") != std::string::npos);
  CHECK(text.find("body:") != std::string::npos);
  // The body's reshards (to [{}, {y}] and back) are collectives, listed once.
  CommunicationManifest manifest = computeManifest(program);
  CHECK(!manifest.collectives.empty());
  for (const CollectiveRecord &record : manifest.collectives) {
    CHECK(record.step == 0);
    REQUIRE(record.collective != nullptr);
  }
  for (int64_t start : {0, 2, 3, 5}) {
    INFO(start);
    std::vector<Literal> out = simulateSpmd(program, {ramp(1), scalarI32(start)});
    const int64_t iterations = std::max<int64_t>(0, 3 - start);
    CHECK(out[0] == ramp(int64_t(1) << iterations));
    CHECK(out[1].getInt(0) == std::max<int64_t>(start, 3));
  }
}

TEST_CASE("a branch step runs the case its index names, the last for an index out of range") {
  Graph graph = loadGraph(branchGraph());
  SpmdProgram program = branchProgram(graph);
  verifySpmdCoherence(program);
  CHECK(show::printProgram(program).find("case 1:") != std::string::npos);
  const Literal x = ramp(1);
  Literal square(x.type());
  for (int64_t e = 0; e < 32; ++e)
    square.setFloat(e, x.getFloat(e) * x.getFloat(e));
  CHECK(simulateSpmd(program, {x, scalarI32(0)})[0] == ramp(2));
  CHECK(simulateSpmd(program, {x, scalarI32(1)})[0] == square);
  CHECK(simulateSpmd(program, {x, scalarI32(7)})[0] == square);
  CHECK(simulateSpmd(program, {x, scalarI32(-1)})[0] == square);
}

TEST_CASE("a loop whose condition is not whole on every device is refused by the coherence check") {
  Graph graph = loadGraph(loopIterationGraph());
  SpmdProgram program = loopProgram(graph);
  // The sharded x as the condition: devices could take different paths.
  program.steps[0].blocks[0].results = {program.steps[0].carried[0]};
  CHECK_THROWS_WITH_AS(
      verifySpmdCoherence(program),
      doctest::Contains("its condition is not an i1 scalar every device holds whole"),
      SpmdCoherenceError);
  program = loopProgram(graph);
  // A carried value whose body result is laid out otherwise.
  program.steps[0].blocks[1].results[0] = program.steps[0].carried[1];
  CHECK_THROWS_WITH_AS(verifySpmdCoherence(program), doctest::Contains("laid out differently"),
                       SpmdCoherenceError);
}
