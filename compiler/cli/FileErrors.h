#pragma once
// Errors of a named graph file, so the top level can print
// "file:pointer: error: message" whichever stage found them.

#include <stdexcept>
#include <string>

#include "compiler/ir/Diagnostic.h"

namespace shardgen::cli {

class FileGraphError : public std::runtime_error {
public:
  FileGraphError(std::string file, std::string pointer, const std::string &message)
      : std::runtime_error(boundedMessage(message)), file_(std::move(file)),
        pointer_(std::move(pointer)) {}
  const std::string &file() const { return file_; }
  const std::string &pointer() const { return pointer_; }

private:
  std::string file_, pointer_;
};

/// "<stdin>" for "-", else the path.
std::string displayName(const std::string &graphPath);

/// Runs `fn`, turning a GraphError of any stage into a FileGraphError of `graphPath`.
template <typename Fn> auto atFile(const std::string &graphPath, Fn &&fn) {
  try {
    return fn();
  } catch (const GraphError &error) {
    throw FileGraphError(displayName(graphPath), error.pointer(), error.what());
  }
}

} // namespace shardgen::cli
