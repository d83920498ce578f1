// The terminal grids (bounded, uneven and empty pieces marked) and the HTML
// data block's escaping.

#include <doctest/doctest.h>

#include "compiler/show/HtmlRenderer.h"
#include "compiler/show/TextRenderer.h"
#include "test/show/ShowTestUtil.h"

using namespace shardgen;
using namespace shardgen::show;
using namespace shardgen::show::test;

namespace {

TensorView view(const Mesh &mesh, const Shape &shape, const DimAxes &axes) {
  TensorView view;
  view.name = "t";
  view.role = "value";
  view.type = f32(shape);
  view.sharding = "<@mesh, [...]>";
  view.origin = "default";
  view.blocks = mapBlocks(makeShardLayout(mesh, view.type, axes));
  return view;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("an uneven rank-1 tensor: every block, the short one starred, the empty device named") {
  Mesh mesh = makeMesh({{"x", 4}});
  std::string text = renderTensorText(view(mesh, {5}, {{AxisRef::full("x")}}), mesh, {});
  INFO(text);
  CHECK(contains(text, "  columns: dim 0\n"));
  CHECK(contains(text, "0:2   2:4   4:5"));
  CHECK(contains(text, "| d0  | d1  | d2* |"));
  CHECK(contains(text, "* uneven"));
  CHECK(contains(text, "empty: d3 hold no elements"));
  CHECK_FALSE(contains(text, "\x1b["));
}

TEST_CASE("rank 3 is a row of labelled 2D slices over dim 0") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 2}});
  std::string text = renderTensorText(
      view(mesh, {4, 2, 6}, {{AxisRef::full("x")}, {}, {AxisRef::full("y")}}), mesh, {});
  INFO(text);
  CHECK(contains(text, "slices over dim 0; rows: dim 1, columns: dim 2"));
  CHECK(contains(text, "[0:2, :, :]"));
  CHECK(contains(text, "[2:4, :, :]"));
  // Slice 0 holds d0 (x=0,y=0) and d1; slice 1 d2 and d3, side by side.
  CHECK(contains(text, "0:2 | d0  | d1  |   0:2 | d2  | d3  |"));
}

TEST_CASE("big grids are bounded with a note; colour only when asked") {
  Mesh mesh = makeMesh({{"x", 64}});
  std::string text = renderTensorText(view(mesh, {64}, {{AxisRef::full("x")}}), mesh, {});
  INFO(text);
  CHECK(contains(text, "| d7  |"));
  CHECK_FALSE(contains(text, "d8"));
  CHECK(contains(text, "along dim 0 only the first 8 of 64 blocks are drawn"));
  TextStyle colour;
  colour.colour = true;
  std::string coloured = renderTensorText(view(mesh, {64}, {{AxisRef::full("x")}}), mesh, colour);
  CHECK(contains(coloured, "\x1b[30;101m d0  \x1b[0m|"));
}

TEST_CASE("long device lists become numbered notes listing every device") {
  Mesh mesh = makeMesh({{"x", 2}, {"y", 32}});
  // Sharded on y only: each block is held by x=0 and x=1, ids k and 32+k.
  std::string text = renderTensorText(view(mesh, {2}, {{AxisRef::full("x")}}), mesh, {});
  INFO(text);
  CHECK(contains(text, "| d0-31 | d32-63 |"));
  Mesh spread = makeMesh({{"x", 16}, {"y", 2}});
  std::string notes = renderTensorText(view(spread, {2}, {{AxisRef::full("y")}}), spread, {});
  INFO(notes);
  CHECK(contains(notes, "| [1] | [2] |"));
  CHECK(contains(notes, "[1] d0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30\n"));
  // Huge lists are cut, with their size.
  Mesh huge = makeMesh({{"x", 512}, {"y", 2}});
  std::string cut = renderTensorText(view(huge, {2}, {{AxisRef::full("y")}}), huge, {});
  CHECK(contains(cut, "[1] d0,2,4,6,"));
  CHECK(contains(cut, ",... (512 devices in all)\n"));
  CHECK(cut.size() < 1000);
}

TEST_CASE("a scalar is one cell; an empty tensor has no blocks") {
  Mesh mesh = makeMesh({{"x", 2}});
  std::string scalar = renderTensorText(view(mesh, {}, {}), mesh, {});
  INFO(scalar);
  CHECK(contains(scalar, "blocks:   1 block on 2 devices: replicated on every device\n"));
  CHECK(contains(scalar, "scalar\n   +------"));
  CHECK(contains(scalar, "   | d0,1   |\n"));
  std::string empty = renderTensorText(view(mesh, {2, 0}, {{AxisRef::full("x")}, {}}), mesh, {});
  INFO(empty);
  CHECK(contains(empty, "blocks:   none: the tensor has no elements\n"));
  CHECK(contains(empty, "empty: d0,1 hold no elements of it\n"));
}

TEST_CASE("the mesh: device ids by coordinates") {
  Mesh mesh = makeMesh({{"data", 2}, {"model", 2}});
  mesh.deviceIds = {0, 2, 1, 3};
  std::string text = renderMeshText(mesh, {});
  INFO(text);
  CHECK(contains(text, "mesh @mesh: data=2, model=2 (4 devices)"));
  CHECK(contains(text, "data=0 | 0       | 2       |"));
  CHECK(contains(text, "data=1 | 1       | 3       |"));
}

TEST_CASE("the page's JSON holds no raw bidi control") {
  // U+202E (right-to-left override), U+2067, U+200F, U+061C; U+2030 stays.
  std::string json = "{\"n\":\"a\xe2\x80\xae"
                     "b\xe2\x81\xa7"
                     "c\xe2\x80\x8f"
                     "d\xd8\x9c"
                     "e\xe2\x80\xb0\"}";
  CHECK(scriptSafeJson(json) == R"({"n":"a\u202eb\u2067c\u200fd\u061ce)"
                                "\xe2\x80\xb0"
                                R"("})");
}

TEST_CASE("the page's JSON cannot end its script element") {
  std::string json = R"({"name":"</script><script>alert(1)</script>&x","s":"a)"
                     "\xe2\x80\xa8"
                     R"("})";
  std::string safe = scriptSafeJson(json);
  CHECK(safe.find('<') == std::string::npos);
  CHECK(safe.find('>') == std::string::npos);
  CHECK(safe.find('&') == std::string::npos);
  CHECK(
      safe ==
      R"({"name":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e\u0026x","s":"a\u2028"})");
}
