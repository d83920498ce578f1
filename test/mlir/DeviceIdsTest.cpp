// stablehlo.partition_id and replica_id: what JAX prints for lax.axis_index
// inside a shard_map over every mesh axis (samples/mlir/ring_axis_index.mlir
// runs one compiled and partitioned). Each device's block of the result
// holds the id it saw.
#include <doctest/doctest.h>

#include "test/mlir/MlirTestSupport.h"

using namespace shardgen;

namespace {

using testing::evalFloats;
using testing::importErrorOf;

/// @main: a 4x2 zero tensor through a manual computation over `manualAxes`
/// of a 2x2 mesh, each device's 2x1 block set to `op`'s id as f32 (`op`
/// without its type: the short form `op : resultType`; with `(`: as given).
std::string idsModule(const std::string &op, const std::string &mesh = "[\"x\"=2, \"y\"=2]",
                      const std::string &manualAxes = "\"x\", \"y\"",
                      const std::string &resultType = "tensor<ui32>") {
  const std::string line = op.find('(') != std::string::npos ? op : op + " : " + resultType;
  return "sdy.mesh @mesh = <" + mesh + R"(>
func.func @main() -> tensor<4x2xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<4x2xf32>
  %0 = sdy.manual_computation(%zero) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={)" +
         manualAxes + R"(} (%block: tensor<2x1xf32>) {
    %id = )" +
         line + R"(
    %f = stablehlo.convert %id : ()" +
         resultType + R"() -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %sum = stablehlo.add %block, %b : tensor<2x1xf32>
    sdy.return %sum : tensor<2x1xf32>
  } : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
)";
}

} // namespace

TEST_CASE("partition_id: the device's row-major position in the mesh, through its device_ids") {
  // Blocks: (x, y) at rows 2x..2x+1, column y.
  CHECK(evalFloats(idsModule("stablehlo.partition_id")) ==
        std::vector<double>{0, 1, 0, 1, 2, 3, 2, 3});
  CHECK(evalFloats(
            idsModule("stablehlo.partition_id", "[\"x\"=2, \"y\"=2], device_ids=[3, 1, 2, 0]")) ==
        std::vector<double>{3, 1, 3, 1, 2, 0, 2, 0});
  // The generic form.
  CHECK(evalFloats(idsModule("\"stablehlo.partition_id\"() : () -> tensor<ui32>")) ==
        std::vector<double>{0, 1, 0, 1, 2, 3, 2, 3});
}

TEST_CASE("replica_id: every device is a partition of replica 0") {
  CHECK(evalFloats(idsModule("stablehlo.replica_id")) == std::vector<double>(8, 0.0));
}

TEST_CASE("partition_id: errors name the place") {
  // A free axis of size 2: devices holding the same values would differ.
  auto [place, message] =
      importErrorOf(idsModule("stablehlo.partition_id", "[\"x\"=2, \"y\"=2]", "\"x\""));
  CHECK(place == "5:5");
  CHECK(message.find("'stablehlo.partition_id' in a manual computation that is not manual over "
                     "axis 'y' of mesh @mesh") != std::string::npos);
  // A free axis of size 1 changes no id (the blocks are 2x2 there).
  std::string oneRow = idsModule("stablehlo.partition_id", "[\"x\"=2, \"y\"=1]", "\"x\"");
  for (size_t at = oneRow.find("2x1xf32"); at != std::string::npos; at = oneRow.find("2x1xf32"))
    oneRow.replace(at, 7, "2x2xf32");
  CHECK(evalFloats(oneRow) == std::vector<double>{0, 0, 0, 0, 1, 1, 1, 1});
  std::tie(place, message) = importErrorOf(R"(func.func @main() -> tensor<ui32> {
  %0 = stablehlo.partition_id : tensor<ui32>
  return %0 : tensor<ui32>
}
)");
  CHECK(place == "2:3");
  CHECK(message.find("'stablehlo.partition_id' outside an sdy.manual_computation") !=
        std::string::npos);
  std::tie(place, message) = importErrorOf(
      idsModule("stablehlo.partition_id", "[\"x\"=2, \"y\"=2]", "\"x\", \"y\"", "tensor<i32>"));
  CHECK(message.find("'stablehlo.partition_id' gives a tensor<ui32>, got tensor<i32>") !=
        std::string::npos);
}

TEST_CASE("partition_id: the device-id tables of a module are bounded") {
  // 4096 devices in reverse order, 300 partition_ids: 1.2M table elements,
  // from a file of 50 kB.
  std::string ids;
  for (int i = 4095; i >= 0; --i)
    ids += std::to_string(i) + (i ? ", " : "");
  std::string body;
  for (int i = 0; i < 300; ++i)
    body += "    %id" + std::to_string(i) + " = stablehlo.partition_id : tensor<ui32>\n";
  const std::string text = "sdy.mesh @mesh = <[\"x\"=4096], device_ids=[" + ids + R"(]>
func.func @main(%a: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%block: tensor<1xf32>) {
)" + body + R"(    sdy.return %block : tensor<1xf32>
  } : (tensor<4096xf32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}
)";
  auto [place, message] = importErrorOf(text);
  CHECK(place == "260:5"); // the 257th: 257 * 4096 > 2^20
  CHECK(message.find("device-id tables of more than 1048576 elements in all") != std::string::npos);
}
