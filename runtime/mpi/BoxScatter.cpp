// scatterBoxesFromRoot: rank 0 sends each rank the boxes of a global tensor
// its devices read, straight from its tensor into theirs. Each rank's boxes
// are one MPI datatype (a subarray per box) and the whole scatter is one
// MPI_Alltoallw: nothing is packed or unpacked on either side.

#include <mpi.h>

#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "MpiCommunicator.h"
#include "shardgen/mpi.h"

namespace shardgen::runtime {
namespace {

int mpiDim(int64_t size) {
  if (size < 0 || size > INT_MAX)
    throw std::length_error("MPI backend: a dim of " + std::to_string(size) +
                            " elements exceeds MPI's int count");
  return static_cast<int>(size);
}

/// One committed datatype covering `boxes` (at least one, disjoint) of a
/// row-major tensor of `shape` whose elements are `elementBytes` bytes.
MPI_Datatype boxesType(const std::vector<int64_t> &shape, int64_t elementBytes,
                       const std::vector<ShardBox> &boxes) {
  MPI_Datatype element;
  MPI_Type_contiguous(mpiCount(elementBytes), MPI_BYTE, &element);
  std::vector<MPI_Datatype> parts;
  for (const ShardBox &box : boxes) {
    std::vector<int> sizes{1}, extents{1}, starts{0}; // a scalar is a 1-element array
    if (!shape.empty()) {
      sizes.clear(), extents.clear(), starts.clear();
      for (size_t d = 0; d < shape.size(); ++d) {
        sizes.push_back(mpiDim(shape[d]));
        extents.push_back(mpiDim(box.extent[d]));
        starts.push_back(mpiDim(box.offset[d]));
      }
    }
    MPI_Datatype part;
    MPI_Type_create_subarray(static_cast<int>(sizes.size()), sizes.data(), extents.data(),
                             starts.data(), MPI_ORDER_C, element, &part);
    parts.push_back(part);
  }
  MPI_Datatype type = parts.front();
  if (parts.size() > 1) { // every subarray spans the whole tensor: all at displacement 0
    std::vector<int> ones(parts.size(), 1);
    std::vector<MPI_Aint> zeros(parts.size(), 0);
    MPI_Type_create_struct(static_cast<int>(parts.size()), ones.data(), zeros.data(), parts.data(),
                           &type);
    for (MPI_Datatype &part : parts)
      MPI_Type_free(&part);
  }
  MPI_Type_commit(&type);
  MPI_Type_free(&element);
  return type;
}

} // namespace

void scatterBoxesFromRoot(void *global, const std::vector<int64_t> &shape, int64_t elementBytes,
                          const std::vector<std::vector<ShardBox>> &boxesOf) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (static_cast<int>(boxesOf.size()) != size)
    throw std::invalid_argument("scatterBoxesFromRoot: " + std::to_string(boxesOf.size()) +
                                " box lists for " + std::to_string(size) + " ranks");
  for (const std::vector<ShardBox> &boxes : boxesOf) {
    int64_t bytes = 0;
    for (const ShardBox &box : boxes)
      bytes += box.volume() * elementBytes;
    mpiCount(bytes); // at most 2 GiB per rank (MPI's int sizes)
  }
  // Rank 0 keeps its boxes; it sends rank r its boxes, which rank r receives
  // at the same places.
  std::vector<int> sendCounts(size), receiveCounts(size), displacements(size);
  std::vector<MPI_Datatype> sendTypes(size, MPI_BYTE), receiveTypes(size, MPI_BYTE);
  for (int r = 1; r < size; ++r)
    if (!boxesOf[r].empty() && (rank == 0 || rank == r)) {
      MPI_Datatype type = boxesType(shape, elementBytes, boxesOf[r]);
      (rank == 0 ? sendTypes[r] : receiveTypes[0]) = type;
      (rank == 0 ? sendCounts[r] : receiveCounts[0]) = 1;
    }
  MPI_Alltoallw(rank == 0 ? global : nullptr, sendCounts.data(), displacements.data(),
                sendTypes.data(), rank == 0 ? nullptr : global, receiveCounts.data(),
                displacements.data(), receiveTypes.data(), MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) {
    if (sendCounts[r])
      MPI_Type_free(&sendTypes[r]);
    if (receiveCounts[r])
      MPI_Type_free(&receiveTypes[r]);
  }
}

} // namespace shardgen::runtime
