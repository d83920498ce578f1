#pragma once
// Files compiled into the shardgen binary (templates/ and the runtime's
// sources), so generation and the JIT work without the source tree. The
// table is generated at build time by EmbedFiles.cmake.

#include <string_view>
#include <vector>

namespace shardgen::codegen {

struct EmbeddedFile {
  std::string_view path; // relative to the repository root ("templates/program.cpp.in")
  std::string_view contents;
};

const std::vector<EmbeddedFile> &embeddedFiles();
/// The contents of `path`; throws std::logic_error when it was not embedded.
std::string_view embeddedFile(std::string_view path);

} // namespace shardgen::codegen
