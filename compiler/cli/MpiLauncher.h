#pragma once
// `run --backend mpi`: shardgen starts mpirun itself, which runs this same
// binary with the same arguments once per rank (in rank mode, told by an
// environment variable mpirun passes on).

#include <cstdint>
#include <string>
#include <vector>

namespace shardgen::cli {

/// True in a process that mpirun started for `run --backend mpi`.
bool isMpiRank();

/// The mpirun command line that runs `ranks` copies of `executable` with
/// `toolArgs` in rank mode, --quiet: --allow-run-as-root as root, --oversubscribe
/// when ranks exceed this machine's cores, ranks that yield the core while
/// they wait in MPI (mpi_yield_when_idle, implied by --oversubscribe),
/// `--bind-to none` with several threads per rank (unless `mpirunArgs`
/// bind), then the user's `mpirunArgs`.
std::vector<std::string> mpirunCommand(const std::string &mpirun, int64_t ranks,
                                       int64_t threadsPerRank,
                                       const std::vector<std::string> &mpirunArgs,
                                       const std::string &executable,
                                       const std::vector<std::string> &toolArgs);

/// `--mpirun-args 'TEXT'`: TEXT split at whitespace (no quoting).
std::vector<std::string> splitMpirunArgs(const std::string &text);

/// Replaces this process by mpirun running this binary (/proc/self/exe) with
/// the tool's own arguments as `ranks` ranks; its exit status becomes
/// shardgen's. Throws InputError (exit 1) when mpirun is not installed or
/// cannot be started.
[[noreturn]] void execMpirun(int64_t ranks, int64_t threadsPerRank,
                             const std::vector<std::string> &mpirunArgs);

} // namespace shardgen::cli
