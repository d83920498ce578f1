#include "Graph.h"

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/pipeline/Pipeline.h"

namespace shardgen::python {

namespace {

// JSON texts up to this size are kept to place errors at a line and column;
// a larger graph's errors have pointers only.
constexpr size_t kMaxKeptJsonBytes = size_t(16) << 20;

} // namespace

std::shared_ptr<GraphHandle> GraphHandle::read(GraphText &text, const std::string &label,
                                               const std::string &mlirFunction) {
  std::shared_ptr<GraphHandle> handle(new GraphHandle());
  handle->label_ = label;
  bool mlir = driver::isMlirSource(label, text.view());
  if (!mlir && text.view().size() <= kMaxKeptJsonBytes)
    handle->jsonText_ = std::make_shared<const std::string>(text.view());
  try {
    driver::GraphSource source = driver::readGraphSource(text, label, mlirFunction);
    handle->read_ = std::make_shared<const Graph>(std::move(source.graph));
    handle->places_ = std::move(source.places);
  } catch (const GraphError &error) {
    // An MLIR error before the import finished is placed by its "line:col".
    throw handle->placedError(error.pointer(), error.what());
  }
  return handle;
}

std::shared_ptr<GraphHandle> GraphHandle::withMeshSizes(const driver::MeshSizes &sizes) const {
  std::shared_ptr<GraphHandle> handle(new GraphHandle());
  handle->label_ = label_;
  handle->read_ = read_;
  handle->places_ = places_;
  handle->jsonText_ = jsonText_;
  handle->meshSizes_ = meshSizes_;
  for (const auto &[name, size] : sizes) {
    bool replaced = false;
    for (auto &[known, knownSize] : handle->meshSizes_)
      if (known == name)
        knownSize = size, replaced = true;
    if (!replaced)
      handle->meshSizes_.emplace_back(name, size);
  }
  Graph probe = read_->clone(); // an unknown axis or a size out of range fails here
  driver::applyMeshSizes(probe, handle->meshSizes_);
  return handle;
}

std::shared_ptr<GraphHandle> GraphHandle::withGraph(const Graph &propagated) const {
  std::shared_ptr<GraphHandle> handle(new GraphHandle());
  handle->label_ = label_;
  handle->places_ = places_;
  handle->jsonText_ = jsonText_;
  // Through its text: the graph as `shardgen propagate` writes it, read back
  // unverified like any other.
  handle->read_ = std::make_shared<const Graph>(
      placed([&] { return readGraph(std::string_view(writeGraph(propagated))); }));
  return handle;
}

const Graph &GraphHandle::verified() const {
  std::lock_guard lock(mutex_);
  if (!verified_)
    verified_ = std::make_unique<Graph>(verifiedCopy());
  return *verified_;
}

Graph GraphHandle::verifiedCopy() const {
  Graph graph = read_->clone();
  driver::applyMeshSizes(graph, meshSizes_);
  try {
    placed([&] { pipeline::Pipeline().verify(graph); });
  } catch (PlacedGraphError &error) {
    if (meshSizes_.empty())
      throw;
    std::string message = error.message + " (with mesh " + driver::meshSizesText(meshSizes_) + ")";
    throw PlacedGraphError(error.file, error.pointer, error.place, error.line, error.column,
                           message);
  }
  return graph;
}

PlacedGraphError GraphHandle::placedError(const std::string &pointer,
                                          const std::string &message) const {
  driver::ErrorPlace place =
      driver::placeOfError(places_.get(), pointer, message,
                           jsonText_ ? std::string_view(*jsonText_) : std::string_view());
  return PlacedGraphError(label_, pointer, place.place, place.line, place.column, place.message);
}

} // namespace shardgen::python
