#include "compiler/cli/MpiLauncher.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

#include "compiler/cli/Command.h"

namespace shardgen::cli {
namespace {

constexpr const char *kRankModeVariable = "SHARDGEN_MPI_RANK";

/// `name` as found on PATH (an executable file), else "".
std::string findOnPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::stringstream directories(path ? path : "/usr/bin:/bin");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    std::string candidate = (directory.empty() ? "." : directory) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

} // namespace

bool isMpiRank() { return std::getenv(kRankModeVariable) != nullptr; }

std::vector<std::string> splitMpirunArgs(const std::string &text) {
  std::vector<std::string> words;
  std::stringstream stream(text);
  for (std::string word; stream >> word;)
    words.push_back(word);
  return words;
}

std::vector<std::string> mpirunCommand(const std::string &mpirun, int64_t ranks,
                                       int64_t threadsPerRank,
                                       const std::vector<std::string> &mpirunArgs,
                                       const std::string &executable,
                                       const std::vector<std::string> &toolArgs) {
  // --quiet: no banners about ranks that exited non-zero or aborted; the
  // rank that failed has said why, and the exit status is kept.
  std::vector<std::string> command = {mpirun, "--quiet", "-np", std::to_string(ranks)};
  if (geteuid() == 0)
    command.push_back("--allow-run-as-root");
  const auto cores = static_cast<int64_t>(std::thread::hardware_concurrency());
  // A rank waiting in MPI yields its core: polling, it would starve its own
  // device threads (ranks x threads above the cores) or, on a machine shared
  // with other work, a peer waiting for a core (bench/README.md: the 2-rank
  // MLP's median time halved under load; the best the same when idle).
  if (ranks > cores)
    command.push_back("--oversubscribe"); // which also makes waiting ranks yield
  else
    command.insert(command.end(), {"--mca", "mpi_yield_when_idle", "1"});
  // A rank's devices are threads: bound to one core (Open MPI's default for
  // up to 2 ranks) they would take turns on it. The user's binding wins.
  const bool userBinds = std::any_of(mpirunArgs.begin(), mpirunArgs.end(), [](const auto &arg) {
    return arg.rfind("--bind-to", 0) == 0 || arg == "-bind-to";
  });
  if (threadsPerRank > 1 && !userBinds)
    command.insert(command.end(), {"--bind-to", "none"});
  // Passed to every rank, remote ones too.
  command.insert(command.end(), {"-x", std::string(kRankModeVariable) + "=1"});
  command.insert(command.end(), mpirunArgs.begin(), mpirunArgs.end());
  command.push_back(executable);
  command.insert(command.end(), toolArgs.begin(), toolArgs.end());
  return command;
}

void execMpirun(int64_t ranks, int64_t threadsPerRank, const std::vector<std::string> &mpirunArgs) {
  std::string mpirun = findOnPath("mpirun");
  if (mpirun.empty())
    throw InputError("shardgen run",
                     "--backend mpi needs mpirun, which is not installed (Debian: apt-get "
                     "install openmpi-bin libopenmpi-dev)");
  char executable[4096];
  ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
  if (length <= 0)
    throw InputError("shardgen run", std::string("cannot find this executable to start it "
                                                 "under mpirun: ") +
                                         std::strerror(errno));
  executable[length] = '\0';
  std::vector<std::string> command =
      mpirunCommand(mpirun, ranks, threadsPerRank, mpirunArgs, executable, toolArguments());
  std::vector<char *> argv;
  for (std::string &word : command)
    argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  execv(mpirun.c_str(), argv.data());
  throw InputError("shardgen run", "cannot start " + mpirun + ": " + std::strerror(errno));
}

} // namespace shardgen::cli
