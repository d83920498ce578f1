#pragma once
// Where command results go: .npy files written all-or-nothing, or text.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/ir/Literal.h"

namespace shardgen::cli {

/// Writes out0.npy, out1.npy, ... into `dir` as an OutputFolder: all of them
/// or none.
void writeOutputs(const std::string &dir, const std::vector<Literal> &outputs);

/// As writeOutputs, and also out<j>.dev<p>.npy: `shards[j][p]`, device
/// position p's local buffer of output j (`run --shards`).
void writeOutputs(const std::string &dir, const std::vector<Literal> &outputs,
                  const std::vector<std::vector<Literal>> &shards);

/// With `-o DIR` writes the outputs there, else prints them to stdout.
void emitOutputs(const ParsedArgs &args, const std::vector<Literal> &outputs);

/// Writes `text` to a unique file beside `file` and renames it into place: no
/// partial file on failure; throws InputError with the system's reason.
void writeTextFile(const std::string &file, const std::string &text);
/// The same for a text `produce` gives to its sink in pieces (never held
/// whole); an exception from `produce` leaves no file either.
using TextSink = std::function<void(std::string_view)>;
void writeTextFile(const std::string &file, const std::function<void(const TextSink &)> &produce);

/// With `-o FILE` writes `text` there (writeTextFile), else prints it to stdout.
void emitText(const ParsedArgs &args, const std::string &text);

} // namespace shardgen::cli
