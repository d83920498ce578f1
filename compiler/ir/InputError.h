#pragma once
// Bad input that is not part of the graph (an .npy file, an output folder,
// a custom-call library): the shardgen tool reports it as "WHERE: error:
// MESSAGE" (exit 1), the Python module as an OSError. Problems of the graph
// itself are GraphError (Diagnostic.h), with a JSON pointer.

#include <stdexcept>
#include <string>

#include "compiler/ir/Diagnostic.h"

namespace shardgen {

class InputError : public std::runtime_error {
public:
  InputError(std::string where, const std::string &message)
      : std::runtime_error(boundedMessage(message)), where_(std::move(where)) {}
  const std::string &where() const { return where_; }

private:
  std::string where_;
};

} // namespace shardgen
