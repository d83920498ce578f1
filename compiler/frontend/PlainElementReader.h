#pragma once
// Reads a graph input or a usual op straight from its text into the IR,
// without a JSON document: the reader's fast path for large graphs. It
// takes only elements it reads exactly as the JSON path does (flat objects
// with the common keys; ops without attributes, dot_general, transpose,
// broadcast_in_dim) and only when they are correct: on anything else it
// returns false having changed nothing, and the JSON path reads the element
// (and reports its errors).

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "compiler/frontend/FlatElementScanner.h"
#include "compiler/frontend/NameTable.h"
#include "compiler/frontend/TypeTextCache.h"
#include "compiler/ir/Graph.h"

namespace shardgen {

class PlainElementReader {
public:
  PlainElementReader(Graph &graph, NameTable &names) : graph_(graph), names_(names) {}

  /// A graph input at `pointer`; on success its name is defined.
  bool readInput(std::string_view text, const std::string &pointer, RegionArgument &input);
  /// An op at `pointer`; on success its result is defined.
  bool readOp(std::string_view text, const std::string &pointer, Op &op);

private:
  bool readAttributes(OpKind kind, Attributes &attrs);
  bool readOptionalType(std::string_view key, UniquedOptional<TensorType> &type);
  bool readOptionalSharding(std::optional<TensorSharding> &sharding);
  /// A name not defined yet (not empty, no escapes), for `key`.
  bool newName(std::string_view key, std::string_view &name) const;
  bool onlyKeys(std::initializer_list<std::string_view> allowed,
                std::span<const std::string_view> moreAllowed = {}) const;

  Graph &graph_;
  NameTable &names_;
  FlatElement element_;
  std::vector<std::string_view> strings_; // reused buffers
  std::string text_;
  TypeTextCache types_;
};

} // namespace shardgen
