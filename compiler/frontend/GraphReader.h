#pragma once
// Reads a graph file (spec/graph-format.md) into the IR: structure, syntax and
// name resolution only. Semantic checks (types, shardings against meshes,
// manual-computation invariants) are the verifier's.
//
// Throws GraphError at the first problem, with a JSON pointer into the file.

#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/ir/Graph.h"

namespace shardgen {

/// Graph files (and standard input) larger than this are refused unread.
inline constexpr uint64_t kMaxGraphFileBytes = uint64_t(256) << 20;

Graph readGraph(std::string_view jsonText);
/// The text of a graph file (`path` "-": standard input), refused unread
/// when it is a directory, a device or over kMaxGraphFileBytes.
std::string readGraphText(const std::string &path);
/// `path` "-" reads standard input. Fails on a directory or a file over
/// kMaxGraphFileBytes.
Graph readGraphFile(const std::string &path);

} // namespace shardgen
