#include "test/lit/runner/RunLine.h"

#include <map>

namespace shardgen::lit {

namespace {

/// The strategy each sdy_opt propagation pass runs.
const std::map<std::string, std::string> &propagationPasses() {
  static const std::map<std::string, std::string> passes = {
      {"-sdy-basic-propagate", "basic"},
      {"-sdy-aggressive-propagate", "aggressive"},
      {"-sdy-op-priority-propagate", "op-priority"},
      {"-sdy-user-priority-propagate", "user-priority"},
      {"-sdy-propagation-pipeline", "user-priority"},
  };
  return passes;
}

/// Maps sdy_opt's arguments onto a shardgen command (see RunLine.h).
void mapSdyOpt(const std::vector<std::string> &args, RunCommand &command) {
  std::string mode, strategy;
  for (const std::string &arg : args) {
    if (arg == "%s")
      continue;
    if (arg == "-split-input-file" || arg == "--split-input-file") {
      command.splitInputFile = true;
      continue;
    }
    if (arg == "-verify-diagnostics" || arg == "-sdy-add-data-flow-edges" ||
        arg == "-sdy-sink-data-flow-edges")
      continue;
    size_t equals = arg.find('=');
    std::string pass = arg.substr(0, equals);
    std::string options = equals == std::string::npos ? "" : arg.substr(equals + 1);
    auto propagation = propagationPasses().find(pass);
    if (pass == "-sdy-populate-op-sharding-rules" && options.empty()) {
      mode = "rules";
    } else if (propagation != propagationPasses().end()) {
      mode = "propagate";
      strategy = propagation->second;
      for (const std::string &option : splitWords(options)) {
        const std::string key = "propagation-strategy=";
        if (option.rfind(key, 0) == 0 && pass == "-sdy-aggressive-propagate") {
          strategy = option.substr(key.size());
        } else {
          command.unsupported =
              "option '" + option + "' of " + pass + " has no shardgen counterpart";
          return;
        }
      }
    } else {
      command.unsupported = "sdy_opt argument '" + arg + "' has no shardgen counterpart";
      return;
    }
  }
  if (mode == "rules")
    command.shardgenArgs = {"export", "%s", "--sharding-rules"};
  else if (mode == "propagate")
    command.shardgenArgs = {"propagate", "%s", "--format", "mlir", "--strategy", strategy};
  else
    command.unsupported = "the sdy_opt line runs no pass shardgen has";
}

void readFileCheckArgs(const std::vector<std::string> &args, RunCommand &command) {
  for (const std::string &arg : args) {
    if (arg == "%s")
      continue;
    command.fileCheckArgs.push_back(arg);
    for (const std::string key :
         {"--check-prefix=", "-check-prefix=", "--check-prefixes=", "-check-prefixes="}) {
      if (arg.rfind(key, 0) != 0)
        continue;
      std::string list = arg.substr(key.size());
      size_t start = 0;
      while (start <= list.size()) {
        size_t comma = list.find(',', start);
        command.checkPrefixes.push_back(list.substr(start, comma - start));
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
    }
  }
  if (command.checkPrefixes.empty())
    command.checkPrefixes = {"CHECK"};
}

} // namespace

std::vector<std::string> splitWords(const std::string &text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t') {
      if (inWord)
        words.push_back(word);
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord)
    words.push_back(word);
  return words;
}

RunCommand parseRunLine(const std::string &line) {
  RunCommand command;
  std::vector<std::string> words = splitWords(line);
  std::vector<std::string> tool, check;
  bool afterPipe = false;
  for (const std::string &word : words) {
    if (word == "|" && !afterPipe)
      afterPipe = true;
    else if (word == "2>&1")
      continue; // shardgen's messages go to stderr, which is not checked
    else
      (afterPipe ? check : tool).push_back(word);
  }
  if (!afterPipe || check.empty() || check[0] != "FileCheck") {
    command.unsupported = "the RUN line does not pipe its output into FileCheck";
    return command;
  }
  readFileCheckArgs({check.begin() + 1, check.end()}, command);
  if (tool.empty()) {
    command.unsupported = "the RUN line names no tool";
  } else if (tool[0] == "shardgen") {
    command.shardgenArgs.assign(tool.begin() + 1, tool.end());
    command.splitInputFile = true;
  } else if (tool[0] == "sdy_opt") {
    mapSdyOpt({tool.begin() + 1, tool.end()}, command);
  } else {
    command.unsupported = "the RUN line runs '" + tool[0] + "', not shardgen or sdy_opt";
  }
  return command;
}

} // namespace shardgen::lit
