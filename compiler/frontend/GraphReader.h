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

class GraphText;

/// Graph files (and standard input) larger than this are refused unread.
inline constexpr uint64_t kMaxGraphFileBytes = uint64_t(256) << 20;

Graph readGraph(std::string_view jsonText);
/// The same, giving back the pages of a mapped file as they are read.
Graph readGraph(GraphText &text);
/// `path` "-" reads standard input. Fails on a directory or a file over
/// kMaxGraphFileBytes.
Graph readGraphFile(const std::string &path);

} // namespace shardgen
