#include "compiler/cli/MpiLauncher.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "compiler/cli/Command.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::cli {
namespace {

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

int64_t plannedRanks() {
  const char *text = std::getenv(kRankModeVariable);
  if (!text)
    return -1;
  char *end = nullptr;
  long long ranks = std::strtoll(text, &end, 10);
  return end != text && *end == '\0' && ranks > 0 ? ranks : -1;
}

void checkMpirunArgs(const std::vector<std::string> &mpirunArgs) {
  for (const std::string &arg : mpirunArgs) {
    if (arg == ":")
      throw UsageError("--mpirun-args cannot hold ':' (mpirun's separator between programs): "
                       "shardgen starts one program");
    // An application context file names the programs and their counts.
    for (const char *option : {"--app", "-app"})
      if (arg == option || arg.starts_with(std::string(option) + "="))
        throw UsageError("--mpirun-args cannot hold '" + arg +
                         "' (an application file of other programs): shardgen starts one program");
    // mpirun would print and exit 0 without starting the program.
    for (const char *option : {"--version", "-V", "--help", "-h", "-help"})
      if (arg == option)
        throw UsageError("--mpirun-args cannot hold '" + arg +
                         "' (mpirun would answer it instead of running the program)");
    for (const char *option : {"-np", "-n", "--np", "-c", "--n"})
      if (arg == option || arg.starts_with(std::string(option) + "="))
        throw UsageError("--mpirun-args cannot set the number of ranks ('" + arg +
                         "'): use --ranks N (default: one rank per device)");
  }
}

std::string unambiguousForMpirun(const std::string &arg) {
  // After the program mpirun reads a lone ':' as the start of another
  // program; "./:" names the same file and is only an argument.
  return arg == ":" ? "./:" : arg;
}

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
  // Not --quiet: that would hide mpirun's own failures too (a program it
  // cannot start, a bad hostfile). Its banners about ranks that failed are
  // held back by runMpirun instead, as the rank that failed said why.
  std::vector<std::string> command = {mpirun, "-np", std::to_string(ranks)};
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
  // Passed to every rank, remote ones too: rank mode, and how many ranks
  // the plan has (each rank checks the world it finds against it).
  command.insert(command.end(),
                 {"-x", std::string(kRankModeVariable) + "=" + std::to_string(ranks)});
  command.insert(command.end(), mpirunArgs.begin(), mpirunArgs.end());
  command.push_back(executable);
  for (const std::string &arg : toolArgs)
    command.push_back(unambiguousForMpirun(arg));
  return command;
}

