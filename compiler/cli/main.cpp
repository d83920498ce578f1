// The shardgen command-line tool: dispatches to one subcommand and turns
// errors into the spec's messages and exit codes.

#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "compiler/cli/Command.h"
#include "compiler/cli/FileErrors.h"
#include "compiler/cli/GraphSource.h"
#include "compiler/cli/TerminalText.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"
#include "compiler/pipeline/Pass.h"

using namespace shardgen::cli;

static std::vector<std::string> &argumentStore() {
  static std::vector<std::string> arguments;
  return arguments;
}

const std::vector<std::string> &shardgen::cli::toolArguments() { return argumentStore(); }

static const std::vector<const Command *> &commands() {
  static const std::vector<const Command *> all = {
      &checkCommand(),  &propagateCommand(), &explainCommand(), &evalCommand(),
      &runCommand(),    &compileCommand(),   &showCommand(),    &partitionCommand(),
      &importCommand(), &exportCommand()};
  return all;
}

static std::string toolHelp() {
  std::string out = "usage: shardgen COMMAND [ARGS...]\n\n"
                    "shardgen partitions tensor programs with Shardy-style sharding annotations\n"
                    "across a device mesh and compiles them to per-device C++.\n\ncommands:\n";
  for (const Command *command : commands()) {
    std::string left = "  " + command->spec.name;
    left.resize(14, ' ');
    out += left + command->spec.brief + "\n";
  }
  return out + "\nRun 'shardgen COMMAND --help' for a command's options.\n\n" + kExitStatusHelp;
}

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  argumentStore() = args;
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << toolHelp();
    return args.empty() ? kUsage : kSuccess;
  }
  const Command *command = nullptr;
  for (const Command *candidate : commands())
    if (candidate->spec.name == args[0])
      command = candidate;
  if (!command) {
    std::cerr << "shardgen: error: unknown command '" << shardgen::boundedMessage(args[0]) << "'\n"
              << toolHelp();
    return kUsage;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto &arg : rest)
    if (arg == "--help" || arg == "-h") {
      std::cout << helpText(command->spec) << "\n" << kExitStatusHelp;
      return kSuccess;
    }
  try {
    return command->run(parseArgs(command->spec, rest));
  } catch (const shardgen::pipeline::Stopped &) {
    return kSuccess; // --dump-after STAGE: the dump on stdout ends the command
  } catch (const UsageError &error) {
    std::cerr << "shardgen " << command->spec.name
              << ": error: " << shardgen::boundedMessage(error.what()) << "\n"
              << "usage: shardgen " << command->spec.name << " " << command->spec.synopsis << "\n";
    return kUsage;
  } catch (const FileGraphError &error) {
    auto [place, message] = placeOfError(error.file(), error.pointer(), error.what());
    std::cerr << printable(error.file()) << ":" << shardgen::boundedMessage(place)
              << ": error: " << shardgen::boundedMessage(message) << "\n";
    return kInvalidInput;
  } catch (const InputError &error) {
    std::cerr << printable(error.where()) << ": error: " << shardgen::boundedMessage(error.what())
              << "\n";
    return kInvalidInput;
  } catch (const shardgen::GraphError &error) {
    std::cerr << "shardgen:" << shardgen::boundedMessage(error.pointer())
              << ": error: " << shardgen::boundedMessage(error.what()) << "\n";
    return kInvalidInput;
  } catch (const std::bad_alloc &) {
    // Not a bug: the input asks for more memory than this machine gives.
    std::cerr << "shardgen: error: out of memory\n";
    return kInvalidInput;
  } catch (const shardgen::InternalError &error) {
    std::cerr << "shardgen: internal error (a bug in shardgen): "
              << shardgen::boundedMessage(error.what()) << "\n";
    return kInternalError;
  } catch (const std::exception &error) {
    // Every input problem is one of the errors above: anything else escaping
    // here is a bug too.
    std::cerr << "shardgen: internal error (a bug in shardgen): "
              << shardgen::boundedMessage(error.what()) << "\n";
    return kInternalError;
  }
}
