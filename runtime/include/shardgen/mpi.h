#pragma once
// The MPI backend: the mesh's devices spread over the MPI ranks, with the
// same collective API and semantics as the threads backend. Build target:
// shardgen_runtime_mpi.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "shardgen/distribution.h"
#include "shardgen/launch.h"

namespace shardgen::runtime {

/// Runs this rank's devices of `mesh`. The ranks of MPI_COMM_WORLD must
/// divide mesh.numDevices(): with as many ranks as devices, rank r runs the
/// device whose id is r; with fewer (ranks x threads), rank r runs the
/// mesh positions [r L, (r + 1) L) (L = devices / ranks, so the minor mesh
/// axes stay inside a rank) as threads, and collectives whose groups lie
/// inside a rank use shared memory only. MPI is initialized here if the
/// application has not done it (finalizeMpi() then finalizes it). When a
/// device throws on one rank of several, its peers may be blocked in
/// collectives MPI cannot cancel: the message ("shardgen: rank R: device D
/// failed: ...") goes to stderr and MPI_Abort ends every rank with exit
/// status 1. With one rank, the devices are threads and the error (or the
/// RunTimeout of `options`) is rethrown, as launch() does.
void launchMpi(const DeviceMesh &mesh, const DeviceFunction &function);
void launchMpi(const DeviceMesh &mesh, const DeviceFunction &function,
               const LaunchOptions &options);

/// Finalizes MPI if launchMpi or initializeMpi initialized it.
void finalizeMpi();

/// This process in MPI_COMM_WORLD.
struct MpiWorld {
  int rank = 0;
  int size = 1;
};
/// Initializes MPI (MPI_THREAD_MULTIPLE) unless the application did.
MpiWorld initializeMpi();

/// Host helpers for a program whose rank 0 holds the global tensors (any
/// size; pieces beyond MPI's int counts are sent one after another).
/// Rank 0's `bytes` at `data` overwrite every other rank's.
void broadcastFromRoot(void *data, int64_t bytes);
/// A scatter of pieces: rank 0's `global` tensor (row-major, `shape`,
/// `elementBytes` per element) sends rank r the boxes `boxesOf[r]` (what
/// its devices read), which land at the same places of rank r's `global`
/// (the rest is left as it is). Rank 0 keeps its tensor. Every rank passes
/// the same boxes; throws std::length_error beyond 2 GiB for one rank.
void scatterBoxesFromRoot(void *global, const std::vector<int64_t> &shape, int64_t elementBytes,
                          const std::vector<std::vector<ShardBox>> &boxesOf);
/// Rank 0 receives the bitwise or of every rank's `bytes` at `data`: global
/// outputs whose bytes each rank wrote only where its devices own the piece
/// (zero elsewhere) arrive on rank 0 bit for bit.
void mergeDisjointToRoot(void *data, int64_t bytes);

/// Ends every rank (exit status 1) after printing "shardgen: rank R:
/// MESSAGE (aborting every rank)" to stderr (before MPI is initialized or
/// after it is finalized, by ending this process: mpirun ends the others).
[[noreturn]] void abortMpiJob(const std::string &message);

/// A time limit on this rank's waits for its peers outside the devices'
/// collectives (those have launchMpi's watchdog): MPI_Init, communicators
/// being set up, a host's own collectives, MPI_Finalize. A call made
/// through waitIn that outlasts `seconds` ends the job (abortMpiJob) with
/// "the run did not finish within the timeout of S s: this rank waits in
/// WHAT for a peer rank that is stopped, lost or slower": MPI cannot cancel
/// a call a stopped or unreachable peer never completes. 0 seconds: no
/// limit (and no thread).
class RankWatchdog {
public:
  explicit RankWatchdog(double seconds);
  ~RankWatchdog();
  RankWatchdog(const RankWatchdog &) = delete;
  RankWatchdog &operator=(const RankWatchdog &) = delete;

  /// Runs `call`, a wait for other ranks named `what` (a string literal).
  void waitIn(const char *what, const std::function<void()> &call);

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace shardgen::runtime
