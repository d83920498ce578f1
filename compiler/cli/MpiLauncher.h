#pragma once
// `run --backend mpi`: shardgen starts mpirun itself, which runs this same
// binary with the same arguments once per rank (in rank mode, told by an
// environment variable mpirun passes on).

#include <cstdint>
#include <string>
#include <vector>

namespace shardgen::cli {

/// The environment variable that puts a process in rank mode, holding the
/// number of ranks planned.
inline constexpr const char *kRankModeVariable = "SHARDGEN_MPI_RANK";

/// The line rank 0 writes to stderr last: the launcher drops it, and takes
/// mpirun's success without it as mpirun not having run the ranks (options
/// such as `-version` or a program word in --mpirun-args).
inline constexpr const char *kRanksFinishedLine = "shardgen: rank 0 finished the run";

/// True in a process that mpirun started for `run --backend mpi`.
bool isMpiRank();

/// In such a process, the number of ranks the launcher planned (every rank
/// checks MPI's world size against it before anything else); -1 when unknown.
int64_t plannedRanks();

/// The mpirun command line that runs `ranks` copies of `executable` with
/// `toolArgs` in rank mode: --allow-run-as-root as root, --oversubscribe
/// when ranks exceed this machine's cores, ranks that yield the core while
/// they wait in MPI (mpi_yield_when_idle, implied by --oversubscribe),
/// `--bind-to none` with several threads per rank (unless `mpirunArgs`
/// bind), then the user's `mpirunArgs`. A tool argument mpirun would read
/// as its own (a lone ':', its separator between programs) is passed as
/// "./:", the same path.
std::vector<std::string> mpirunCommand(const std::string &mpirun, int64_t ranks,
                                       int64_t threadsPerRank,
                                       const std::vector<std::string> &mpirunArgs,
                                       const std::string &executable,
                                       const std::vector<std::string> &toolArgs);

/// `--mpirun-args 'TEXT'`: TEXT split at whitespace (no quoting).
std::vector<std::string> splitMpirunArgs(const std::string &text);

/// Refuses (UsageError) --mpirun-args that would change what shardgen
/// plans: a rank count (-np, -n, -c: use --ranks) or a second program (':').
void checkMpirunArgs(const std::vector<std::string> &mpirunArgs);

/// Runs mpirun on this binary (/proc/self/exe) with the tool's own
/// arguments as `ranks` ranks and returns shardgen's exit status: the ranks'
/// (0, 1-4), or, when mpirun fails without a rank saying why (it could not
/// start a rank, a bad hostfile, a rank that crashed), 1 after printing
/// "mpirun failed" and the last lines mpirun wrote (its help-style
/// messages are otherwise held back: the ranks' own messages say what
/// failed). Throws InputError (exit 1) when mpirun is not installed or
/// cannot be started.
int runMpirun(int64_t ranks, int64_t threadsPerRank, const std::vector<std::string> &mpirunArgs);

} // namespace shardgen::cli
