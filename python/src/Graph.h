#pragma once
// shardgen.Graph: a graph as read from JSON or MLIR text, verified on first
// need (once: several Python threads may ask), with what places its errors
// in that text.

#include <memory>
#include <mutex>
#include <string>

#include "Errors.h"
#include "compiler/driver/GraphSource.h"
#include "compiler/driver/MeshSizes.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/Graph.h"

namespace shardgen::python {

class GraphHandle {
public:
  /// Reads `text` named `label` (a path, or "<string>") as JSON or MLIR.
  /// Throws PlacedGraphError.
  static std::shared_ptr<GraphHandle> read(GraphText &text, const std::string &label,
                                           const std::string &mlirFunction);
  /// The same graph with new mesh axis sizes (verified when needed).
  std::shared_ptr<GraphHandle> withMeshSizes(const driver::MeshSizes &sizes) const;
  /// The graph `propagated` (written by applyPropagation), placing its
  /// errors as this one's: its ops are this graph's ops.
  std::shared_ptr<GraphHandle> withGraph(const Graph &propagated) const;

  const std::string &label() const { return label_; }
  /// As read: not verified.
  const Graph &read() const { return *read_; }
  /// Verified (the first call verifies; throws PlacedGraphError).
  const Graph &verified() const;
  /// A verified copy of its own (the passes write into it).
  Graph verifiedCopy() const;

  /// Runs `work`, turning a GraphError into a PlacedGraphError of this source.
  template <typename Work> auto placed(Work &&work) const -> decltype(work()) {
    try {
      return work();
    } catch (const GraphError &error) {
      throw placedError(error.pointer(), error.what());
    }
  }
  PlacedGraphError placedError(const std::string &pointer, const std::string &message) const;

private:
  GraphHandle() = default;

  std::string label_;
  std::shared_ptr<const Graph> read_;
  std::shared_ptr<const mlir::SourcePlaces> places_; // MLIR text only
  std::shared_ptr<const std::string> jsonText_;      // small JSON text only: lines and columns
  driver::MeshSizes meshSizes_;                      // applied before verifying
  mutable std::mutex mutex_;
  mutable std::unique_ptr<Graph> verified_;
};

} // namespace shardgen::python
