#pragma once
// `--custom-calls LIB.so` of eval and run: the library their custom_call
// targets come from (driver/CustomCallLibrary.h).

#include <memory>

#include "compiler/cli/CommandLine.h"
#include "compiler/driver/CustomCallLibrary.h"

namespace shardgen::cli {

extern const OptionSpec kCustomCallsOption;

/// The --custom-calls library, or null when the option is absent.
std::unique_ptr<driver::CustomCallLibrary> customCallLibraryFromArgs(const ParsedArgs &args);

/// The function of every custom_call target of `graph`, from `library`
/// (null without --custom-calls: then only a graph without custom_call).
CustomCallFunctions customCallFunctions(const Graph &graph,
                                        const driver::CustomCallLibrary *library);

} // namespace shardgen::cli
