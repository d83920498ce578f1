#pragma once
// A small argument parser for shardgen's subcommands: positionals, flags, and
// options taking one value or a list of values (up to the next `-` token).
// Misuse is a UsageError (exit status 2).

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/ir/Diagnostic.h"

namespace shardgen::cli {

class UsageError : public std::runtime_error {
public:
  explicit UsageError(const std::string &message) : std::runtime_error(boundedMessage(message)) {}
};

struct OptionSpec {
  std::string name; // "--strategy"
  enum Kind { Flag, Value, List } kind = Flag;
  std::string valueName; // "S", for help text
  std::string help;
};

struct CommandSpec {
  std::string name;
  std::string brief;    // one line, for the tool's command list
  std::string synopsis; // "GRAPH [-o OUT.json] [--strategy S]"
  std::string summary;
  std::vector<std::string> positionals; // required, in order ("GRAPH")
  std::vector<OptionSpec> options;
  bool morePositionals = false; // any number after the required ones ("VALUE ...")
};

class ParsedArgs {
public:
  std::vector<std::string> positionals;
  bool has(const std::string &option) const { return values_.count(option) != 0; }
  std::optional<std::string> value(const std::string &option) const;
  const std::vector<std::string> &list(const std::string &option) const;

private:
  friend ParsedArgs parseArgs(const CommandSpec &, const std::vector<std::string> &);
  std::map<std::string, std::vector<std::string>> values_;
};

/// Parses `args` (after the subcommand name). Throws UsageError.
ParsedArgs parseArgs(const CommandSpec &spec, const std::vector<std::string> &args);
std::string helpText(const CommandSpec &spec);

} // namespace shardgen::cli
