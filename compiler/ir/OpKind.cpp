#include "compiler/ir/OpKind.h"

namespace shardgen {

std::optional<OpKind> parseOpKind(std::string_view name) {
  constexpr std::string_view prefix = "stablehlo.";
  if (name.substr(0, prefix.size()) == prefix)
    name.remove_prefix(prefix.size());
  for (OpKind kind : kAllOpKinds)
    if (opName(kind) == name)
      return kind;
  return std::nullopt;
}

} // namespace shardgen
