#pragma once
// Tables indexed by OpKind whose entries are chosen at compile time, one per
// row of the op table: how a stage maps a run-time kind to code templated on
// the kind (the op's scalar function, its kernel call) without a switch, so
// a row whose entry cannot be built fails the build instead of falling into
// a `default:`.

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "compiler/ir/OpKind.h"

namespace shardgen {

/// An OpKind as a type: `decltype(kind)::value` in a generic lambda.
template <OpKind K> using KindConstant = std::integral_constant<OpKind, K>;

/// `{entry(KindConstant<K>{})...}` over every kind, in enum order.
template <typename Entry> constexpr auto tableByKind(Entry entry) {
  return [&]<size_t... I>(std::index_sequence<I...>) {
    return std::array{entry(KindConstant<static_cast<OpKind>(I)>{})...};
  }(std::make_index_sequence<kNumOpKinds>{});
}

/// A table's entry for `kind`.
template <typename Table> constexpr auto entryFor(const Table &table, OpKind kind) {
  return table[static_cast<size_t>(kind)];
}

} // namespace shardgen
