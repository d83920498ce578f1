#include "compiler/cli/MeshOverride.h"

#include "compiler/cli/Command.h"
#include "compiler/driver/MeshSizes.h"

namespace shardgen::cli {

const OptionSpec kMeshOption{"--mesh", OptionSpec::Value, "AXIS=SIZE,...",
                             "override mesh axis sizes before verification (e.g. data=4,model=2)"};

void applyMeshOverride(const ParsedArgs &args, Graph &graph) {
  std::optional<std::string> text = args.value("--mesh");
  if (!text)
    return;
  try {
    driver::applyMeshSizes(graph, driver::parseMeshSizes(*text));
  } catch (const driver::MeshSizeError &error) {
    throw InputError("--mesh", error.what()); // printed with its names made printable
  }
}

} // namespace shardgen::cli