namespace {

/// A line of mpirun's own framing ("-----...") around its help-style messages.
bool isFrameLine(const std::string &line) {
  return line.size() >= 20 && line.find_first_not_of('-') == std::string::npos;
}

/// Whether a rank said what went wrong (the messages shardgen prints).
bool isShardgenError(const std::string &line) {
  return line.starts_with("shardgen: rank ") || line.starts_with("shardgen: error") ||
         line.starts_with("shardgen: internal error") ||
         line.find(": error: ") != std::string::npos ||
         line.find(": check failed: ") != std::string::npos;
}

/// mpirun's stderr on its way to ours: the ranks' lines (and mpirun's own
/// one-line errors) go through as they come; mpirun's framed messages are
/// held back, to be said only if no rank said what failed (they repeat, at
/// length, that a rank ended with a non-zero status).
class MpirunOutput {
public:
  void add(const char *data, size_t size) {
    pending_.append(data, size);
    for (size_t end; (end = pending_.find('\n')) != std::string::npos;) {
      line(pending_.substr(0, end));
      pending_.erase(0, end + 1);
    }
  }
  void finish() {
    if (!pending_.empty())
      line(pending_);
    pending_.clear();
  }
  bool rankReported() const { return rankReported_; }
  /// Rank 0 said it finished (kRanksFinishedLine).
  bool ranksFinished() const { return ranksFinished_; }
  /// A rank said it is ending the job (MPI_Abort).
  bool abortSeen() const { return abortSeen_; }
  /// The last lines mpirun wrote (frames dropped), indented, one a line.
  std::string tail() const {
    std::string out;
    for (const std::string &line : tail_)
      out += "  " + boundedMessage(line) + "\n";
    return out;
  }

private:
  void line(const std::string &text) {
    // Found anywhere in the line: --tag-output and --timestamp-output
    // prefix every line.
    if (text.find(kRanksFinishedLine) != std::string::npos) {
      ranksFinished_ = true;
      return;
    }
    if (isFrameLine(text)) {
      inFrame_ = !inFrame_;
      return;
    }
    if (!inFrame_) {
      std::cerr << text << "\n" << std::flush;
      rankReported_ = rankReported_ || isShardgenError(text);
      abortSeen_ = abortSeen_ || text.ends_with("(aborting every rank)");
    }
    if (!text.empty())
      tail_.push_back(text);
    if (tail_.size() > 12)
      tail_.pop_front();
  }
  std::string pending_;
  std::deque<std::string> tail_;
  bool inFrame_ = false, rankReported_ = false, abortSeen_ = false, ranksFinished_ = false;
};

/// mpirun, while it runs: a SIGTERM or SIGHUP sent to shardgen goes on to
/// it (it ends its ranks); SIGINT and SIGQUIT from the terminal reach it
/// directly and are ignored here, so shardgen lives to report how it ended.
volatile sig_atomic_t mpirunPid = 0;

void forwardToMpirun(int signal) {
  if (mpirunPid > 0)
    ::kill(static_cast<pid_t>(mpirunPid), signal);
}

/// This process's children now (orphaned ranks are reparented to it: it is
/// their subreaper while mpirun runs).
std::vector<pid_t> children() {
  std::vector<pid_t> pids;
  std::ifstream list("/proc/self/task/" + std::to_string(::getpid()) + "/children");
  for (long pid = 0; list >> pid;)
    pids.push_back(static_cast<pid_t>(pid));
  return pids;
}

/// Ends what mpirun left behind on this machine when it ended: a rank that
/// was stopped (SIGSTOP) ignores the SIGTERM mpirun sends it, and would stay.
void endLeftoverRanks() {
  for (std::vector<pid_t> left = children(); !left.empty(); left = children())
    for (pid_t pid : left) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
}

/// Runs `command` (mpirun) with its stderr through MpirunOutput; its exit
/// status, or 128 + the signal that ended it. `argv` is null-terminated.
int runForwardingStderr(const std::string &mpirun, std::vector<char *> &argv,
                        MpirunOutput &output) {
  int pipeEnds[2];
  if (::pipe2(pipeEnds, O_CLOEXEC) != 0)
    throw InputError("shardgen run", "cannot start " + mpirun + ": " + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  pid_t child = ::fork();
  if (child < 0)
    throw InputError("shardgen run", "cannot start " + mpirun + ": " + std::strerror(errno));
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM); // mpirun ends its ranks if we are gone
    ::dup2(pipeEnds[1], STDERR_FILENO);
    ::execv(mpirun.c_str(), argv.data());
    std::string failed = "cannot start " + mpirun + ": " + std::strerror(errno) + "\n";
    (void)!::write(STDERR_FILENO, failed.data(), failed.size());
    ::_exit(127);
  }
  ::close(pipeEnds[1]);
  mpirunPid = child;
  ::signal(SIGTERM, forwardToMpirun);
  ::signal(SIGHUP, forwardToMpirun);
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGQUIT, SIG_IGN);
  // After a rank said it aborts the job, mpirun has a few seconds to end
  // it: a peer it cannot reach (a cut network) would keep it waiting. Then
  // SIGTERM (8 s), SIGKILL (10 s), and at 12 s this stops reading even if
  // something mpirun started still holds the pipe (endLeftoverRanks ends it).
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> abortedAt;
  int signalsSent = 0;
  char buffer[4096];
  for (;;) {
    if (output.abortSeen() && !abortedAt)
      abortedAt = Clock::now();
    if (abortedAt && Clock::now() - *abortedAt > std::chrono::seconds(8 + 2 * signalsSent)) {
      if (signalsSent == 2)
        break;
      ::kill(child, signalsSent++ == 0 ? SIGTERM : SIGKILL);
    }
    pollfd readable{pipeEnds[0], POLLIN, 0};
    const int ready = ::poll(&readable, 1, abortedAt ? 500 : -1);
    if (ready == 0 || (ready < 0 && errno == EINTR))
      continue;
    ssize_t got = ::read(pipeEnds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    output.add(buffer, static_cast<size_t>(got));
  }
  ::close(pipeEnds[0]);
  output.finish();
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  endLeftoverRanks();
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

int runMpirun(int64_t ranks, int64_t threadsPerRank, const std::vector<std::string> &mpirunArgs) {
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
  MpirunOutput output;
  int status = runForwardingStderr(mpirun, argv, output);
  // With its output sent to files, or its ranks' output wrapped in XML on
  // stdout, rank 0's last line does not come back on stderr.
  const bool outputElsewhere =
      std::any_of(mpirunArgs.begin(), mpirunArgs.end(), [](const std::string &arg) {
        return arg.find("output-filename") != std::string::npos || arg == "--xml" || arg == "-xml";
      });
  if (status == 0 && !output.ranksFinished() && !outputElsewhere) {
    std::cerr << "shardgen run: error: mpirun ended with status 0 but did not run shardgen's "
                 "ranks (an option in --mpirun-args that makes it do something else?)"
              << (output.tail().empty() ? "\n" : "; it said:\n") << output.tail();
    return kInvalidInput;
  }
  if (status == 0)
    return 0;
  if (output.rankReported()) // the exit codes of `run` (a rank's MPI_Abort is 1)
    return status <= 4 ? status : 1;
  // mpirun itself failed (could not start a rank, a bad hostfile, a lost
  // host, a rank that crashed): say so, with what it said last.
  std::string tail = output.tail();
  std::cerr << "shardgen run: error: mpirun failed (exit status " << status
            << ") and no rank said why"
            << (tail.empty() ? "; it printed nothing\n" : "; it said:\n") << tail;
  return kInvalidInput;
}

} // namespace shardgen::cli
