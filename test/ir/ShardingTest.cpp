#include <doctest/doctest.h>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/OpShardingRule.h"
#include "compiler/ir/Sharding.h"
#include "compiler/ir/TensorType.h"

using namespace shardgen;

static TensorSharding parsed(const char *text) {
  std::string error;
  auto sharding = parseSharding(text, &error);
  INFO(error);
  REQUIRE(sharding.has_value());
  return *sharding;
}

TEST_CASE("sharding text: quoted and bare axis names mean the same") {
  CHECK(parsed(R"(<@mesh, [{"x"}, {}]>)") == parsed("<@mesh, [{x}, {}]>"));
}

TEST_CASE("sharding text: every construct survives print then parse") {
  const char *cases[] = {
      R"(<@mesh, [{"x"}, {}]>)",
      R"(<@mesh, [{"x", "y"}, {?}]>)",
      R"(<@mesh, [{"x", ?}, {}p1]>)",
      R"(<@mesh, [{}, {}], replicated={"y"}>)",
      R"(<@mesh, [{"x":(1)2}, {}]>)",
      R"(<@mesh, []>)",
      R"(<@mesh, [{?}p2, {"a"}p0], replicated={"b"}, unreduced={"c"}>)",
      // A mesh name that is no identifier is quoted, as MLIR prints symbols.
      R"(<@"me, sh", [{"x y"}]>)",
      R"(<@"2d", []>)",
      R"(<@_m.e$sh-1, []>)",
  };
  for (const char *text : cases) {
    TensorSharding sharding = parsed(text);
    CHECK(printSharding(sharding) == text);
    CHECK(parsed(printSharding(sharding).c_str()) == sharding);
  }
}

TEST_CASE("sharding text: a mesh name that needs quotes keeps them when printed") {
  // Found by fuzz_sharding: "<@\"<@msh\", ...>" printed as "<@<@msh, ...>",
  // and `propagate` wrote shardings of mesh "my mesh" that did not read back.
  for (const char *text : {R"(<@"my mesh", [{"a"}]>)", R"(<@"<@m,", []>)"}) {
    TensorSharding sharding = parsed(text);
    CHECK(printSharding(sharding) == text);
    CHECK(parsed(printSharding(sharding).c_str()) == sharding);
  }
  CHECK(printSharding(parsed(R"(<@"mesh", []>)")) == "<@mesh, []>");
}

TEST_CASE("sharding text: structure is read into the model") {
  TensorSharding s = parsed(R"(<@m, [{x, "y":(2)4, ?}p3, {}], replicated={z}>)");
  CHECK(s.meshName == "m");
  REQUIRE(s.dims.size() == 2);
  CHECK(s.dims[0].axes.size() == 2);
  CHECK(s.dims[0].axes[1] == AxisRef::sub("y", 2, 4));
  CHECK_FALSE(s.dims[0].isClosed);
  CHECK(s.dims[0].priority == 3);
  CHECK(s.dims[1].isClosed);
  CHECK(s.replicated == std::vector<AxisRef>{AxisRef::full("z")});
}

TEST_CASE("sharding text: malformed text is rejected with a reason") {
  const char *cases[] = {"",           "<mesh, []>",           "<@m, [{x}>",   "<@m, [{x}p01]>",
                         "<@m, [{x}]", "<@m, [{x}], foo={y}>", "<@m, [{\"x}]>"};
  for (const char *text : cases) {
    std::string error;
    CHECK_FALSE(parseSharding(text, &error).has_value());
    CHECK(error.find("invalid sharding") == 0);
  }
}

TEST_CASE("tensor types parse and print") {
  std::string error;
  auto t = parseType("tensor<8x16xf32>", &error);
  REQUIRE(t);
  CHECK(t->shape == Shape{8, 16});
  CHECK(printType(*t) == "tensor<8x16xf32>");
  auto scalar = parseType("tensor<bf16>", &error);
  REQUIRE(scalar);
  CHECK(scalar->rank() == 0);
  CHECK_FALSE(parseType("tensor<8xf33>", &error));
  CHECK_FALSE(parseType("tensor<?x8xf32>", &error));
  CHECK_FALSE(parseType("vector<8xf32>", &error));
}

