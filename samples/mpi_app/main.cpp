// Runs the mlp program (samples/mlp.json; or the program the build names in
// SHARDGEN_PROGRAM) compiled with `shardgen compile --backend mpi`, under
// `mpirun -np 4`, in both MPI call styles:
//  - runRank: rank 0 holds the whole inputs and receives the whole outputs;
//  - runRankShards: every rank makes only its own pieces of the inputs (from
//    the header's inputPiece) and keeps its pieces of the outputs.
// Inputs are deterministic; element k (row-major) of input i is
// ((7k + 3i) mod 11 - 5) / 4 (the program's inputs must be f32; its outputs
// may be of any type but not unreduced).
//
//   mpi_app                      rank 0 prints output 0
//   mpi_app --write-inputs DIR   rank 0 also writes the inputs as DIR/in<i>.npy
//   mpi_app --compare DIR        exits 1 unless both styles' outputs equal
//                                DIR/out<j>.npy (e.g. `shardgen run --inputs ...
//                                -o DIR`) bit for bit: rank 0's whole outputs and
//                                every rank's pieces
//   mpi_app --check-errors       null buffers on one rank: every rank must get
//                                std::invalid_argument (none hangs or aborts)

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "shardgen/runtime.h"
#include SHARDGEN_PROGRAM_HEADER
#include "SampleNpy.h"

namespace program = SHARDGEN_PROGRAM;

