// Windowed ops (reduce_window, convolution) whose windowed dim stays sharded:
// each device receives only the rows its windows read beyond its shard (a
// halo, from its neighbours) and computes its own windows; nothing is
// gathered. The halo bytes are checked against a minimum computed here from
// the window geometry alone, and the simulated program against the
// interpreter.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/WindowHalo.h"
#include "test/partition/MeshTestUtil.h"
#include "test/partition/PartitionTestUtil.h"
#include "test/support/WindowBodies.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// One dim's window: size, stride, padding (as the op's attributes say them).
struct Window {
  int64_t size = 1, stride = 1, low = 0, high = 0;
  int64_t windows(int64_t n) const { return (n + low + high - size) / stride + 1; }
};

/// A mesh of two axes (`a` x `b`, named x and y), an NHWC input x of
/// 2 x h x w x 3 sharded by `sharding`, and one windowed op over H and W
/// whose result is wanted sharded as x: max or add pooling, or a
/// convolution with a 3 -> 4 feature kernel k (replicated).
struct Case {
  int64_t a = 2, b = 2, h = 16, w = 8;
  std::string sharding = "[{}, {x}, {}, {}]";
  std::string op = "max"; // "max", "add" or "conv"
  Window rows, cols;

  std::string json() const {
    const int64_t outH = rows.windows(h), outW = cols.windows(w);
    const int64_t features = op == "conv" ? 4 : 3;
    const std::string result = "tensor<2x" + std::to_string(outH) + "x" + std::to_string(outW) +
                               "x" + std::to_string(features) + "xf32>";
    auto list = [](int64_t p, int64_t q) {
      return "[" + std::to_string(p) + ", " + std::to_string(q) + "]";
    };
    std::string inputs = R"({"name": "x", "type": "tensor<2x)" + std::to_string(h) + "x" +
                         std::to_string(w) + R"(x3xf32>", "sharding": "<@mesh, )" + sharding +
                         R"(>"})";
    std::string ops;
    if (op == "conv") {
      inputs += R"(, {"name": "k", "type": "tensor<)" + std::to_string(rows.size) + "x" +
                std::to_string(cols.size) + R"(x3x4xf32>"})";
      ops = R"({"op": "convolution", "operands": ["x", "k"], "result": "r",
        "input_batch_dimension": 0, "input_feature_dimension": 3, "input_spatial_dimensions": [1, 2],
        "kernel_input_feature_dimension": 2, "kernel_output_feature_dimension": 3,
        "kernel_spatial_dimensions": [0, 1], "output_batch_dimension": 0,
        "output_feature_dimension": 3, "output_spatial_dimensions": [1, 2],
        "window_strides": )" +
            list(rows.stride, cols.stride) + R"(, "padding": [)" + list(rows.low, rows.high) +
            ", " + list(cols.low, cols.high) + "]";
    } else {
      ops = std::string(R"({"op": "constant", "value": )") + (op == "max" ? R"("-inf")" : "0.0") +
            R"(, "type": "tensor<f32>", "result": "init"},
        {"op": "reduce_window", "operands": ["x", "init"], "result": "r",
         "window_dimensions": [1, )" +
            std::to_string(rows.size) + ", " + std::to_string(cols.size) +
            R"(, 1], "window_strides": [1, )" + std::to_string(rows.stride) + ", " +
            std::to_string(cols.stride) + R"(, 1], "padding": [[0, 0], )" +
            list(rows.low, rows.high) + ", " + list(cols.low, cols.high) +
            R"(, [0, 0]], "body": )" + (op == "max" ? kMaxBody : kAddBody);
    }
    ops += R"(, "type": ")" + result + R"(", "sharding": "<@mesh, )" + sharding + ">\"}";
    return R"({"format": "shardgen-graph", "version": 1, "name": "halo",
      "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": )" +
           std::to_string(a) + R"(}, {"name": "y", "size": )" + std::to_string(b) +
           R"(}]}], "inputs": [)" + inputs + R"(], "ops": [)" + ops +
           R"(], "outputs": [{"value": "r", "sharding": "<@mesh, )" + sharding + R"(>"}]})";
  }
};

