#pragma once
// A bug in shardgen, never a problem of the input: the only error the tool
// reports as "internal error" (exit status 4). Input problems are GraphError
// (with a JSON pointer) or the tool's own input errors; a check that can fail
// on some input must throw one of those instead.

#include <stdexcept>
#include <string>

namespace shardgen {

class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

/// Throws InternalError("FILE:LINE: message").
[[noreturn]] void internalError(const char *file, int line, const std::string &message);

} // namespace shardgen

/// Asserts an invariant shardgen itself guarantees (checked in every build).
#define SHARDGEN_CHECK(condition, message)                                                         \
  do {                                                                                             \
    if (!(condition))                                                                              \
      ::shardgen::internalError(__FILE__, __LINE__, (message));                                    \
  } while (false)
