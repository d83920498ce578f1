#include "CommunicatorCache.h"

#include <map>
#include <mutex>
#include <utility>

namespace shardgen::runtime {
namespace {

/// At most this many meshes' communicators are kept (a program has one
/// mesh; more come and go with their programs).
constexpr size_t kMaxCached = 8;

struct Cache {
  std::mutex mutex;
  std::map<MeshKey, std::unique_ptr<MpiCommunicator>> entries;
  bool freedAtFinalize = false; // the MPI_COMM_SELF attribute is set
};

/// Never destroyed: a static destructor would free communicators after
/// MPI_Finalize.
Cache &cache() {
  static Cache *instance = new Cache;
  return *instance;
}

int freeAtFinalize(MPI_Comm, int, void *, void *) {
  std::lock_guard lock(cache().mutex);
  cache().entries.clear();
  return MPI_SUCCESS;
}

} // namespace

MeshKey meshKey(const DeviceMesh &mesh, int ranks) {
  MeshKey key;
  for (const MeshAxis &axis : mesh.axes())
    key.push_back(axis.size);
  key.push_back(-1); // the axes end here
  for (int rank = 0; rank < ranks; ++rank)
    key.push_back(mesh.positionOfDevice(rank));
  return key;
}

std::unique_ptr<MpiCommunicator> takeCommunicator(const MeshKey &key) {
  {
    std::lock_guard lock(cache().mutex);
    auto found = cache().entries.find(key);
    if (found != cache().entries.end()) {
      std::unique_ptr<MpiCommunicator> communicator = std::move(found->second);
      cache().entries.erase(found);
      return communicator;
    }
  }
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // Ranks are device ids; the communicator numbers ranks by mesh position,
  // which collectives' groups are defined over.
  const int64_t position = key[key.size() - static_cast<size_t>(ranks) + rank];
  MPI_Comm byPosition;
  MPI_Comm_split(MPI_COMM_WORLD, 0, static_cast<int>(position), &byPosition);
  auto communicator = std::make_unique<MpiCommunicator>(byPosition); // keeps its own duplicate
  MPI_Comm_free(&byPosition);
  return communicator;
}

void returnCommunicator(const MeshKey &key, std::unique_ptr<MpiCommunicator> communicator) {
  communicator->setProgress(nullptr);
  std::lock_guard lock(cache().mutex);
  Cache &kept = cache();
  if (!kept.freedAtFinalize) {
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, freeAtFinalize, &keyval, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
    kept.freedAtFinalize = true;
  }
  // Every rank launches the same meshes in the same order, so every rank
  // drops the same communicators here.
  if (kept.entries.size() >= kMaxCached && !kept.entries.contains(key))
    kept.entries.clear();
  kept.entries[key] = std::move(communicator);
}

} // namespace shardgen::runtime
