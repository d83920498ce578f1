// Every collective through the MPI backend, run as 4 and as 2 ranks, checked against
// the expectations the threads backend meets (CollectiveCases). Each rank
// checks its own device; the exit status is the worst over all ranks.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include "CollectiveCases.h"
#include "shardgen/mpi.h"

using namespace shardgen::runtime;
using namespace shardgen::runtime::testing;

namespace {

const Launcher kMpi = [](const DeviceMesh &mesh, const DeviceFunction &function) {
  launchMpi(mesh, function);
};

void requireNoFailures(const std::vector<std::string> &failures) {
  for (const std::string &failure : failures)
    MESSAGE(failure);
  CHECK(failures.empty());
}

} // namespace

TEST_CASE("every collective on a 1-D mesh of 4 ranks") {
  requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 4}})));
}

TEST_CASE("every collective on a 2x2 mesh of ranks") {
  requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 2}, {"y", 2}})));
}

TEST_CASE("every collective on a 2x2 mesh with permuted device ids") {
  requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 2}, {"y", 2}}, {2, 0, 3, 1})));
}

// launchMpi keeps a mesh's communicators for its next launch (keyed by the
// axis sizes and every rank's position): meshes of the same ranks but other
// axes or device ids, alternating, must each find their own.
TEST_CASE("meshes launched in turn keep their own communicators") {
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 2}, {"y", 2}})));
    requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 4}})));
    requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 2}, {"y", 2}}, {2, 0, 3, 1})));
  }
}

// Ranks x threads (registered as 4 and as 2 ranks): 8 devices are 2 or 4
// threads per rank; the minor axes stay inside a rank, the major ones cross.
TEST_CASE("every collective on a 2x4 mesh of ranks x threads") {
  requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 2}, {"y", 4}})));
}

TEST_CASE("every collective on a 4x2 mesh of ranks x threads") {
  requireNoFailures(checkEveryCollective(kMpi, DeviceMesh({{"x", 4}, {"y", 2}})));
}

TEST_CASE("every collective on a 2x2x2 mesh of ranks x threads, permuted device ids") {
  requireNoFailures(checkEveryCollective(
      kMpi, DeviceMesh({{"a", 2}, {"b", 2}, {"c", 2}}, {5, 0, 7, 2, 1, 4, 3, 6})));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  doctest::Context context(argc, argv);
  if (rank != 0)
    context.setOption("minimal", true); // only failures from the other ranks
  int result = context.run();
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
