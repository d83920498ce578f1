// `run -o DIR --shards`: each device's local buffer of each output
// (out<j>.dev<p>.npy), checked against placement computed here from the
// spec's words alone (none of shardgen's placement code): for a
// distribution, D in row_major or col_major order, chunk s on D[s mod N] at
// slot s / N, buffers [k, shard_shape...] with zero padding; for a
// sharding, each dim cut into ceil(dim / n) pieces by the row-major index
// over its axes. Also `run --check` on every sample.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <random>

#include "compiler/frontend/Npy.h"
#include "compiler/ir/Sharding.h"
#include "test/cli/ToolRunner.h"

using namespace shardgen;
using namespace shardgen::test;
namespace fs = std::filesystem;
using Json = nlohmann::json;
using Ints = std::vector<int64_t>;

namespace {

int64_t productOf(const Ints &v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

/// Row-major digits of `index` over `sizes`.
Ints digitsOf(int64_t index, const Ints &sizes) {
  Ints digits(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    digits[d] = index % sizes[d];
    index /= sizes[d];
  }
  return digits;
}

int64_t rowMajor(const Ints &digits, const Ints &sizes) {
  int64_t index = 0;
  for (size_t d = 0; d < sizes.size(); ++d)
    index = index * sizes[d] + digits[d];
  return index;
}

struct MeshShape {
  std::vector<std::string> names;
  Ints sizes;
  int64_t devices() const { return productOf(sizes); }
};

/// The buffer device position p holds of a global tensor, as the spec says.
using Placement = std::function<Literal(const Literal &global, int64_t position)>;

Placement distributionPlacement(const MeshShape &mesh, const Ints &shard, bool colMajor) {
  return [=](const Literal &global, int64_t position) {
    const Ints &shape = global.shape();
    const int64_t n = mesh.devices();
    // D: the mesh's devices (as row-major positions) in the order asked for.
    Ints order(n);
    for (int64_t i = 0; i < n; ++i) {
      if (!colMajor) {
        order[i] = i;
        continue;
      }
      Ints coordinates(mesh.sizes.size());
      int64_t rest = i; // the first axis varies fastest
      for (size_t a = 0; a < mesh.sizes.size(); ++a) {
        coordinates[a] = rest % mesh.sizes[a];
        rest /= mesh.sizes[a];
      }
      order[i] = rowMajor(coordinates, mesh.sizes);
    }
    Ints grid;
    for (size_t d = 0; d < shape.size(); ++d)
      grid.push_back((shape[d] + shard[d] - 1) / shard[d]);
    const int64_t chunks = productOf(grid);
    Ints mine;
    for (int64_t s = 0; s < chunks; ++s)
      if (order[s % n] == position)
        mine.push_back(s);
    Ints bufferShape{static_cast<int64_t>(mine.size())};
    bufferShape.insert(bufferShape.end(), shard.begin(), shard.end());
    Literal buffer(TensorType{global.elementType(), bufferShape});
    const int64_t chunkSize = productOf(shard);
    for (size_t slot = 0; slot < mine.size(); ++slot) {
      Ints chunk = digitsOf(mine[slot], grid);
      for (int64_t e = 0; e < chunkSize; ++e) {
        Ints local = digitsOf(e, shard), at(shape.size());
        bool inside = true;
        for (size_t d = 0; d < shape.size(); ++d) {
          at[d] = chunk[d] * shard[d] + local[d];
          inside = inside && at[d] < shape[d];
        }
        double value = inside ? global.getFloat(rowMajor(at, shape)) : 0.0; // padding: zero
        buffer.setFloat(static_cast<int64_t>(slot) * chunkSize + e, value);
      }
    }
    return buffer;
  };
}

/// A mesh axis, or Shardy's sub-axis "name":(pre)size of it: the axis seen
/// as [pre, size, rest] (major to minor), the middle part.
struct AxisPart {
  int64_t axis = 0;
  int64_t pre = 1, size = 0; // size 0: the whole axis
};

/// `dimAxes[d]`: the mesh axes (or parts) sharding dim d, major to minor.
Placement shardingPlacement(const MeshShape &mesh,
                            const std::vector<std::vector<AxisPart>> &dimAxes) {
  return [=](const Literal &global, int64_t position) {
    const Ints &shape = global.shape();
    Ints coordinates = digitsOf(position, mesh.sizes);
    Ints offset(shape.size()), extent(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t pieces = 1, index = 0;
      for (const AxisPart &part : dimAxes[d]) {
        const int64_t whole = mesh.sizes[part.axis];
        const int64_t size = part.size == 0 ? whole : part.size;
        const int64_t rest = whole / (part.pre * size);
        pieces *= size;
        index = index * size + coordinates[part.axis] / rest % size;
      }
      int64_t piece = (shape[d] + pieces - 1) / pieces;
      offset[d] = std::min(index * piece, shape[d]);
      extent[d] = std::min(piece, shape[d] - offset[d]);
    }
    Literal buffer(TensorType{global.elementType(), extent});
    for (int64_t e = 0; e < buffer.numElements(); ++e) {
      Ints at = digitsOf(e, extent);
      for (size_t d = 0; d < shape.size(); ++d)
        at[d] += offset[d];
      buffer.setFloat(e, global.getFloat(rowMajor(at, shape)));
    }
    return buffer;
  };
}

MeshShape meshOf(const Json &graph, const std::string &name) {
  MeshShape mesh;
  for (const Json &m : graph["meshes"])
    if (m["name"] == name)
      for (const Json &axis : m["axes"]) {
        mesh.names.push_back(axis["name"]);
        mesh.sizes.push_back(axis["size"]);
      }
  return mesh;
}

/// The placement an output's annotation asks for; nullopt when the test does
/// not model it (unreduced, open dims) or there is none.
std::optional<std::pair<MeshShape, Placement>> placementOf(const Json &graph, const Json &output) {
  if (output.contains("distribution")) {
    const Json &d = output["distribution"];
    MeshShape mesh = meshOf(graph, d["mesh"]);
    bool colMajor = d.value("order", std::string("row_major")) == "col_major";
    return std::pair{mesh, distributionPlacement(mesh, d["shard_shape"].get<Ints>(), colMajor)};
  }
  if (!output.contains("sharding"))
    return std::nullopt;
  std::string error;
  std::optional<TensorSharding> sharding =
      parseSharding(output["sharding"].get<std::string>(), &error);
  REQUIRE(sharding);
  if (!sharding->unreduced.empty())
    return std::nullopt;
  MeshShape mesh = meshOf(graph, sharding->meshName);
  std::vector<std::vector<AxisPart>> dimAxes;
  for (const DimSharding &dim : sharding->dims) {
    if (!dim.isClosed)
      return std::nullopt;
    std::vector<AxisPart> axes;
    for (const AxisRef &axis : dim.axes)
      axes.push_back(
          {std::find(mesh.names.begin(), mesh.names.end(), axis.name) - mesh.names.begin(),
           axis.preSize.value_or(1), axis.subSize.value_or(0)});
    dimAxes.push_back(axes);
  }
  return std::pair{mesh, shardingPlacement(mesh, dimAxes)};
}

void checkSame(const Literal &got, const Literal &expected) {
  REQUIRE(got.type() == expected.type());
  for (int64_t e = 0; e < got.numElements(); ++e) {
    CAPTURE(e);
    REQUIRE(got.getFloat(e) == expected.getFloat(e));
  }
}

/// Every out<j>.dev<p>.npy in `dir` against the placement of out<j>.npy.
void checkShards(const Json &graph, const std::string &dir) {
  const Json &outputs = graph["outputs"];
  for (size_t j = 0; j < outputs.size(); ++j) {
    CAPTURE(j);
    std::string stem = dir + "/out" + std::to_string(j);
    Literal global = readNpy(stem + ".npy");
    auto placement = placementOf(graph, outputs[j]);
    if (!placement)
      continue;
    for (int64_t p = 0; p < placement->first.devices(); ++p) {
      CAPTURE(p);
      checkSame(readNpy(stem + ".dev" + std::to_string(p) + ".npy"), placement->second(global, p));
    }
    CHECK_FALSE(fs::exists(stem + ".dev" + std::to_string(placement->first.devices()) + ".npy"));
  }
}

Json readJson(const std::string &path) { return Json::parse(readFile(path)); }

std::string typeText(const Ints &shape) {
  std::string text = "tensor<";
  for (int64_t d : shape)
    text += std::to_string(d) + "x";
  return text + "f32>";
}

/// A random case: several tensors on one random mesh, each entering and
/// leaving with a random distribution or sharding (negated in between), so
/// the program has distribution -> distribution, sharding -> distribution
/// and distribution -> sharding transfers and chunk-wise ops.
struct RandomCase {
  Json graph;
  std::vector<Literal> inputs;
};

RandomCase randomCase(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  RandomCase c;
  Json mesh{{"name", "m"}, {"axes", Json::array()}};
  Ints sizes;
  const int64_t numAxes = uniform(1, 3);
  for (int64_t a = 0; a < numAxes; ++a) {
    sizes.push_back(uniform(1, 3));
    mesh["axes"].push_back({{"name", "a" + std::to_string(a)}, {"size", sizes.back()}});
  }
  if (uniform(0, 1)) { // device ids do not change positions
    Ints ids(productOf(sizes));
    std::iota(ids.begin(), ids.end(), 0);
    std::shuffle(ids.begin(), ids.end(), rng);
    mesh["device_ids"] = ids;
  }
  auto randomDistribution = [&](const Ints &shape) {
    Ints shard;
    for (int64_t d : shape)
      shard.push_back(uniform(1, d + 1)); // past the dim: one clipped chunk
    return Json{{"mesh", "m"},
                {"shard_shape", shard},
                {"order", uniform(0, 1) ? "col_major" : "row_major"}};
  };
  auto randomSharding = [&](const Ints &shape) {
    std::vector<std::string> dims(shape.size());
    for (int64_t a = 0; a < numAxes; ++a) {
      if (shape.empty() || uniform(0, 2) == 0)
        continue;
      std::string &dim = dims[uniform(0, static_cast<int64_t>(shape.size()) - 1)];
      dim += (dim.empty() ? "" : ", ") + std::string("\"a") + std::to_string(a) + "\"";
    }
    std::string text = "<@m, [";
    for (size_t d = 0; d < dims.size(); ++d)
      text += (d ? ", {" : "{") + dims[d] + "}";
    return text + "]>";
  };
  Json graph{{"format", "shardgen-graph"}, {"version", 1},
             {"name", "shards"},           {"meshes", {mesh}},
             {"inputs", Json::array()},    {"ops", Json::array()},
             {"outputs", Json::array()}};
  const int numTensors = 3;
  for (int t = 0; t < numTensors; ++t) {
    Ints shape;
    int64_t rank = uniform(0, 3);
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(uniform(1, 6));
    std::string x = "x" + std::to_string(t), y = "y" + std::to_string(t);
    Json input{{"name", x}, {"type", typeText(shape)}};
    Json output{{"value", y}};
    // Tensor 1 enters sharded, tensor 2 leaves sharded; the rest are distributed.
    if (t == 1)
      input["sharding"] = randomSharding(shape);
    else
      input["distribution"] = randomDistribution(shape);
    if (t == 2)
      output["sharding"] = randomSharding(shape);
    else
      output["distribution"] = randomDistribution(shape);
    graph["inputs"].push_back(input);
    graph["ops"].push_back({{"op", "negate"}, {"operands", {x}}, {"result", y}});
    graph["outputs"].push_back(output);
    Literal values(TensorType{ElementType::F32, shape});
    for (int64_t e = 0; e < values.numElements(); ++e)
      values.setFloat(e, static_cast<double>(e + 1 + 100 * t)); // 0 only in padding
    c.inputs.push_back(std::move(values));
  }
  c.graph = graph;
  return c;
}

} // namespace

TEST_CASE("run --check passes on every sample, and --shards dumps match the spec's placement") {
  for (const auto &entry : fs::directory_iterator(kSamples)) {
    if (entry.path().extension() != ".json")
      continue;
    CAPTURE(entry.path().string());
    std::string dir = makeTempDir() + "/out";
    ToolResult result =
        runShardgen("run '" + entry.path().string() + "' --check -o '" + dir + "' --shards");
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    CHECK(result.err.find("check passed") != std::string::npos);
    checkShards(readJson(entry.path().string()), dir);
  }
}

TEST_CASE("--shards: sub-axes place pieces as Shardy's [pre, size, rest] split of the axis") {
  // "x":(1)2 is the major half of x's coordinate, "x":(2)2 the minor one:
  // on x = 4, device 1 holds rows 0-2 of [6, 5] under [{"x":(1)2, y}, ...]
  // only if pre-size counts the parts major to the sub-axis. Uneven: 6 rows
  // over 4 shards, 5 columns over 2. The output sharding mirrors the
  // input's, so the pieces move between devices.
  const std::string graph = R"({"format": "shardgen-graph", "version": 1, "name": "sub",
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 4}, {"name": "y", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<6x5xf32>",
                "sharding": "<@m, [{\"x\":(1)2, y}, {\"x\":(2)2}]>"}],
    "ops": [{"op": "negate", "operands": ["a"], "result": "n"}],
    "outputs": [{"value": "n", "sharding": "<@m, [{\"x\":(2)2}, {y, \"x\":(1)2}]>"},
                {"value": "a", "sharding": "<@m, [{\"x\":(1)2, y}, {\"x\":(2)2}]>"}]})";
  const std::string dir = makeTempDir();
  const std::string path = dir + "/sub.json";
  writeFile(path, graph);
  ToolResult result = runShardgen("run '" + path + "' --check -o '" + dir + "/out' --shards");
  INFO(result.err);
  REQUIRE(result.exitCode == 0);
  checkShards(Json::parse(graph), dir + "/out");
  // Device 2 (x = 1, y = 0): "x":(1)2 = 0 and y = 0, so rows 0-1 of a
  // (chunks of 2 over 4 shards); "x":(2)2 = 1, so columns 3-4.
  Literal dev2 = readNpy(dir + "/out/out1.dev2.npy");
  CHECK(dev2.shape() == Ints{2, 2});
  Literal global = readNpy(dir + "/out/out1.npy");
  CHECK(dev2.getFloat(0) == global.getFloat(0 * 5 + 3));
}

