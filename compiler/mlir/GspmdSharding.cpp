#include "compiler/mlir/GspmdSharding.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "compiler/ir/TextScanner.h"

namespace shardgen::mlir {

namespace {

bool numberList(TextScanner &s, std::vector<int64_t> &out) {
  return s.delimitedList('[', ']', [&] {
    int64_t value = 0;
    if (!s.integer(value))
      return false;
    out.push_back(value);
    return true;
  });
}

/// iota(dims) transposed by `perm`, flattened row-major.
std::vector<int64_t> transposedIota(const std::vector<int64_t> &dims,
                                    const std::vector<int64_t> &perm) {
  int64_t total = 1;
  for (int64_t d : dims)
    total *= d;
  std::vector<int64_t> outDims;
  for (int64_t p : perm)
    outDims.push_back(dims[p]);
  std::vector<int64_t> result(total);
  std::vector<int64_t> index(dims.size(), 0); // over outDims
  for (int64_t flat = 0; flat < total; ++flat) {
    std::vector<int64_t> source(dims.size());
    for (size_t j = 0; j < perm.size(); ++j)
      source[perm[j]] = index[j];
    int64_t value = 0;
    for (size_t k = 0; k < dims.size(); ++k)
      value = value * dims[k] + source[k];
    result[flat] = value;
    for (int64_t k = static_cast<int64_t>(outDims.size()) - 1; k >= 0; --k) {
      if (++index[k] < outDims[k])
        break;
      index[k] = 0;
    }
  }
  return result;
}

constexpr int64_t kMaxDevices = int64_t(1) << 20;

} // namespace

std::optional<GspmdMesh::Tiling> GspmdMesh::parse(const std::string &text, std::string *error) {
  TextScanner s(text);
  Tiling tiling;
  bool ok = s.expect('{');
  if (ok && s.consume("replicated")) {
    tiling.replicated = true;
  } else if (ok && s.consume("maximal")) {
    int64_t device = 0;
    ok = s.expect("device") && s.expect('=') && s.integer(device);
    tiling.maximalDevice = device;
  } else if (ok && s.consume("manual")) {
    ok =
        s.fail("manual shardings (GSPMD manual partitioning) are not supported: lower with Shardy");
  } else if (ok && s.consume("devices")) {
    std::string impossible;
    ok = parseDevices(s, tiling, &impossible);
    if (!impossible.empty())
      return *error = impossible, std::nullopt;
  } else if (ok) {
    ok = s.fail("expected replicated, maximal or devices=");
  }
  if (ok && s.consume("metadata")) { // op_name/source info: skip the braces
    int depth = 0;
    while (s.current() != '\0' && !(depth == 1 && s.current() == '}')) {
      depth += s.current() == '{' ? 1 : s.current() == '}' ? -1 : 0;
      s.advance();
    }
    ok = s.expect('}');
  }
  ok = ok && s.expect('}');
  if (ok && !s.atEnd())
    ok = s.fail("unexpected text (tuple shardings and manual shardings are not supported)");
  if (!ok) {
    *error = "cannot read \"" + text + "\": " + s.error();
    return std::nullopt;
  }
  return tiling;
}

bool GspmdMesh::parseDevices(TextScanner &s, Tiling &tiling, std::string *error) {
  bool ok = s.expect('=') && numberList(s, tiling.dims);
  int64_t total = 1;
  for (int64_t d : tiling.dims) {
    if (d < 1 || d > kMaxDevices || total * d > kMaxDevices)
      return *error = "tile dimensions must be positive and at most 2^20 devices in all", false;
    total *= d;
  }
  if (ok && s.consume("<=")) {
    ok = parseIotaDevices(s, total, tiling, error);
  } else if (ok) {
    for (int64_t i = 0; ok && i < total; ++i) {
      s.consume(',');
      int64_t id = 0;
      ok = s.integer(id);
      tiling.devices.push_back(id);
    }
  }
  if (ok && s.consume("last_tile_dim_replicate")) {
    tiling.lastReplicated = true;
  } else if (ok && s.consume("last_tile_dims")) {
    ok = s.expect('=') && s.expect('{') && s.expect("replicated") && s.expect('}');
    tiling.lastReplicated = true;
  }
  if (ok && tiling.lastReplicated && tiling.dims.empty())
    ok = s.fail("last_tile_dim_replicate needs a tile dimension");
  return ok;
}

bool GspmdMesh::parseIotaDevices(TextScanner &s, int64_t total, Tiling &tiling,
                                 std::string *error) {
  std::vector<int64_t> reshape, perm;
  bool ok = numberList(s, reshape);
  int64_t product = 1;
  for (int64_t d : reshape)
    product *= d > 0 && d <= kMaxDevices ? d : kMaxDevices + 1;
  if (ok && product != total)
    return *error = "the device iota's size differs from the tiling's", false;
  if (ok && s.consume('T')) {
    ok = s.delimitedList('(', ')', [&] {
      int64_t p = 0;
      if (!s.integer(p))
        return false;
      perm.push_back(p);
      return true;
    });
    std::vector<int64_t> sortedPerm = perm;
    std::sort(sortedPerm.begin(), sortedPerm.end());
    for (size_t i = 0; ok && i < sortedPerm.size(); ++i)
      ok = sortedPerm[i] == static_cast<int64_t>(i) || s.fail("invalid transpose");
    ok = ok && (perm.size() == reshape.size() || s.fail("transpose rank differs"));
  } else {
    perm.resize(reshape.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  if (ok)
    tiling.devices = transposedIota(reshape, perm);
  return ok;
}

bool GspmdMesh::add(const std::string &text, std::string *error) {
  auto tiling = parse(text, error);
  if (!tiling)
    return false;
  tilings_.push_back(std::move(*tiling));
  return true;
}

bool GspmdMesh::derive(const std::string &name, std::string *error) {
  mesh_ = Mesh{};
  mesh_.name = name;
  std::set<int64_t> cuts{1};
  const std::vector<int64_t> *devices = nullptr;
  for (const auto &tiling : tilings_) {
    if (tiling.dims.empty())
      continue;
    if (devices && *devices != tiling.devices) {
      *error = "the shardings order their devices differently (one derived mesh cannot hold them)";
      return false;
    }
    devices = &tiling.devices;
    int64_t product = 1;
    for (int64_t d : tiling.dims)
      cuts.insert(product *= d);
  }
  if (!devices)
    return true; // replicated or maximal only: a mesh without axes
  int64_t total = static_cast<int64_t>(devices->size());
  if (*cuts.rbegin() != total) {
    *error = "the shardings tile different numbers of devices";
    return false;
  }
  int64_t previous = 1, index = 0;
  for (int64_t cut : cuts) {
    if (cut == 1)
      continue;
    if (cut % previous) {
      *error = "the tilings have no common refinement into mesh axes (" + std::to_string(previous) +
               " does not divide " + std::to_string(cut) + ")";
      return false;
    }
    mesh_.axes.push_back(MeshAxis{"axis_" + std::to_string(index++), cut / previous});
    previous = cut;
  }
  std::vector<int64_t> iota(total);
  std::iota(iota.begin(), iota.end(), 0);
  if (*devices != iota)
    mesh_.deviceIds = *devices;
  return true;
}

std::optional<TensorSharding> GspmdMesh::convert(const std::string &text, int64_t rank,
                                                 std::vector<Mesh> &meshes,
                                                 std::string *error) const {
  auto tiling = parse(text, error);
  if (!tiling)
    return std::nullopt;
  if (tiling->maximalDevice) {
    std::string name = "maximal_mesh_" + std::to_string(*tiling->maximalDevice);
    bool exists = false;
    for (const auto &mesh : meshes)
      exists |= mesh.name == name;
    if (!exists) {
      Mesh mesh;
      mesh.name = name;
      mesh.deviceIds = {*tiling->maximalDevice};
      mesh.pointer = "/meshes/" + std::to_string(meshes.size());
      meshes.push_back(std::move(mesh));
    }
    return TensorSharding::replicatedOn(name, rank);
  }
  TensorSharding sharding = TensorSharding::replicatedOn(mesh_.name, rank);
  if (tiling->replicated)
    return sharding;
  int64_t tensorDims = static_cast<int64_t>(tiling->dims.size()) - (tiling->lastReplicated ? 1 : 0);
  if (tensorDims != rank) {
    *error = "\"" + text + "\" tiles " + std::to_string(tensorDims) + " dims, the tensor has " +
             std::to_string(rank);
    return std::nullopt;
  }
  int64_t lo = 1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t hi = lo * tiling->dims[d];
    int64_t cut = 1;
    for (const auto &axis : mesh_.axes) {
      int64_t next = cut * axis.size;
      if (cut >= lo && next <= hi)
        sharding.dims[d].axes.push_back(AxisRef::full(axis.name));
      cut = next;
    }
    lo = hi;
  }
  return sharding;
}

} // namespace shardgen::mlir
