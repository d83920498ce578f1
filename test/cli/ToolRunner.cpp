#include "test/cli/ToolRunner.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace shardgen::test {

namespace fs = std::filesystem;

namespace {
struct TempDirs {
  std::vector<fs::path> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (auto &dir : dirs)
      fs::remove_all(dir, ec);
  }
} tempDirs;
} // namespace

std::string makeTempDir() {
  std::string pattern = (fs::temp_directory_path() / "shardgen-test-XXXXXX").string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  std::string dir = mkdtemp(buffer.data());
  tempDirs.dirs.push_back(dir);
  return dir;
}

ToolResult runShardgen(const std::string &args, const std::string &stdinText,
                       const std::string &workDir) {
  std::string dir = makeTempDir();
  std::string in = dir + "/stdin", out = dir + "/stdout", err = dir + "/stderr";
  writeFile(in, stdinText);
  std::string command = (workDir.empty() ? "" : "cd '" + workDir + "' && ") + "'" +
                        SHARDGEN_BINARY + "' " + args + " <'" + in + "' >'" + out + "' 2>'" + err +
                        "'";
  int status = std::system(command.c_str());
  ToolResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = readFile(out);
  result.err = readFile(err);
  return result;
}

ToolResult runShardgenWithin(int seconds, const std::string &args, const std::string &prefix,
                             const std::string &workDir) {
  std::string dir = makeTempDir();
  std::string out = dir + "/stdout", err = dir + "/stderr";
  // timeout(1) runs the tool in a process group of its own and kills it
  // all (mpirun and its ranks too) at the limit; 124/137 say it did.
  std::string command = (workDir.empty() ? "" : "cd '" + workDir + "' && ") + "(" + prefix +
                        " exec timeout -s KILL " + std::to_string(seconds) + " '" +
                        SHARDGEN_BINARY + "' " + args + " </dev/null >'" + out + "' 2>'" + err +
                        "')";
  int status = std::system(command.c_str());
  ToolResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (result.exitCode == 137 || result.exitCode == 124) {
    result.timedOut = true;
    result.exitCode = -1;
  }
  result.out = readFile(out);
  result.err = readFile(err);
  return result;
}

} // namespace shardgen::test
