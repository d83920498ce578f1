#include "compiler/ir/InternalError.h"

#include <string_view>

namespace shardgen {

void internalError(const char *file, int line, const std::string &message) {
  // The path relative to the source tree is enough to find the check.
  std::string_view path(file);
  if (size_t at = path.rfind("compiler/"); at != std::string_view::npos)
    path.remove_prefix(at);
  throw InternalError(std::string(path) + ":" + std::to_string(line) + ": " + message);
}

} // namespace shardgen