/// The rows of a dim of `n` cut into `shards` that shard j's windows read
/// beyond its own rows (its halo), from the geometry alone: windows
/// [j * ceil(m / shards), ...) read rows [o * stride - low, o * stride - low
/// + size) each, clipped to the dim.
int64_t haloRows(const Window &window, int64_t n, int64_t shards, int64_t j) {
  const int64_t m = window.windows(n), chunk = (n + shards - 1) / shards,
                windowChunk = (m + shards - 1) / shards;
  const int64_t first = std::min(j * windowChunk, m), last = std::min(first + windowChunk, m);
  if (last <= first)
    return 0;
  const int64_t begin = std::max<int64_t>(0, first * window.stride - window.low),
                end = std::min(n, (last - 1) * window.stride - window.low + window.size);
  const int64_t ownBegin = std::min(n, j * chunk), ownEnd = std::min(n, ownBegin + chunk);
  const int64_t own = std::max<int64_t>(0, std::min(end, ownEnd) - std::max(begin, ownBegin));
  return (end - begin) - own;
}

/// Bytes all devices receive for a case cutting H into `shards` (W whole),
/// each device's halo rows being 2 x w x 3 f32 elements each.
int64_t minimumHaloBytes(const Case &c, int64_t shards) {
  int64_t total = 0;
  const int64_t replicas = c.a * c.b / shards;
  for (int64_t j = 0; j < shards; ++j)
    total += haloRows(c.rows, c.h, shards, j) * 2 * c.w * 3 * 4 * replicas;
  return total;
}

int64_t totalReceived(const SpmdProgram &program) {
  int64_t total = 0;
  for (const CollectiveRecord &record : computeManifest(program).collectives)
    for (const DeviceTraffic &traffic : record.traffic)
      total += traffic.received;
  return total;
}

/// Partitions, checks that nothing is gathered, that the one halo exchange
/// moves the minimum (H cut into `shards`), and that the simulated program
/// computes what the interpreter does.
void checkHalo(const Case &c, int64_t shards) {
  CAPTURE(c.json());
  Graph graph = loadGraph(c.json());
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::AllGather) == 0);
  CHECK(countSteps(program, StepKind::Redistribute) <= 1);
  CHECK(totalReceived(program) == minimumHaloBytes(c, shards));
  CHECK(checkPartitionedEqualsInterpreter(graph, 7) == "");
}

} // namespace

TEST_CASE("a window reach's pieces: what each shard's windows read, overlapping by the halo") {
  Mesh mesh = makeMesh({{"x", 4}});
  ShardLayout layout = makeShardLayout(mesh, f32({16, 2}), DimAxes{{AxisRef::full("x")}, {}});
  ShardLayout plain = layout;
  // A 3-window, stride 1, padding 1 on both sides: one row of each neighbour.
  layout.setWindowReach(0, WindowReach{16, 4, 1, 1, 3});
  CHECK(layout.hasHalo());
  CHECK_FALSE(sameLayout(layout, plain));
  CHECK(layout.offsetsOf(0) == Shape{0, 0});
  CHECK(layout.extentsOf(0) == Shape{5, 2});
  CHECK(layout.offsetsOf(1) == Shape{3, 0});
  CHECK(layout.extentsOf(1) == Shape{6, 2});
  CHECK(layout.offsetsOf(3) == Shape{11, 0});
  CHECK(layout.extentsOf(3) == Shape{5, 2});
  CHECK(layout.chunkShape() == Shape{6, 2});
  CHECK_FALSE(layout.isEven());
  // Window 3, stride 1, VALID: 14 windows in chunks of 4, the last shard 2.
  ShardLayout valid = plain;
  valid.setWindowReach(0, WindowReach{14, 4, 1, 0, 3});
  CHECK(valid.offset(0, 0) == 0);
  CHECK(valid.extent(0, 0) == 6);
  CHECK(valid.offset(3, 0) == 12);
  CHECK(valid.extent(3, 0) == 4);
}

TEST_CASE("windowReachFor refuses what does not map windows to input rows") {
  WindowedDim dim;
  dim.windowExtent = 3;
  dim.padding = {1, 1};
  CHECK(windowReachFor(dim, 16, 4) == WindowReach{16, 4, 1, 1, 3});
  CHECK_FALSE(windowReachFor(dim, 16, 1)); // nothing cut
  dim.baseDilation = 2;
  CHECK_FALSE(windowReachFor(dim, 31, 4));
}

