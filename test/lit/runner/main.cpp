// shardgen_lit: runs lit-style MLIR test files (a `// RUN:` line, CHECK
// lines) through shardgen and LLVM's FileCheck, function by function. See
// test/lit/README.md.
//
//   shardgen_lit [--shardgen BIN] [--filecheck BIN] [--strict] [--summary] [-v] FILE...
//
// Exit status: 0 when no case failed (and, with --strict, none was skipped),
// 1 otherwise, 2 on a bad command line, 77 when FileCheck cannot run.

#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "test/lit/runner/Runner.h"
#include "test/lit/runner/Subprocess.h"

namespace fs = std::filesystem;
using namespace shardgen::lit;

namespace {

int usage(const std::string &message) {
  std::cerr << "shardgen_lit: " << message << "\n"
            << "usage: shardgen_lit [--shardgen BIN] [--filecheck BIN] [--strict] [--summary] "
               "[-v] FILE...\n";
  return 2;
}

/// A fresh folder for the cases' files, removed on the way out.
struct WorkDir {
  std::string path;
  WorkDir() {
    std::string pattern = (fs::temp_directory_path() / "shardgen-lit.XXXXXX").string();
    if (mkdtemp(pattern.data()))
      path = pattern;
  }
  ~WorkDir() {
    std::error_code ignored;
    if (!path.empty())
      fs::remove_all(path, ignored);
  }
  WorkDir(const WorkDir &) = delete;
  WorkDir &operator=(const WorkDir &) = delete;
};

} // namespace

int main(int argc, char **argv) {
  RunnerOptions options;
  bool strict = false;
  std::vector<std::string> files;
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if ((arg == "--shardgen" || arg == "--filecheck") && i + 1 < args.size())
      (arg == "--shardgen" ? options.shardgen : options.fileCheck) = args[++i];
    else if (arg == "--strict")
      strict = true;
    else if (arg == "--summary")
      options.summary = true;
    else if (arg == "-v")
      options.verbose = true;
    else if (!arg.empty() && arg[0] == '-')
      return usage("unknown option '" + arg + "'");
    else
      files.push_back(arg);
  }
  if (files.empty())
    return usage("no test file");
  // Without FileCheck nothing can be checked: exit 77, ctest's "skipped".
  if (runProgram({options.fileCheck, "--version"}, "/dev/null", "/dev/null") != 0) {
    std::cerr << "shardgen_lit: cannot run '" << options.fileCheck
              << "' (Debian: apt-get install llvm-19-tools)\n";
    return 77;
  }
  WorkDir work;
  if (work.path.empty())
    return usage("cannot create a temporary folder");

  Runner runner(options, std::cout, work.path);
  FileCounts all;
  for (const std::string &file : files) {
    if (!fs::is_regular_file(file))
      return usage("no file '" + file + "'");
    FileCounts counts = runner.runFile(file);
    std::cout << fs::path(file).filename().string() << ": " << counts.passed << " passed, "
              << counts.failed << " failed, " << counts.skipped << " skipped (" << counts.total()
              << " cases)\n";
    all.passed += counts.passed;
    all.failed += counts.failed;
    all.skipped += counts.skipped;
  }
  if (options.summary && !runner.skipReasons().empty()) {
    std::cout << "skip reasons:\n";
    for (const auto &[reason, count] : runner.skipReasons())
      std::cout << "  " << count << "  " << reason << "\n";
  }
  std::cout << "total: " << all.passed << " passed, " << all.failed << " failed, " << all.skipped
            << " skipped (" << all.total() << " cases)\n";
  if (all.total() == 0)
    return 1; // a run that checks nothing is an error, not a pass
  return all.failed > 0 || (strict && all.skipped > 0) ? 1 : 0;
}
