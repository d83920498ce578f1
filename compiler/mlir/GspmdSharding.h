#pragma once
// GSPMD shardings (`mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"`),
// as older JAX and XLA exports carry them, onto one mesh derived from all of
// a module's shardings: its axes are the common refinement of every tiling
// (axis_0, axis_1, ... major to minor), its device_ids the shared device
// order. Each tile dimension becomes the run of axes it spans.

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/Sharding.h"
#include "compiler/ir/TextScanner.h"

namespace shardgen::mlir {

class GspmdMesh {
public:
  /// Adds one sharding's tiling; false with `error` set when it cannot be read.
  bool add(const std::string &text, std::string *error);
  /// Derives the mesh named `name`; false with `error` set when the
  /// tilings have no common refinement or disagree on the device order.
  bool derive(const std::string &name, std::string *error);
  bool empty() const { return tilings_.empty(); }
  const Mesh &mesh() const { return mesh_; }
  /// The sharding of a rank-`rank` tensor on the derived mesh; a
  /// `{maximal device=N}` sharding needs a maximal mesh, appended to
  /// `meshes` when new.
  std::optional<TensorSharding> convert(const std::string &text, int64_t rank,
                                        std::vector<Mesh> &meshes, std::string *error) const;

private:
  struct Tiling {
    std::vector<int64_t> dims; // tile dims, the replicated last dim included
    bool lastReplicated = false;
    std::vector<int64_t> devices; // flattened device order
    bool replicated = false;
    std::optional<int64_t> maximalDevice;
  };
  static std::optional<Tiling> parse(const std::string &text, std::string *error);
  /// After `devices`: the tile dims, the device ids (listed or as an iota)
  /// and the replication. False with `*error` set for an impossible tiling,
  /// false with `*error` empty for text the scanner refused.
  static bool parseDevices(TextScanner &s, Tiling &tiling, std::string *error);
  /// After the tile dims: `<=[dims]` with an optional `T(perm)`.
  static bool parseIotaDevices(TextScanner &s, int64_t total, Tiling &tiling, std::string *error);

  std::vector<Tiling> tilings_;
  Mesh mesh_;
};

} // namespace shardgen::mlir
