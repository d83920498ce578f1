// CompactPointer keeps any JSON pointer text exactly, in 8 bytes, and equal
// texts give equal handles; ShardingOrigin prints the same text with it.
#include <doctest/doctest.h>

#include "compiler/ir/CompactPointer.h"
#include "compiler/ir/ShardingOrigin.h"

using namespace shardgen;

TEST_CASE("a compact pointer gives its text back exactly") {
  for (const char *text :
       {"/ops/5", "/ops/0", "/inputs/4/sharding", "/ops/3/body/ops/12", "/outputs/7/distribution",
        "/ops/05", "/ops/1234567890123", "/meshes", "7", "/a/b-2x", "/ops/3/shardings/0"})
    CHECK(CompactPointer(text).str() == text);
  CHECK(CompactPointer().str().empty());
  CHECK(CompactPointer("").empty());
  CHECK(CompactPointer("") == CompactPointer());
  CHECK(sizeof(CompactPointer) == 8);
}

TEST_CASE("equal pointer texts give equal handles, different texts different ones") {
  CHECK(CompactPointer("/ops/5") == CompactPointer(std::string("/ops/") + "5"));
  CHECK(CompactPointer("/ops/5") != CompactPointer("/ops/6"));
  CHECK(CompactPointer("/ops/5") != CompactPointer("/ops/05"));
  CHECK(CompactPointer("/inputs/4/sharding") != CompactPointer("/inputs/4/distribution"));
  CHECK(CompactPointer("/ops/1/body/ops/2") != CompactPointer("/ops/2/body/ops/2"));
}

TEST_CASE("origins print their pointer unchanged and parse back equal") {
  for (const char *text : {"user:/inputs/12/sharding", "op:/ops/999999", "constraint:/ops/3",
                           "op:/outputs/0", "group:12345678901", "default"}) {
    std::optional<ShardingOrigin> origin = parseShardingOrigin(text);
    REQUIRE(origin);
    CHECK(origin->str() == text);
    CHECK(parseShardingOrigin(origin->str()) == origin);
  }
  CHECK(sizeof(ShardingOrigin) == 24);
}
