#include "compiler/cli/CommandLine.h"

namespace shardgen::cli {

std::optional<std::string> ParsedArgs::value(const std::string &option) const {
  auto it = values_.find(option);
  if (it == values_.end() || it->second.empty())
    return std::nullopt;
  return it->second.front();
}

const std::vector<std::string> &ParsedArgs::list(const std::string &option) const {
  static const std::vector<std::string> empty;
  auto it = values_.find(option);
  return it == values_.end() ? empty : it->second;
}

static const OptionSpec *findOption(const CommandSpec &spec, const std::string &name) {
  for (const auto &option : spec.options)
    if (option.name == name)
      return &option;
  return nullptr;
}

ParsedArgs parseArgs(const CommandSpec &spec, const std::vector<std::string> &args) {
  ParsedArgs parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    // "-" alone is standard input, a positional.
    if (arg.size() < 2 || arg[0] != '-') {
      parsed.positionals.push_back(arg);
      continue;
    }
    std::optional<std::string> inlineValue;
    if (size_t eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
      inlineValue = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    const OptionSpec *option = findOption(spec, arg);
    if (!option)
      throw UsageError("unknown option '" + arg + "' for '" + spec.name + "'");
    if (parsed.values_.count(arg))
      throw UsageError("option '" + arg + "' given twice");
    auto &values = parsed.values_[arg];
    switch (option->kind) {
    case OptionSpec::Flag:
      if (inlineValue)
        throw UsageError("option '" + arg + "' takes no value");
      break;
    case OptionSpec::Value:
      if (inlineValue)
        values.push_back(*inlineValue);
      else if (i + 1 < args.size())
        values.push_back(args[++i]);
      else
        throw UsageError("option '" + arg + "' needs a value (" + option->valueName + ")");
      break;
    case OptionSpec::List:
      if (inlineValue)
        values.push_back(*inlineValue);
      while (i + 1 < args.size() && (args[i + 1].size() < 2 || args[i + 1][0] != '-'))
        values.push_back(args[++i]);
      break;
    }
  }
  if (parsed.positionals.size() < spec.positionals.size())
    throw UsageError("'" + spec.name + "' needs " + spec.positionals[parsed.positionals.size()]);
  if (!spec.morePositionals && parsed.positionals.size() > spec.positionals.size())
    throw UsageError("unexpected argument '" + parsed.positionals[spec.positionals.size()] +
                     "' for '" + spec.name + "'");
  return parsed;
}

std::string helpText(const CommandSpec &spec) {
  std::string out =
      "usage: shardgen " + spec.name + " " + spec.synopsis + "\n\n" + spec.summary + "\n";
  if (!spec.options.empty()) {
    out += "\noptions:\n";
    for (const auto &option : spec.options) {
      std::string left = "  " + option.name;
      if (option.kind == OptionSpec::Value)
        left += " " + option.valueName;
      else if (option.kind == OptionSpec::List)
        left += " " + option.valueName + "...";
      if (left.size() < 26)
        left.resize(26, ' ');
      else
        left += "  ";
      out += left + option.help + "\n";
    }
  }
  return out;
}

} // namespace shardgen::cli
