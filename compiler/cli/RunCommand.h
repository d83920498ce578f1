#pragma once
// Pieces of `shardgen run` shared by its threads backend and its MPI ranks.

#include <string>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/interp/ResultCheck.h"
#include "compiler/ir/Graph.h"
#include "compiler/ir/Literal.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/SpmdProgram.h"
#include "compiler/propagate/Propagation.h"

namespace shardgen::cli {

/// What `run` needs beyond the graph, read from the command line.
struct RunSettings {
  std::string path;
  PropagationStrategy strategy;
  ToleranceOverride tolerance;
  double timeoutSeconds = 0;
};
RunSettings runSettings(const ParsedArgs &args);

/// `--timeout SECONDS` (run, eval): 0 (the default) is no limit; not a
/// number from 0 to 1e9 is a UsageError.
double timeoutOption(const ParsedArgs &args);

/// --check (exit 3 on a difference) and -o DIR / printing, as every backend
/// ends a run; with `localBuffers` (`--shards`: [output][position]) also
/// writes each device's local buffers into the -o DIR.
int checkAndEmit(const ParsedArgs &args, const RunSettings &settings, const Graph &graph,
                 const SpmdProgram &program, const std::vector<Literal> &inputs,
                 const std::vector<Literal> &outputs, const CustomCallFunctions &customCalls,
                 const std::vector<std::vector<Literal>> *localBuffers = nullptr);

/// One rank of `run --backend mpi` (under mpirun): the whole pipeline, rank 0
/// reading the inputs and scattering each rank the pieces its devices read,
/// every rank running its devices, rank 0 merging the outputs and
/// checking/writing them.
int runMpiRank(const ParsedArgs &args);

/// For `--report` with --backend mpi: per collective (numbered as in the
/// manifest) whether its groups cross ranks, and the bytes leaving each rank.
std::string formatRankTraffic(const CommunicationManifest &manifest, const SpmdProgram &program,
                              int64_t ranks);

/// Whether this shardgen has the MPI backend (built with MPI found).
bool mpiBackendBuilt();

} // namespace shardgen::cli
