#include "test/lit/runner/Runner.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "test/lit/runner/Subprocess.h"
#include "test/support/TextFile.h"

namespace fs = std::filesystem;

namespace shardgen::lit {

namespace {

std::string replaceAll(std::string text, const std::string &from, const std::string &to) {
  for (size_t at = text.find(from); !from.empty() && at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string firstLine(const std::string &text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "(no message)" : line;
}

/// A skip reason without the place, so that equal reasons group:
/// "FILE:12:5: error: op 'x' is not ..." -> "op 'x' is not ...".
std::string reasonOf(const std::string &message) {
  size_t error = message.find("error: ");
  return error == std::string::npos ? message : message.substr(error + 7);
}

bool hasChecks(const std::string &text, const std::vector<std::string> &prefixes) {
  for (const std::string &prefix : prefixes) {
    const std::regex directive("\\b" + prefix + "(-[A-Z]+)?:");
    if (std::regex_search(text, directive))
      return true;
  }
  return false;
}

bool expectsDiagnostics(const std::string &text) {
  return text.find("expected-error") != std::string::npos ||
         text.find("expected-warning") != std::string::npos ||
         text.find("expected-remark") != std::string::npos;
}

} // namespace

Runner::Runner(RunnerOptions options, std::ostream &out, std::string workDir)
    : options_(std::move(options)), out_(out), workDir_(std::move(workDir)) {}

FileCounts Runner::runFile(const std::string &path) {
  FileCounts counts;
  std::string text = testing::readFile(path);
  std::vector<RunCommand> commands;
  std::string unsupported;
  bool split = false;
  for (const std::string &line : runLinesOf(text)) {
    commands.push_back(parseRunLine(line));
    split = split || commands.back().splitInputFile;
    if (unsupported.empty())
      unsupported = commands.back().unsupported;
  }
  if (commands.empty())
    unsupported = "no RUN line";
  std::string base = fs::path(path).filename().string();
  std::set<std::string> names;
  for (const auto &chunk : readTestFile(text, split).chunks) {
    for (const TestCase &testCase : chunk) {
      std::string name = base + "/" + testCase.name;
      for (int k = 2; !names.insert(name).second; ++k)
        name = base + "/" + testCase.name + "#" + std::to_string(k);
      CaseResult result = unsupported.empty() ? runCase(path, testCase, commands)
                                              : CaseResult{Outcome::Skip, unsupported};
      record(name, result, counts);
    }
  }
  return counts;
}

Runner::CaseResult Runner::runCase(const std::string &path, const TestCase &testCase,
                                   const std::vector<RunCommand> &commands) {
  if (expectsDiagnostics(testCase.checks) || expectsDiagnostics(testCase.input))
    return {Outcome::Skip, "expects diagnostics (-verify-diagnostics)"};
  // Inputs and checks keep the file's name, so that messages name it.
  std::string base = fs::path(path).filename().string();
  fs::create_directories(workDir_ + "/input");
  fs::create_directories(workDir_ + "/checks");
  std::string inputPath = workDir_ + "/input/" + base;
  std::string checkPath = workDir_ + "/checks/" + base;
  std::string outPath = workDir_ + "/out.mlir", errPath = workDir_ + "/err.txt";
  testing::writeFile(inputPath, testCase.input);
  testing::writeFile(checkPath, testCase.checks);
  auto placed = [&](const std::string &message) {
    return replaceAll(replaceAll(message, inputPath, path), checkPath, path);
  };
  for (const RunCommand &command : commands) {
    if (!hasChecks(testCase.checks, command.checkPrefixes))
      return {Outcome::Skip, "no CHECK lines"};
    std::vector<std::string> argv = {options_.shardgen};
    for (const std::string &arg : command.shardgenArgs)
      argv.push_back(arg == "%s" ? inputPath : arg);
    int status = runProgram(argv, outPath, errPath);
    std::string err = placed(testing::readFile(errPath));
    if (status == 1)
      return {Outcome::Skip, reasonOf(firstLine(err))};
    if (status != 0)
      return {Outcome::Fail, "shardgen exited with status " + std::to_string(status) + ":\n" + err};
    std::vector<std::string> check = {options_.fileCheck, checkPath, "--input-file=" + outPath};
    check.insert(check.end(), command.fileCheckArgs.begin(), command.fileCheckArgs.end());
    status = runProgram(check, workDir_ + "/filecheck.out", errPath);
    if (status == -1)
      return {Outcome::Fail, "cannot run " + options_.fileCheck};
    if (status != 0)
      return {Outcome::Fail, placed(testing::readFile(errPath))};
  }
  return {Outcome::Pass, ""};
}

void Runner::record(const std::string &caseName, const CaseResult &result, FileCounts &counts) {
  switch (result.outcome) {
  case Outcome::Pass:
    ++counts.passed;
    if (options_.verbose)
      out_ << "PASS " << caseName << "\n";
    break;
  case Outcome::Skip:
    ++counts.skipped;
    ++skipReasons_[result.detail];
    if (options_.verbose || !options_.summary)
      out_ << "SKIP " << caseName << ": " << result.detail << "\n";
    break;
  case Outcome::Fail:
    ++counts.failed;
    failedCases_.push_back(caseName);
    out_ << "FAIL " << caseName;
    if (options_.summary)
      out_ << ": " << firstLine(result.detail) << "\n";
    else
      out_ << "\n"
           << result.detail << (result.detail.empty() || result.detail.back() != '\n' ? "\n" : "");
    break;
  }
}

} // namespace shardgen::lit
