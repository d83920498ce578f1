// printJson writes scalars itself (no nlohmann serializer per scalar); it
// must give exactly what nlohmann's dump() gives, escapes included.
#include <doctest/doctest.h>

#include <cstdint>

#include "compiler/frontend/JsonPrinter.h"

using namespace shardgen;

TEST_CASE("printJson prints every kind of scalar as dump() does") {
  Json scalars = Json::array();
  for (const char *text :
       {"plain", "", "with \"quotes\"", "back\\slash", "tab\tnew\nline", "\x01\x1f control",
        "caf\xc3\xa9 \xe2\x82\xac", "del\x7f", "<@mesh, [{\"x\"}, {}]>"})
    scalars.push_back(text);
  for (Json number : {Json(0), Json(-1), Json(INT64_MIN), Json(INT64_MAX), Json(UINT64_MAX),
                      Json(0.1), Json(-2.5e-300), Json(1e300), Json(3.0)})
    scalars.push_back(number);
  scalars.push_back(true);
  scalars.push_back(false);
  scalars.push_back(nullptr);
  for (const Json &scalar : scalars) {
    CAPTURE(scalar.dump());
    CHECK(printJson(scalar) == scalar.dump());
    // The same text inside an array and as an object's key.
    CHECK(printJson(Json::array({scalar})) == "[" + scalar.dump() + "]");
    if (scalar.is_string())
      CHECK(printJson(Json::object({{scalar.get<std::string>(), 1}})) ==
            "{" + scalar.dump() + ": 1}");
  }
}

TEST_CASE("printJson keeps a flat object on one line up to 100 columns") {
  std::string name(80, 'n');
  Json fits = Json::object({{"k", name}});                     // {"k": "nnn..."}: 89 columns
  Json tooWide = Json::object({{"k", name + "nnnnnnnnnnnn"}}); // 101 columns
  CHECK(printJson(fits) == "{\"k\": \"" + name + "\"}");
  CHECK(printJson(tooWide) == "{\n  \"k\": \"" + name + "nnnnnnnnnnnn\"\n}");
  Json nested = Json::object({{"a", Json::array({Json::object({{"b", "c\"d"}})})}});
  CHECK(printJson(nested) == "{\n  \"a\": [\n    {\"b\": \"c\\\"d\"}\n  ]\n}");
}
