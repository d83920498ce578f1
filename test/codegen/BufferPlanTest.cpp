// The buffer planner's promise, as a property over random programs: two
// values live at the same emission step never share a byte of the arena, and
// bytes are only ever shared between values of one element type. Liveness
// is restated here from BufferPlan.h's contract (inputs from before the
// first step, live-out values to after the last, views (BufferViews.h)
// sharing their source's buffer, fused intermediates stored nowhere).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/codegen/BufferPlan.h"
#include "compiler/codegen/BufferViews.h"
#include "compiler/codegen/Fusion.h"
#include "test/codegen/CodegenTestUtil.h"
#include "test/support/RandomGraphGenerator.h"

using namespace shardgen;
using namespace shardgen::codegen;
using namespace shardgen::testing;

namespace {

struct Interval {
  int64_t first = 0, last = -1;
  bool used = false;
  void cover(int64_t step) {
    first = used ? std::min(first, step) : step;
    last = used ? std::max(last, step) : step;
    used = true;
  }
  bool overlaps(const Interval &other) const { return first <= other.last && other.first <= last; }
};

/// "" when `plan` keeps live values apart, else the first two that collide.
std::string overlapIn(const SpmdProgram &program, const FusionPlan &fusion,
                      const BufferPlan &plan) {
  const size_t n = program.values.size();
  const int64_t numSteps = static_cast<int64_t>(program.steps.size());
  std::vector<size_t> buffer(n); // the value whose buffer v's is
  for (size_t v = 0; v < n; ++v)
    buffer[v] = v;
  for (const SpmdStep &step : program.steps)
    for (size_t i = 0; i < step.outputs.size(); ++i)
      if (std::optional<ViewOf> view = viewOf(program, step, i))
        buffer[step.outputs[i]] = buffer[view->source];
  std::vector<Interval> live(n);
  for (SpmdValueId v : program.inputs)
    live[buffer[v]].cover(-1);
  for (int64_t s = 0; s < numSteps; ++s) {
    const SpmdStep &step = program.steps[s];
    const auto at = static_cast<int64_t>(fusion.emissionStep(static_cast<size_t>(s)));
    for (SpmdValueId v : step.inputs)
      live[buffer[v]].cover(at);
    for (SpmdValueId v : step.outputs)
      live[buffer[v]].cover(at);
  }
  for (SpmdValueId v : program.liveOutValues())
    live[buffer[v]].cover(numSteps);
  for (size_t v = 0; v < n; ++v)
    if (!live[v].used)
      live[v] = Interval{-1, numSteps, true};

  auto bytes = [&](size_t v) { return localBytes(program.layout(v), 0); };
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b) {
      if (fusion.fusedAway[a] || fusion.fusedAway[b] || buffer[a] == buffer[b] || bytes(a) == 0 ||
          bytes(b) == 0)
        continue;
      const bool share = plan.offsets[a] < plan.offsets[b] + bytes(b) &&
                         plan.offsets[b] < plan.offsets[a] + bytes(a);
      if (!share)
        continue;
      std::string pair = program.values[a].name + " and " + program.values[b].name;
      if (live[buffer[a]].overlaps(live[buffer[b]]))
        return pair + " are live together and share bytes";
      if (program.layout(a).globalType.elementType != program.layout(b).globalType.elementType)
        return pair + " share bytes with different element types";
    }
  for (size_t v = 0; v < n; ++v)
    if (!fusion.fusedAway[v] && plan.offsets[v] + bytes(v) > plan.arenaBytes)
      return program.values[v].name + " ends past the arena";
  return "";
}

} // namespace

TEST_CASE("the buffer planner never lets two live values share bytes (random programs)") {
  int reused = 0; // programs where some slot serves two values: the property is not vacuous
  for (uint64_t seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    Graph graph = loadVerified(randomGraphJson(seed));
    SpmdProgram program = partitionVerified(graph);
    const FusionPlan fusion = planFusion(program);
    const BufferPlan plan = planBuffers(program, fusion);
    CHECK(overlapIn(program, fusion, plan) == "");
    int64_t sum = 0;
    for (size_t v = 0; v < program.values.size(); ++v)
      if (!fusion.fusedAway[v])
        sum += (localBytes(program.layout(v), 0) + 63) / 64 * 64;
    reused += plan.arenaBytes < sum;
  }
  CHECK(reused > 100);
}
