#pragma once
// Writes a graph back in the graph format (pretty JSON, stable key order):
// readGraph(writeGraph(g)) gives a graph equal to g. Shardings and sharding
// rules are printed canonically; `_` metadata goes back where it was read.

#include <functional>
#include <string>
#include <string_view>

#include "compiler/ir/Graph.h"

namespace shardgen {

std::string writeGraph(const Graph &graph);
/// The same text, given to `sink` in pieces as it is printed (a large
/// graph's text is never held whole).
void writeGraph(const Graph &graph, const std::function<void(std::string_view)> &sink);

} // namespace shardgen
