#pragma once
// Where a propagated sharding came from, as a typed fact of its slot (graph
// input/output, op result, body argument). The graph writer prints it as the
// slot's `_origin` (or an op's `_origins`).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/ir/CompactPointer.h"

namespace shardgen {

/// 24 bytes (a large graph has one per value and per slot).
struct ShardingOrigin {
  enum class Kind : uint8_t {
    Default,    // nothing reached the value: replicated
    User,       // the user's sharding at `pointer`
    Constraint, // the sharding_constraint at `pointer`
    Group,      // sharding_group `groupId`, from member `from`
    Op,         // crossed the op at `pointer`, from value `from`
  };
  Kind kind = Kind::Default;
  CompactPointer pointer;
  /// A ValueId (fits: a graph of 2^31 values would not fit in memory); -1
  /// when the source is not a value (an output, an in_sharding).
  int32_t from = -1;
  int64_t groupId = -1;

  /// As written in `_origin`: "user:/inputs/0/sharding", "constraint:/ops/3",
  /// "group:1", "op:/ops/5", "default".
  std::string str() const;
  bool operator==(const ShardingOrigin &) const = default;
};

/// The origin `text` names, when `str()` of it gives `text` back exactly.
std::optional<ShardingOrigin> parseShardingOrigin(std::string_view text);

} // namespace shardgen
