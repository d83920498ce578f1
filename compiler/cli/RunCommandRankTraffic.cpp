// `run --backend mpi --report`: which collectives cross ranks and the bytes
// leaving each rank, under the manifest's direct-exchange model.

#include <cstdio>
#include <map>
#include <sstream>

#include "compiler/cli/RunCommand.h"
#include "compiler/partition/RankPieces.h"

namespace shardgen::cli {
namespace {

/// A device's coordinates with the listed (sub-)axes' parts zeroed: devices
/// with the same key are one group.
std::vector<int64_t> groupKey(const Mesh &mesh, const std::vector<AxisRef> &axes,
                              int64_t position) {
  std::vector<int64_t> key = mesh.coordinates(position);
  for (const AxisRef &axis : axes) {
    size_t index = *mesh.axisIndex(axis.name);
    if (!axis.isSubAxis()) {
      key[index] = 0;
      continue;
    }
    // "x":(pre)size sees x as [pre, size, rest]: zero the middle digit.
    int64_t rest = mesh.axes[index].size / (*axis.preSize * *axis.subSize);
    int64_t middle = key[index] / rest % *axis.subSize;
    key[index] -= middle * rest;
  }
  return key;
}

} // namespace

std::string formatRankTraffic(const CommunicationManifest &manifest, const SpmdProgram &program,
                              int64_t ranks) {
  const Mesh &mesh = program.mesh;
  const int64_t devices = mesh.numDevices();
  std::ostringstream out;
  out << "MPI ranks: " << ranks << ", " << devices / ranks << " device(s) each";
  if (devices / ranks > 1)
    out << " (rank r runs mesh positions " << devices / ranks << "r.." << devices / ranks << "r+"
        << devices / ranks - 1 << ": the minor axes)";
  out << "\n";
  std::vector<int64_t> leaving(ranks);
  for (size_t i = 0; i < manifest.collectives.size(); ++i) {
    const CollectiveRecord &record = manifest.collectives[i];
    const SpmdStep &step = record.collective ? *record.collective : program.steps[record.step];
    std::map<std::vector<int64_t>, std::vector<int64_t>> groups;
    for (int64_t position = 0; position < devices; ++position)
      groups[groupKey(mesh, record.axes, position)].push_back(position);
    std::vector<int64_t> stepLeaving(ranks);
    bool crosses = false;
    for (const auto &[key, members] : groups) {
      const auto n = static_cast<int64_t>(members.size());
      for (int64_t member : members)
        crosses = crosses || rankOfPosition(mesh, ranks, member) !=
                                 rankOfPosition(mesh, ranks, members.front());
      for (int64_t source : members) {
        int64_t rank = rankOfPosition(mesh, ranks, source), sent = record.traffic[source].sent;
        if (record.kind == StepKind::CollectivePermute) {
          for (const auto &[from, to] : step.pairs)
            if (from == source && rankOfPosition(mesh, ranks, to) != rank)
              stepLeaving[rank] += sent;
          continue;
        }
        int64_t offRank = 0; // the members another rank runs: an equal share each
        for (int64_t member : members)
          offRank += rankOfPosition(mesh, ranks, member) != rank;
        if (n > 1)
          stepLeaving[rank] += sent / (n - 1) * offRank;
      }
    }
    char head[64];
    std::snprintf(head, sizeof head, "%3zu  ", i + 1);
    out << head
        << (crosses ? "crosses ranks (MPI), bytes leaving each rank:"
                    : "inside ranks (shared memory)");
    for (int64_t r = 0; r < ranks; ++r) {
      leaving[r] += stepLeaving[r];
      if (crosses)
        out << "  r" << r << ": " << stepLeaving[r];
    }
    out << "\n";
  }
  out << "bytes leaving each rank in all:";
  for (int64_t r = 0; r < ranks; ++r)
    out << "  r" << r << ": " << leaving[r];
  out << "\n";
  return out.str();
}

} // namespace shardgen::cli
