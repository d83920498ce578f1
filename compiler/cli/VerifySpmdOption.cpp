#include "compiler/cli/VerifySpmdOption.h"

#include <iostream>

#include "compiler/cli/FileErrors.h"
#include "compiler/partition/CollectiveTraffic.h"
#include "compiler/partition/SpmdCoherence.h"

namespace shardgen::cli {

const OptionSpec kVerifySpmdOption{
    "--verify-spmd", OptionSpec::Flag, "",
    "prove that every device group issues the same collectives with matching sizes"};

void verifySpmdIfAsked(const ParsedArgs &args, const std::string &graphPath,
                       const SpmdProgram &program) {
  if (!args.has("--verify-spmd"))
    return;
  verifySpmdCoherence(program);
  int64_t collectives = 0; // those of loops and branches once each
  forEachStep(program.steps,
              [&](const SpmdStep &step) { collectives += isCommunication(step.kind); });
  std::cerr << displayName(graphPath) << ": SPMD coherence verified: " << collectives
            << " collectives on " << program.mesh.numDevices() << " devices\n";
}

} // namespace shardgen::cli