TEST_CASE("mesh coordinates are row-major, device ids map positions") {
  Mesh mesh{"m", {{"a", 2}, {"b", 3}}, {5, 4, 3, 2, 1, 0}, "", {}, {}};
  CHECK(mesh.numDevices() == 6);
  CHECK(mesh.coordinates(4) == std::vector<int64_t>{1, 1});
  CHECK(mesh.position({1, 2}) == 5);
  CHECK(mesh.deviceId(1) == 4);
  AxisRef whole = AxisRef::full("b");
  CHECK(whole.overlaps(AxisRef::full("b"), mesh));
}

TEST_CASE("op sharding rule text round-trips") {
  std::string error;
  auto rule =
      parseOpShardingRule("([i, j], [j, k])->([i, k]) {i=8, j=4, k=2} reduction={j}", &error);
  INFO(error);
  REQUIRE(rule);
  CHECK(rule->operands.size() == 2);
  CHECK(rule->results[0] == OpShardingRule::TensorFactors{{0}, {2}});
  CHECK(rule->factorKinds[1] == FactorKind::Reduction);
  CHECK(printOpShardingRule(*rule) == "([i, j], [j, k])->([i, k]) {i=8, j=4, k=2} reduction={j}");
  auto merged = parseOpShardingRule("#sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=3}>", &error);
  REQUIRE(merged);
  CHECK(merged->operands[0] == OpShardingRule::TensorFactors{{0, 1}});
  CHECK_FALSE(parseOpShardingRule("([i])->([k]) {i=2}", &error));
}

TEST_CASE("op sharding rule text as Shardy prints it: no factors, size 0, a custom rule") {
  std::string error;
  // Scalars only: Shardy prints no sizes at all.
  auto scalar = parseOpShardingRule("([], [])->([])", &error);
  REQUIRE(scalar);
  CHECK(scalar->numFactors() == 0);
  CHECK(printOpShardingRule(*scalar) == "([], [])->([])");
  // An empty dim's factor has size 0.
  auto empty = parseOpShardingRule("([i, j])->([i, j]) {i=2, j=0}", &error);
  REQUIRE(empty);
  CHECK(empty->factorSizes == std::vector<int64_t>{2, 0});
  CHECK(printOpShardingRule(*empty) == "([i, j])->([i, j]) {i=2, j=0}");
  // A user's rule ends in ", custom" (a bare "custom" is read too).
  auto custom = parseOpShardingRule(
      "([i, j])->([i, j]) {i=8, j=8} need_replication={j} blocked_propagation={i}, custom", &error);
  INFO(error);
  REQUIRE(custom);
  CHECK(custom->blockedFactors == std::vector<int64_t>{0});
  CHECK(custom->factorKinds[1] == FactorKind::NeedReplication);
  CHECK_FALSE(parseOpShardingRule("([i])->([i]) {i=8}, other", &error));
}

#include "compiler/ir/Graph.h"

TEST_CASE("a moved graph's values point at the moved-to regions") {
  Graph graph;
  ValueId input = graph.addValue("x", TensorType{ElementType::F32, {4}});
  graph.main.args.push_back(
      RegionArgument{input, std::nullopt, "/inputs/0", {}, std::nullopt, std::nullopt});
  Op op;
  op.kind = OpKind::Negate;
  op.operands = {input};
  op.results = {graph.addValue("y")};
  graph.main.ops.push_back(std::move(op));
  graph.linkDefinitions();
  Graph moved = std::move(graph);
  CHECK(moved.value(0).region == &moved.main);
  CHECK(moved.value(1).definingOp == &moved.main.ops[0]);
  Graph assigned;
  assigned = std::move(moved);
  CHECK(assigned.value(1).region == &assigned.main);
  Graph copy = assigned.clone();
  CHECK(copy.value(1).region == &copy.main);
  CHECK(copy.value(1).definingOp == &copy.main.ops[0]);
}
