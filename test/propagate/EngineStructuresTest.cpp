// The engine's worklist and state table: the worklist pops exactly in the
// order a min-heap would, whatever is pushed behind or ahead of its cursor;
// equal states share an id, different ones never do.

#include <doctest/doctest.h>

#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "compiler/propagate/EdgeWorklist.h"
#include "compiler/propagate/StateTable.h"

using namespace shardgen::propagation;

TEST_CASE("the edge worklist pops in the order of a min-heap, each queued edge once") {
  constexpr int64_t kEdges = 300;
  std::mt19937 random(7);
  EdgeWorklist worklist;
  worklist.reset(kEdges);
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> heap;
  std::vector<char> queued(kEdges, 0);
  auto push = [&](int64_t edge) {
    worklist.push(edge);
    if (!queued[edge]) {
      queued[edge] = 1;
      heap.push(edge);
    }
  };
  for (int64_t e = 0; e < kEdges; e += 3)
    push(e);
  int64_t pops = 0;
  while (!heap.empty()) {
    int64_t expected = heap.top();
    heap.pop();
    queued[expected] = 0;
    REQUIRE(worklist.pop() == expected);
    ++pops;
    // A visit queues neighbours on both sides, sometimes twice.
    for (int k = 0; k < 2 && pops < 2000; ++k)
      push(static_cast<int64_t>(random() % kEdges));
  }
  CHECK(worklist.pop() == -1);
  CHECK(pops >= 2000);
}

TEST_CASE("equal sharding states share an id, different ones do not") {
  ShardingState a;
  a.mesh = 0;
  a.dims = {DimState{{SubAxis{0, 1, 4}}, false, std::nullopt}, DimState{{}, true, std::nullopt}};
  ShardingState same = a;
  ShardingState closed = a;
  closed.dims[0].closed = true;
  ShardingState prioritized = a;
  prioritized.dims[1].priority = 1;
  ShardingState forbidden = a;
  forbidden.forbidden = {SubAxis{1, 1, 2}};
  StateTable table;
  int32_t id = table.intern(a);
  CHECK(table.intern(same) == id);
  CHECK(table.intern(closed) != id);
  CHECK(table.intern(prioritized) != id);
  CHECK(table.intern(forbidden) != id);
  CHECK(table.intern(forbidden) == table.intern(forbidden));
  CHECK(table.size() == 5); // and the empty state, id 0: a tensor's before it has a sharding
  CHECK(table.intern(ShardingState{}) == 0);
  CHECK(table.state(id) == a);
  // The summary a visit reads first: mesh (-1: no sharding) and axes.
  CHECK(table.mesh(id) == 0);
  CHECK(table.hasAxes(id));
  CHECK(table.mesh(0) == -1);
  CHECK(!table.hasAxes(0));
  ShardingState noAxes = a;
  noAxes.dims[0].axes.clear();
  CHECK(!table.hasAxes(table.intern(noAxes)));
  CHECK(table.mesh(table.intern(noAxes)) == 0);
}