namespace {

using Bytes = std::vector<unsigned char>;

/// The f32 value of element `index` of input `input`.
float inputValue(int64_t input, int64_t index) {
  return static_cast<float>((index * 7 + input * 3) % 11 - 5) / 4.0f;
}

/// The global row-major index of element `k` of a piece.
int64_t globalIndex(const program::Layout &layout, const program::Piece &piece, int64_t k) {
  int64_t index = 0, rest = k;
  std::vector<int64_t> local(static_cast<size_t>(layout.rank));
  for (int64_t d = layout.rank - 1; d >= 0; --d) {
    local[d] = rest % piece.shape[d];
    rest /= piece.shape[d];
  }
  for (int64_t d = 0; d < layout.rank; ++d)
    index = index * layout.shape[d] + piece.offset[d] + local[d];
  return index;
}

Bytes floats(const std::vector<float> &values) {
  Bytes bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

Bytes wholeInput(int64_t i) {
  std::vector<float> values(program::kInputs[i].numElements);
  for (size_t k = 0; k < values.size(); ++k)
    values[k] = inputValue(i, static_cast<int64_t>(k));
  return floats(values);
}

Bytes inputPieceOf(int64_t i, int64_t position) {
  program::Piece piece = program::inputPiece(i, position);
  std::vector<float> values(piece.numElements);
  for (int64_t k = 0; k < piece.numElements; ++k)
    values[k] = inputValue(i, globalIndex(program::kInputLayouts[i], piece, k));
  return floats(values);
}

int64_t elementBytes(const program::TensorInfo &info) {
  return shardgen::runtime::elementBytes(info.elementType);
}

/// The bytes of `piece` cut out of a whole row-major tensor.
Bytes cutPiece(const program::Layout &layout, const program::Piece &piece, const Bytes &whole,
               int64_t width) {
  Bytes out(static_cast<size_t>(piece.numElements * width));
  for (int64_t k = 0; k < piece.numElements; ++k)
    std::memcpy(&out[k * width], &whole[globalIndex(layout, piece, k) * width], width);
  return out;
}

struct Results {
  std::vector<Bytes> whole;  // runRank's outputs (rank 0)
  std::vector<Bytes> pieces; // runRankShards' outputs (this rank's device)
};

Results runBothStyles(int rank, int64_t position) {
  Results results;
  std::vector<Bytes> wholeInputs, pieceInputs;
  std::vector<const void *> in, inPieces;
  std::vector<void *> out, outPieces;
  for (int64_t i = 0; i < program::kNumInputs; ++i) {
    wholeInputs.push_back(rank == 0 ? wholeInput(i) : Bytes());
    pieceInputs.push_back(inputPieceOf(i, position));
  }
  for (int64_t j = 0; j < program::kNumOutputs; ++j) {
    int64_t width = elementBytes(program::kOutputs[j]);
    results.whole.emplace_back(rank == 0 ? program::kOutputs[j].numElements * width : 0);
    results.pieces.emplace_back(program::outputPiece(j, position).numElements * width);
  }
  for (int64_t i = 0; i < program::kNumInputs; ++i) {
    in.push_back(wholeInputs[i].data());
    inPieces.push_back(pieceInputs[i].data());
  }
  for (int64_t j = 0; j < program::kNumOutputs; ++j) {
    out.push_back(results.whole[j].data());
    outPieces.push_back(results.pieces[j].data());
  }
  program::runRank(in.data(), out.data());
  program::runRankShards(inPieces.data(), outPieces.data());
  return results;
}

/// Mismatches of both styles' outputs against DIR/out<j>.npy.
int compare(const std::string &dir, int rank, int64_t position, const Results &results) {
  int mismatches = 0;
  for (int64_t j = 0; j < program::kNumOutputs; ++j) {
    const program::TensorInfo &info = program::kOutputs[j];
    int64_t width = elementBytes(info);
    Bytes expected =
        sample::readNpy(dir + "/out" + std::to_string(j) + ".npy", info.numElements * width);
    if (expected.size() != static_cast<size_t>(info.numElements * width)) {
      std::printf("rank %d: cannot read %s/out%lld.npy\n", rank, dir.c_str(), (long long)j);
      return 1;
    }
    if (rank == 0 && results.whole[j] != expected) {
      std::printf("rank 0: runRank's output %lld (%s) differs from %s\n", (long long)j, info.name,
                  dir.c_str());
      ++mismatches;
    }
    program::Piece piece = program::outputPiece(j, position);
    if (results.pieces[j] != cutPiece(program::kOutputLayouts[j], piece, expected, width)) {
      std::printf("rank %d: runRankShards' piece of output %lld (%s) differs from %s\n", rank,
                  (long long)j, info.name, dir.c_str());
      ++mismatches;
    }
  }
  return mismatches;
}

/// Each call style with a null buffer on one rank must throw on every rank.
int checkErrors(int rank, int64_t position) {
  int failures = 0;
  std::vector<Bytes> pieces;
  std::vector<const void *> in;
  std::vector<void *> out;
  for (int64_t i = 0; i < program::kNumInputs; ++i)
    pieces.push_back(inputPieceOf(i, position));
  for (auto &piece : pieces)
    in.push_back(piece.data());
  std::vector<Bytes> outPieces;
  for (int64_t j = 0; j < program::kNumOutputs; ++j)
    outPieces.emplace_back(program::outputPiece(j, position).numElements *
                           elementBytes(program::kOutputs[j]));
  for (auto &piece : outPieces)
    out.push_back(piece.data());
  auto expectThrow = [&](const char *what, auto call) {
    try {
      call();
      std::printf("rank %d: %s did not throw\n", rank, what);
      ++failures;
    } catch (const std::invalid_argument &error) {
      if (rank == 0 || std::strstr(error.what(), "is null"))
        std::printf("rank %d: %s: %s\n", rank, what, error.what());
    }
  };
  // Rank 0 has no inputs for runRank; rank 1 a null output piece.
  expectThrow("runRank", [&] { program::runRank(nullptr, out.data()); });
  std::vector<void *> broken = out;
  if (rank == 1)
    broken[0] = nullptr;
  expectThrow("runRankShards", [&] { program::runRankShards(in.data(), broken.data()); });
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int64_t position = program::devicePosition(rank);
  std::string mode = argc > 1 ? argv[1] : "";
  int failures = 0;
  try {
    if (mode == "--check-errors") {
      failures = checkErrors(rank, position);
    } else {
      Results results = runBothStyles(rank, position);
      if (mode == "--write-inputs" && rank == 0 && argc > 2)
        for (int64_t i = 0; i < program::kNumInputs; ++i) {
          Bytes input = wholeInput(i);
          sample::writeNpy(std::string(argv[2]) + "/in" + std::to_string(i) + ".npy",
                           program::kInputs[i].shape, program::kInputs[i].rank, input.data(),
                           input.size());
        }
      if (mode == "--compare" && argc > 2)
        failures = compare(argv[2], rank, position, results);
      if (mode != "--compare" && rank == 0) {
        std::vector<float> y(program::kOutputs[0].numElements);
        std::memcpy(y.data(), results.whole[0].data(), results.whole[0].size());
        std::printf("%s: %s on %lld ranks\n", program::kOutputs[0].name, program::kOutputs[0].type,
                    static_cast<long long>(program::kNumDevices));
        for (size_t k = 0; k < y.size(); ++k)
          std::printf("%.6g%c", y[k], (k + 1) % 8 == 0 ? '\n' : ' ');
      }
    }
  } catch (const std::exception &error) {
    std::printf("rank %d: %s\n", rank, error.what());
    failures = 1;
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && mode == "--compare" && total == 0)
    std::printf("match: every output equals %s bit for bit (runRank on rank 0, runRankShards on "
                "all %lld ranks)\n",
                argv[2], static_cast<long long>(program::kNumDevices));
  if (rank == 0 && mode == "--check-errors" && total == 0)
    std::printf("errors: every rank threw std::invalid_argument\n");
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
