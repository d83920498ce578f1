#pragma once
// Small helpers the verifier's checks share: overflow-safe arithmetic on
// user-supplied sizes, list formatting for messages, and the JSON pointers of
// an op's keys.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen::verify {

/// Sizes beyond this are rejected (compiler/ir/TensorType.h).
using shardgen::kMaxElementCount;

/// a * b, or nullopt on int64 overflow.
std::optional<int64_t> checkedMul(int64_t a, int64_t b);
/// a + b, or nullopt on int64 overflow.
std::optional<int64_t> checkedAdd(int64_t a, int64_t b);

/// "[1, 2, 3]".
std::string formatList(const std::vector<int64_t> &values);
/// `"add"`: an op name quoted the way messages mention it.
std::string quotedOpName(const Op &op);

/// The pointer of one of the op's keys: "/ops/3" + "dimension".
std::string attrPointer(const Op &op, const std::string &key);
/// The pointer of result i's declared type ("type" or "types/i").
std::string resultTypePointer(const Op &op, size_t index);
/// The pointer of result i's sharding ("sharding" or "shardings/i").
std::string resultShardingPointer(const Op &op, size_t index);

/// Rejects types whose element count overflows (`pointer` names the type).
void checkTypeSize(const TensorType &type, const std::string &pointer);

} // namespace shardgen::verify
