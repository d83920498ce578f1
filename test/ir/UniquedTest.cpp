#include <doctest/doctest.h>

#include "compiler/ir/Sharding.h"
#include "compiler/ir/TensorType.h"
#include "compiler/ir/Uniqued.h"

using namespace shardgen;

TEST_CASE("equal values share one instance, different values do not") {
  UniquedOptional<TensorType> a(TensorType{ElementType::F32, {8, 16}});
  UniquedOptional<TensorType> b(TensorType{ElementType::F32, {8, 16}});
  UniquedOptional<TensorType> c(TensorType{ElementType::F32, {16, 8}});
  UniquedOptional<TensorType> d(TensorType{ElementType::BF16, {8, 16}});
  CHECK(a.get() == b.get());
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a != d);
  CHECK(a->shape == Shape{8, 16});
  CHECK(a == TensorType{ElementType::F32, {8, 16}});
  CHECK(a == std::optional<TensorType>(TensorType{ElementType::F32, {8, 16}}));
}

TEST_CASE("an empty slot is nullopt and converts back to std::optional") {
  UniquedOptional<TensorSharding> empty;
  CHECK_FALSE(empty.has_value());
  CHECK(empty == std::optional<TensorSharding>());
  CHECK(empty.get() == nullptr);
  std::string error;
  std::optional<TensorSharding> parsed = parseSharding("<@mesh, [{\"x\", ?}, {}p1]>", &error);
  REQUIRE(parsed);
  UniquedOptional<TensorSharding> slot = parsed;
  std::optional<TensorSharding> back = slot;
  CHECK(back == parsed);
  // Shardings that differ only in openness, priority or a sub-axis are different.
  TensorSharding closed = *parsed;
  closed.dims[0].isClosed = true;
  TensorSharding reprioritized = *parsed;
  reprioritized.dims[1].priority = 2;
  TensorSharding subAxis = *parsed;
  subAxis.dims[0].axes[0] = AxisRef::sub("x", 1, 2);
  CHECK(UniquedOptional<TensorSharding>(closed) != slot);
  CHECK(UniquedOptional<TensorSharding>(reprioritized) != slot);
  CHECK(UniquedOptional<TensorSharding>(subAxis) != slot);
  slot.reset();
  CHECK_FALSE(slot);
}
