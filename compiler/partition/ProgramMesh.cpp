#include "compiler/partition/ProgramMesh.h"

#include <type_traits>

#include "compiler/ir/Diagnostic.h"

namespace shardgen {
namespace {

class MeshCollector {
public:
  explicit MeshCollector(const Graph &graph) : graph_(graph) {}

  void visitRegion(const Region &region) {
    for (const auto &arg : region.args) {
      visit(arg.sharding, joinPointer(arg.pointer, "sharding"));
      visit(arg.distribution, joinPointer(arg.pointer, "distribution"));
    }
    for (const auto &op : region.ops)
      visitOp(op);
    for (const auto &result : region.results) {
      visit(result.sharding, joinPointer(result.pointer, "sharding"));
      visit(result.distribution, joinPointer(result.pointer, "distribution"));
    }
  }

  const Mesh *found() const { return found_; }

private:
  void visitOp(const Op &op) {
    for (size_t i = 0; i < op.shardings.size(); ++i)
      visit(op.shardings[i], op.pluralResults ? joinPointer(joinPointer(op.pointer, "shardings"), i)
                                              : joinPointer(op.pointer, "sharding"));
    for (size_t i = 0; i < op.distributions.size(); ++i)
      visit(op.distributions[i], op.pluralResults
                                     ? joinPointer(joinPointer(op.pointer, "distributions"), i)
                                     : joinPointer(op.pointer, "distribution"));
    if (op.kind == OpKind::ManualComputation) {
      const auto &attrs = op.attr<ManualComputationAttrs>();
      for (size_t i = 0; i < attrs.inShardings.size(); ++i)
        visit(attrs.inShardings[i], joinPointer(joinPointer(op.pointer, "in_shardings"), i));
      for (size_t i = 0; i < attrs.outShardings.size(); ++i)
        visit(attrs.outShardings[i], joinPointer(joinPointer(op.pointer, "out_shardings"), i));
      if (const Region *body = op.body())
        visitRegion(*body);
    }
  }

  /// A sharding's or a distribution's mesh.
  void visit(const TensorSharding &sharding, const std::string &pointer) {
    visit(std::optional<TensorSharding>(sharding), pointer);
  }

  /// `layout`: an optional (or boxed optional) sharding or distribution.
  template <typename OptionalLayout>
  void visit(const OptionalLayout &layout, const std::string &pointer) {
    if (!layout)
      return;
    const Mesh *mesh = graph_.findMesh(layout->meshName);
    if (!mesh || mesh->numDevices() <= 1)
      return;
    if (!found_) {
      found_ = mesh;
      return;
    }
    if (mesh != found_)
      fail(pointer, std::is_same_v<std::decay_t<decltype(*layout)>, TensorSharding>
                        ? "all shardings of a program to run must use one mesh: this sharding "
                          "uses @" +
                              mesh->name + ", an earlier one @" + found_->name
                        : "all shardings and distributions of a program to run must use one "
                          "mesh: this distribution uses @" +
                              mesh->name + ", an earlier one @" + found_->name);
  }

  const Graph &graph_;
  const Mesh *found_ = nullptr;
};

} // namespace

Mesh programMesh(const Graph &graph) {
  MeshCollector collector(graph);
  collector.visitRegion(graph.main);
  if (collector.found())
    return *collector.found();
  if (!graph.meshes.empty())
    return graph.meshes.front();
  return Mesh{};
}

} // namespace shardgen
