#pragma once
// Runs lit-style test files case by case (TestFile.h) through shardgen and
// FileCheck, and counts what passed, failed and was skipped.
//
// A case passes when every RUN line's shardgen command succeeds and FileCheck
// accepts its output against the case's CHECK lines. It is skipped when
// shardgen refuses the input (exit 1: an op, type or form the graph format
// lacks), when its RUN line has no shardgen counterpart, when it expects
// diagnostics (`expected-error`, -verify-diagnostics) or has no CHECK lines.
// Anything else fails: FileCheck's complaint, or shardgen exiting 2, 3, 4
// or on a signal (a bug).

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "test/lit/runner/RunLine.h"
#include "test/lit/runner/TestFile.h"

namespace shardgen::lit {

struct RunnerOptions {
  std::string shardgen = "shardgen";
  std::string fileCheck = "FileCheck";
  /// Print every case (else only failures and, unless `summary`, skips).
  bool verbose = false;
  /// Per file counts, skip reasons and failing cases only.
  bool summary = false;
};

struct FileCounts {
  int passed = 0, failed = 0, skipped = 0;
  int total() const { return passed + failed + skipped; }
};

class Runner {
public:
  Runner(RunnerOptions options, std::ostream &out, std::string workDir);

  FileCounts runFile(const std::string &path);
  /// Skip reasons over every file run, with how many cases each.
  const std::map<std::string, int> &skipReasons() const { return skipReasons_; }
  const std::vector<std::string> &failedCases() const { return failedCases_; }

private:
  enum class Outcome { Pass, Fail, Skip };
  struct CaseResult {
    Outcome outcome = Outcome::Pass;
    std::string detail; // the skip reason or the failure's messages
  };
  CaseResult runCase(const std::string &path, const TestCase &testCase,
                     const std::vector<RunCommand> &commands);
  void record(const std::string &caseName, const CaseResult &result, FileCounts &counts);

  RunnerOptions options_;
  std::ostream &out_;
  std::string workDir_;
  std::map<std::string, int> skipReasons_;
  std::vector<std::string> failedCases_;
};

} // namespace shardgen::lit