TEST_CASE("--shards: the seed's examples place their chunks as the spec says") {
  // [3, 7, 5] by [2, 2, 2] on 2x3: a 2x4x3 grid of 24 chunks, 4 per core;
  // core 2 holds chunks 2, 8, 14, 20, all clipped in the last dim.
  std::string dir = makeTempDir() + "/out";
  REQUIRE(runShardgen("run '" + kSamples + "nd_3x7x5.json' -o '" + dir + "' --shards").exitCode ==
          0);
  Literal dev2 = readNpy(dir + "/out0.dev2.npy");
  CHECK(dev2.shape() == Ints{4, 2, 2, 2});
  Literal global = readNpy(dir + "/out0.npy");
  // Slot 1 of core 2 is chunk 8 = grid (0, 2, 2): rows 4-5, columns 4 (and padding).
  CHECK(dev2.getFloat(8 + 0) == global.getFloat(0 * 35 + 4 * 5 + 4));
  CHECK(dev2.getFloat(8 + 1) == 0.0); // column 5 is padding
  // [10, 10, 10] by [1, 10, 10]: cores 0-3 hold two channels, 4-5 one.
  REQUIRE(
      runShardgen("run '" + kSamples + "nd_channels.json' -o '" + dir + "' --shards").exitCode ==
      0);
  CHECK(readNpy(dir + "/out0.dev3.npy").shape() == Ints{2, 1});
  CHECK(readNpy(dir + "/out0.dev4.npy").shape() == Ints{1, 1});
}

