#include <doctest/doctest.h>

#include <variant>

#include "compiler/ir/Attributes.h"

using namespace shardgen;

TEST_CASE("op attributes read as the variant, NoAttrs when none were set") {
  CHECK(sizeof(OpAttributes) == sizeof(void *));
  OpAttributes none;
  CHECK(std::holds_alternative<NoAttrs>(none.get()));
  OpAttributes explicitNone = Attributes(NoAttrs{});
  CHECK(std::holds_alternative<NoAttrs>(explicitNone.get()));

  OpAttributes attrs = DotGeneralAttrs{{}, {}, {1}, {0}};
  const Attributes &variant = attrs;
  REQUIRE(std::holds_alternative<DotGeneralAttrs>(variant));
  CHECK(std::get<DotGeneralAttrs>(variant).lhsContractingDimensions == std::vector<int64_t>{1});

  attrs = Attributes(TransposeAttrs{{1, 0}});
  CHECK(std::get<TransposeAttrs>(attrs.get()).permutation == std::vector<int64_t>{1, 0});
}

TEST_CASE("op attribute copies are deep and mutableGet changes only its own") {
  OpAttributes original = AllReduceAttrs{{"x"}, Reducer::Add};
  OpAttributes copy = original;
  std::get<AllReduceAttrs>(copy.mutableGet()).reducer = Reducer::Max;
  CHECK(std::get<AllReduceAttrs>(original.get()).reducer == Reducer::Add);
  CHECK(std::get<AllReduceAttrs>(copy.get()).reducer == Reducer::Max);

  OpAttributes empty;
  copy = empty;
  CHECK(std::holds_alternative<NoAttrs>(copy.get()));
  OpAttributes moved = std::move(original);
  CHECK(std::get<AllReduceAttrs>(moved.get()).axes == std::vector<std::string>{"x"});
  // The empty box gives a NoAttrs to change in place.
  CHECK(std::holds_alternative<NoAttrs>(empty.mutableGet()));
}
