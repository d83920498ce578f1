#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "CommunicatorCache.h"
#include "DeviceProgress.h"
#include "DeviceThreads.h"
#include "HybridCommunicator.h"
#include "MpiCommunicator.h"
#include "shardgen/mpi.h"

namespace shardgen::runtime {
namespace {

bool initializedHere = false;

/// MPI_Abort, bounded: it waits for mpirun to end the job, which a peer
/// that cannot be reached (a cut network) keeps from happening. This
/// process then ends by itself after a few seconds; mpirun's launcher
/// (shardgen run) ends the rest.
[[noreturn]] void abortWorld() {
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    std::_Exit(1);
  }).detach();
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort(); // MPI_Abort does not return
}

MpiWorld ensureInitialized(int threadLevel) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, threadLevel, &provided);
    initializedHere = true;
  }
  MpiWorld world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  return world;
}

/// Peers may be blocked in a collective this rank's devices will never
/// enter: MPI cannot cancel them, so the whole job ends with this error.
[[noreturn]] void abortEveryRank(int rank, int64_t deviceId, const std::exception_ptr &error) {
  std::string message;
  try {
    std::rethrow_exception(error);
  } catch (const std::exception &exception) {
    message = exception.what();
  } catch (...) {
    message = "unknown exception";
  }
  if (deviceId < 0) // the watchdog's timeout
    std::fprintf(stderr, "shardgen: rank %d: %s (aborting every rank)\n", rank, message.c_str());
  else
    std::fprintf(stderr, "shardgen: rank %d: device %lld failed: %s (aborting every rank)\n", rank,
                 static_cast<long long>(deviceId), message.c_str());
  std::fflush(stderr);
  abortWorld();
}

/// The device whose exception `error` is: a RunTimeout names no device.
int64_t failedDevice(const DeviceMesh &mesh, const std::vector<int64_t> &positions,
                     const std::exception_ptr &error, int64_t failedPosition) {
  try {
    std::rethrow_exception(error);
  } catch (const RunTimeout &) {
    return -1;
  } catch (...) {
    return mesh.deviceId(failedPosition >= 0 ? failedPosition : positions.front());
  }
}

} // namespace

MpiWorld initializeMpi() { return ensureInitialized(MPI_THREAD_MULTIPLE); }

void launchMpi(const DeviceMesh &mesh, const DeviceFunction &function) {
  launchMpi(mesh, function, LaunchOptions{});
}

void launchMpi(const DeviceMesh &mesh, const DeviceFunction &function,
               const LaunchOptions &options) {
  // The devices of a rank are threads; only the first (this thread) calls MPI.
  const MpiWorld world = ensureInitialized(MPI_THREAD_FUNNELED);
  const int64_t numDevices = mesh.numDevices();
  if (numDevices % world.size != 0)
    throw std::invalid_argument("the mesh has " + std::to_string(numDevices) +
                                " devices but MPI runs " + std::to_string(world.size) +
                                " ranks, which do not divide them (use mpirun -np N with N "
                                "dividing " +
                                std::to_string(numDevices) + ")");
  if (world.size == 1)
    return launch(mesh, function, options); // every device is a thread here
  const int64_t devicesPerRank = numDevices / world.size;
  std::vector<int64_t> positions, deviceIds;
  if (devicesPerRank == 1) { // rank r runs the device with id r
    positions.push_back(mesh.positionOfDevice(world.rank));
  } else { // rank r runs positions [r L, (r + 1) L): the minor axes
    for (int64_t k = 0; k < devicesPerRank; ++k)
      positions.push_back(world.rank * devicesPerRank + k);
  }
  for (int64_t position : positions)
    deviceIds.push_back(mesh.deviceId(position));
  DeviceProgress progress(deviceIds, positions.front());

  // Which device failed first: set by the device function wrapper below.
  std::atomic<int64_t> failedPosition{-1};
  DeviceFunction tracked = [&](const DeviceContext &device) {
    try {
      function(device);
    } catch (const PeerFailure &) {
      throw;
    } catch (...) {
      int64_t none = -1;
      failedPosition.compare_exchange_strong(none, device.position);
      throw;
    }
  };
  auto fail = [&](const std::exception_ptr &error) {
    abortEveryRank(world.rank, failedDevice(mesh, positions, error, failedPosition.load()), error);
  };
  // Setting up communicators is collective: a stopped or lost peer would
  // keep this rank there, before the devices' own watchdog starts.
  RankWatchdog setup(options.timeoutSeconds);
  if (devicesPerRank == 1) {
    const MeshKey key = meshKey(mesh, world.size);
    std::unique_ptr<MpiCommunicator> communicator;
    setup.waitIn("MPI_Comm_split (setting up the devices' communicator)",
                 [&] { communicator = takeCommunicator(key); });
    communicator->setProgress(&progress);
    runDeviceThreads(mesh, positions, *communicator, progress, tracked, options, fail);
    returnCommunicator(key, std::move(communicator));
    return;
  }
  std::unique_ptr<HybridCommunicator> communicator;
  setup.waitIn("MPI_Comm_dup (setting up the devices' communicator)", [&] {
    communicator =
        std::make_unique<HybridCommunicator>(mesh, MPI_COMM_WORLD, devicesPerRank, progress);
  });
  runDeviceThreads(mesh, positions, *communicator, progress, tracked, options, fail);
}

void broadcastFromRoot(void *data, int64_t bytes) {
  auto *at = static_cast<unsigned char *>(data);
  for (int64_t done = 0; done < bytes;) {
    int piece = static_cast<int>(std::min<int64_t>(bytes - done, INT_MAX));
    MPI_Bcast(at + done, piece, MPI_BYTE, 0, MPI_COMM_WORLD);
    done += piece;
  }
}

void mergeDisjointToRoot(void *data, int64_t bytes) {
  auto *at = static_cast<unsigned char *>(data);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int64_t done = 0; done < bytes;) {
    int piece = static_cast<int>(std::min<int64_t>(bytes - done, INT_MAX));
    // Every byte is written by one rank and zero elsewhere: OR keeps its bits.
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : at + done, at + done, piece, MPI_UNSIGNED_CHAR, MPI_BOR,
               0, MPI_COMM_WORLD);
    done += piece;
  }
}

[[noreturn]] void abortMpiJob(const std::string &message) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    // No MPI to abort with (still starting, or done): this process ends,
    // and mpirun ends the job when a rank exits with an error.
    const char *rank = std::getenv("OMPI_COMM_WORLD_RANK");
    if (!rank)
      rank = std::getenv("PMIX_RANK");
    std::fprintf(stderr, "shardgen: rank %s: %s (aborting every rank)\n", rank ? rank : "?",
                 message.c_str());
    std::fflush(stderr);
    std::_Exit(1);
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "shardgen: rank %d: %s (aborting every rank)\n", rank, message.c_str());
  std::fflush(stderr);
  abortWorld();
}

void finalizeMpi() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initializedHere && !finalized)
    MPI_Finalize();
}

} // namespace shardgen::runtime