TEST_CASE("--shards: random shapes, uneven edges, more devices than chunks, col_major") {
  bool fewerChunksThanDevices = false, colMajor = false, clippedEdge = false;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    RandomCase c = randomCase(seed);
    const MeshShape mesh = meshOf(c.graph, "m");
    for (const Json &end : c.graph["inputs"]) // what the cases cover
      if (end.contains("distribution")) {
        const Json &d = end["distribution"];
        colMajor = colMajor || d["order"] == "col_major";
        std::string type = end["type"].get<std::string>();
        Ints shape, shard = d["shard_shape"].get<Ints>();
        for (size_t at = type.find('<') + 1; type[at] != 'f'; at = type.find('x', at) + 1)
          shape.push_back(std::stoll(type.substr(at)));
        int64_t chunks = 1;
        for (size_t k = 0; k < shape.size(); ++k) {
          chunks *= (shape[k] + shard[k] - 1) / shard[k];
          clippedEdge = clippedEdge || shape[k] % shard[k] != 0;
        }
        fewerChunksThanDevices = fewerChunksThanDevices || chunks < mesh.devices();
      }
    std::string work = makeTempDir();
    writeFile(work + "/g.json", c.graph.dump(1));
    std::string inputs;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      std::string path = work + "/in" + std::to_string(i) + ".npy";
      writeNpy(path, c.inputs[i]);
      inputs += " '" + path + "'";
    }
    INFO(c.graph.dump());
    ToolResult result = runShardgen("run '" + work + "/g.json' --check --inputs" + inputs +
                                    " -o '" + work + "/out' --shards");
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    for (size_t j = 0; j < c.inputs.size(); ++j) { // y = -x
      Literal global = readNpy(work + "/out/out" + std::to_string(j) + ".npy");
      for (int64_t e = 0; e < global.numElements(); ++e)
        REQUIRE(global.getFloat(e) == -c.inputs[j].getFloat(e));
    }
    checkShards(c.graph, work + "/out");
  }
  CHECK(fewerChunksThanDevices);
  CHECK(colMajor);
  CHECK(clippedEdge);
}

TEST_CASE("--shards needs -o") {
  ToolResult result = runShardgen("run '" + kSamples + "nd_channels.json' --shards");
  CHECK(result.exitCode == 2);
  CHECK(result.out.empty());
  CHECK(result.err.find("--shards needs -o DIR") != std::string::npos);
}
