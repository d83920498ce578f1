// PerResult holds one entry in place and more on the heap, with the vector
// operations the IR's per-result slots use.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <utility>

#include "compiler/ir/PerResult.h"

using namespace shardgen;

TEST_CASE("one entry in place, more on the heap, values kept across growth") {
  PerResult<int64_t> entries;
  CHECK(entries.empty());
  entries.resize(1);
  CHECK(entries[0] == 0);
  entries[0] = 5;
  entries.push_back(entries[0]); // an entry of its own, while growing
  entries.push_back(7);
  REQUIRE(entries.size() == 3);
  CHECK(entries[0] == 5);
  CHECK(entries[1] == 5);
  CHECK(entries[2] == 7);
  entries.resize(5);
  CHECK(entries[4] == 0);
  entries.resize(1);
  entries.resize(2);
  CHECK(entries[1] == 0); // value-initialised again
  entries.clear();
  CHECK(entries.empty());
  entries.push_back(1);
  CHECK(entries == PerResult<int64_t>{1});
  CHECK(entries.at(0) == 1);
  CHECK_THROWS_AS(entries.at(1), std::out_of_range);
  CHECK(sizeof(PerResult<int64_t>) == 16);
}

TEST_CASE("copies and moves, in place and on the heap") {
  PerResult<int64_t> one{4};
  PerResult<int64_t> many{1, 2, 3};
  PerResult<int64_t> copy = many;
  CHECK(copy == many);
  copy[0] = 9;
  CHECK(many[0] == 1); // its own heap block
  PerResult<int64_t> moved = std::move(copy);
  CHECK(moved == PerResult<int64_t>{9, 2, 3});
  copy = one; // a moved-from vector is usable
  CHECK(copy == one);
  moved = one;
  CHECK(moved == PerResult<int64_t>{4});
  moved = std::move(many);
  CHECK(moved == PerResult<int64_t>{1, 2, 3});
  CHECK(moved != one);
}
