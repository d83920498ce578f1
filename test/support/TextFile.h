#pragma once
// Whole files read and written by the tests (fixtures, generated sources, a
// tool's outputs), byte for byte: one place for every suite and the lit
// runner.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace shardgen::testing {

/// The bytes of the file at `path` ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Replaces the file at `path` with `text`.
inline void writeFile(const std::filesystem::path &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

} // namespace shardgen::testing