TEST_CASE("pooling with H sharded exchanges halos, no gather: 2x2 and 1x4 meshes") {
  const Window valid2{2, 2, 0, 0}, same3s2{3, 2, 0, 1}, same3{3, 1, 1, 1}, same2{2, 1, 0, 1},
      valid3{3, 1, 0, 0}, whole{1, 1, 0, 0};
  for (const std::string op : {"max", "add"})
    for (const Window &rows : {valid2, same3s2, same3, same2, valid3}) {
      CAPTURE(op);
      CAPTURE(rows.size);
      CAPTURE(rows.stride);
      checkHalo(Case{2, 2, 16, 8, "[{}, {x}, {}, {}]", op, rows, whole}, 2);
      checkHalo(Case{1, 4, 16, 8, "[{}, {y}, {}, {}]", op, rows, whole}, 4);
      checkHalo(Case{2, 2, 16, 8, "[{}, {x, y}, {}, {}]", op, rows, same3}, 4);
    }
}

TEST_CASE("a 3x3 convolution with H sharded exchanges halos: SAME, strided, VALID") {
  const Window same3{3, 1, 1, 1}, same3s2{3, 2, 0, 1}, valid3{3, 1, 0, 0}, valid2s2{2, 2, 0, 0};
  for (const Window &rows : {same3, same3s2, valid3, valid2s2}) {
    CAPTURE(rows.size);
    CAPTURE(rows.stride);
    checkHalo(Case{2, 2, 16, 8, "[{}, {x}, {}, {}]", "conv", rows, same3}, 2);
    checkHalo(Case{1, 4, 16, 8, "[{}, {y}, {}, {}]", "conv", rows, same3}, 4);
  }
}

TEST_CASE("H and W both sharded: halos and corners from the diagonal neighbour") {
  const Window same3{3, 1, 1, 1};
  for (const std::string op : {"max", "conv"}) {
    Case c{2, 2, 8, 8, "[{}, {x}, {y}, {}]", op, same3, same3};
    CAPTURE(c.json());
    Graph graph = loadGraph(c.json());
    SpmdProgram program = partitionVerified(graph);
    CHECK(countSteps(program, StepKind::AllGather) == 0);
    // Each device's 4x4 block gains a row, a column and a corner: 9 of 2x3
    // f32 elements each from three neighbours.
    CHECK(totalReceived(program) == 4 * 9 * 2 * 3 * 4);
    CHECK(checkPartitionedEqualsInterpreter(graph, 3) == "");
  }
}

TEST_CASE("a base dilation keeps today's gather") {
  // 16 rows dilated to 31 and padded by 1 on both sides: 31 windows of 3.
  const std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "dilated",
    "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "x", "type": "tensor<2x16x8x3xf32>", "sharding": "<@mesh, [{}, {x}, {}, {}]>"}],
    "ops": [{"op": "constant", "value": 0.0, "type": "tensor<f32>", "result": "init"},
      {"op": "reduce_window", "operands": ["x", "init"], "result": "r",
       "window_dimensions": [1, 3, 1, 1], "base_dilations": [1, 2, 1, 1],
       "padding": [[0, 0], [1, 1], [0, 0], [0, 0]], "type": "tensor<2x31x8x3xf32>",
       "sharding": "<@mesh, [{}, {x}, {}, {}]>", "body": )" +
                           std::string(kAddBody) + R"(}],
    "outputs": [{"value": "r", "sharding": "<@mesh, [{}, {x}, {}, {}]>"}]})";
  Graph graph = loadGraph(json);
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::Redistribute) == 0);
  CHECK(countSteps(program, StepKind::AllGather) == 1);
  CHECK(checkPartitionedEqualsInterpreter(graph, 5) == "");
}

TEST_CASE("halos wider than a neighbour's piece, and uneven pieces, are exchanged exactly") {
  const Window whole{1, 1, 0, 0};
  // 8 rows on 4 devices, 2 each: a 7-window reads 3 rows on each side, from
  // two neighbours; a 5-window a whole neighbour's piece.
  for (const Window &rows : {Window{7, 1, 3, 3}, Window{5, 1, 2, 2}, Window{5, 2, 2, 2}}) {
    CAPTURE(rows.size);
    checkHalo(Case{1, 4, 8, 8, "[{}, {y}, {}, {}]", "add", rows, whole}, 4);
  }
  // 10 rows on 4 devices: pieces of 3, 3, 3 and 1.
  for (const Window &rows : {Window{3, 1, 1, 1}, Window{3, 1, 0, 0}, Window{2, 2, 0, 0}}) {
    CAPTURE(rows.size);
    checkHalo(Case{1, 4, 10, 8, "[{}, {y}, {}, {}]", "max", rows, whole}, 4);
    checkHalo(Case{1, 4, 10, 8, "[{}, {y}, {}, {}]", "conv", rows, Window{3, 1, 1, 1}}, 4);
  }
}
