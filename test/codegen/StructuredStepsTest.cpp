// Loop and branch steps in generated code: the per-device C++ of a loop is
// a loop (of its blocks' steps, collectives included), of a branch a
// switch; compiled and run on the threads runtime, they compute what the
// loop and branch compute.

#include <doctest/doctest.h>

#include <algorithm>

#include "compiler/codegen/BufferPlan.h"
#include "compiler/codegen/Fusion.h"
#include "compiler/codegen/JitRunner.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/partition/StructuredPrograms.h"

using namespace shardgen;
using namespace shardgen::codegen;
using namespace shardgen::testing;

TEST_CASE("a loop step compiles to a C++ loop around its body's steps and runs") {
  Graph graph = loadVerified(loopIterationGraph());
  SpmdProgram program = loopProgram(graph);
  GeneratedProgram generated = generateProgram(program, AotOptions{});
  CHECK(generated.source.find("for (;;)") != std::string::npos);
  CHECK(generated.source.find("break;") != std::string::npos);
  CompiledProgram compiled(program, generated);
  for (int64_t start : {0, 1, 4}) {
    INFO(start);
    std::vector<Literal> out = compiled.run({ramp(1), scalarI32(start)});
    const int64_t iterations = std::max<int64_t>(0, 3 - start);
    CHECK(out[0] == ramp(int64_t(1) << iterations));
    CHECK(out[1].getInt(0) == std::max<int64_t>(start, 3));
  }
}

TEST_CASE("a branch step compiles to a switch over its cases") {
  Graph graph = loadVerified(branchGraph());
  SpmdProgram program = branchProgram(graph);
  GeneratedProgram generated = generateProgram(program, AotOptions{});
  CHECK(generated.source.find("switch (") != std::string::npos);
  CompiledProgram compiled(program, generated);
  const Literal x = ramp(1);
  Literal square(x.type());
  for (int64_t e = 0; e < 32; ++e)
    square.setFloat(e, x.getFloat(e) * x.getFloat(e));
  CHECK(compiled.run({x, scalarI32(0)})[0] == ramp(2));
  CHECK(compiled.run({x, scalarI32(1)})[0] == square);
  CHECK(compiled.run({x, scalarI32(9)})[0] == square);
}

TEST_CASE("every value of a loop keeps bytes of its own while the loop runs") {
  Graph graph = loadVerified(loopIterationGraph());
  SpmdProgram program = loopProgram(graph);
  FusionPlan fusion = planFusion(program);
  BufferPlan plan = planBuffers(program, fusion);
  const SpmdStep &loop = program.steps.at(0);
  std::vector<SpmdValueId> live(loop.carried.begin(), loop.carried.end());
  forEachNestedValue(loop, [&](SpmdValueId v) { live.push_back(v); });
  std::sort(live.begin(), live.end());
  live.erase(std::unique(live.begin(), live.end()), live.end());
  // No two of them share a byte: every one lives across the whole loop.
  for (size_t a = 0; a < live.size(); ++a)
    for (size_t b = 0; b < a; ++b) {
      const int64_t aBytes = localBytes(program.layout(live[a]), 0);
      const int64_t bBytes = localBytes(program.layout(live[b]), 0);
      if (aBytes == 0 || bBytes == 0)
        continue;
      const int64_t aStart = plan.offsets[live[a]], bStart = plan.offsets[live[b]];
      INFO(program.values[live[a]].name, " and ", program.values[live[b]].name);
      CHECK((aStart + aBytes <= bStart || bStart + bBytes <= aStart));
    }
}
