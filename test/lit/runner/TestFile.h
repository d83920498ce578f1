#pragma once
// A lit-style MLIR test file cut into cases: its RUN lines, its chunks
// (`// -----` separated, as `-split-input-file` cuts them) and in each chunk
// one case per public function, with the CHECK lines written around it.
//
// A case's input is its chunk's top-level declarations (sdy.mesh, #loc
// aliases), the chunk's private functions (callees) and the function
// itself; its checks are the text from the end of the previous function (or
// the chunk's start) to the end of the function (to the chunk's end for its
// last function). Both keep the file's line numbers: what they leave out is
// blanked, so shardgen's and FileCheck's messages point into the file. A
// chunk without functions at its top level (`module { ... }`) is one case,
// named "module", input and checks the whole chunk.

#include <string>
#include <vector>

namespace shardgen::lit {

struct TestCase {
  std::string name;  // the function's name
  std::string input; // the MLIR text shardgen reads
  std::string checks;
  int line = 0; // of the function, 1-based
};

struct TestFile {
  std::vector<std::string> runLines; // continuation lines joined
  std::vector<std::vector<TestCase>> chunks;
};

/// `split`: cut at `// -----` lines (else the file is one chunk).
TestFile readTestFile(const std::string &text, bool split);

/// The RUN lines only (`// RUN: ...`, a trailing `\` continues on the next).
std::vector<std::string> runLinesOf(const std::string &text);

} // namespace shardgen::lit
