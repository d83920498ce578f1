#include "compiler/cli/CustomCallsOption.h"

namespace shardgen::cli {

const OptionSpec kCustomCallsOption = {"--custom-calls", OptionSpec::Value, "LIB.so",
                                       "the shared library defining the custom_call targets "
                                       "(looked up there only)"};

std::unique_ptr<driver::CustomCallLibrary> customCallLibraryFromArgs(const ParsedArgs &args) {
  if (auto path = args.value(kCustomCallsOption.name))
    return std::make_unique<driver::CustomCallLibrary>(*path);
  return nullptr;
}

CustomCallFunctions customCallFunctions(const Graph &graph,
                                        const driver::CustomCallLibrary *library) {
  return driver::customCallFunctions(
      graph, library, {}, "pass --custom-calls LIB.so, a shared library that defines it");
}

} // namespace shardgen::cli
