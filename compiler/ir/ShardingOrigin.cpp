#include "compiler/ir/ShardingOrigin.h"

namespace shardgen {

static_assert(sizeof(ShardingOrigin) == 24, "a large graph holds one per value and per slot");

std::string ShardingOrigin::str() const {
  switch (kind) {
  case Kind::Default:
    return "default";
  case Kind::User:
    return "user:" + pointer.str();
  case Kind::Constraint:
    return "constraint:" + pointer.str();
  case Kind::Group:
    return "group:" + std::to_string(groupId);
  case Kind::Op:
    return "op:" + pointer.str();
  }
  return "default";
}

std::optional<ShardingOrigin> parseShardingOrigin(std::string_view text) {
  ShardingOrigin origin;
  auto after = [&](std::string_view prefix) -> std::optional<std::string_view> {
    if (!text.starts_with(prefix))
      return std::nullopt;
    return text.substr(prefix.size());
  };
  if (text == "default") {
    origin.kind = ShardingOrigin::Kind::Default;
  } else if (auto rest = after("user:")) {
    origin.kind = ShardingOrigin::Kind::User;
    origin.pointer = CompactPointer(*rest);
  } else if (auto rest = after("constraint:")) {
    origin.kind = ShardingOrigin::Kind::Constraint;
    origin.pointer = CompactPointer(*rest);
  } else if (auto rest = after("op:")) {
    origin.kind = ShardingOrigin::Kind::Op;
    origin.pointer = CompactPointer(*rest);
  } else if (auto rest = after("group:"); rest && !rest->empty() && rest->size() < 19 &&
                                          rest->find_first_not_of("0123456789") == rest->npos) {
    origin.kind = ShardingOrigin::Kind::Group;
    origin.groupId = std::stoll(std::string(*rest));
  } else {
    return std::nullopt;
  }
  if (origin.str() != text)
    return std::nullopt; // e.g. "group:01": written back it would change
  return origin;
}

} // namespace shardgen
