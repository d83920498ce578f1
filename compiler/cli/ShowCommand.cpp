// shardgen show GRAPH [VALUE ...] [--html FILE] [--strategy S]: which device
// holds which part of each tensor, after propagation and partitioning, in
// the terminal or as one self-contained HTML page.

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/TerminalText.h"
#include "compiler/show/HtmlRenderer.h"
#include "compiler/show/TextRenderer.h"

namespace shardgen::cli {

namespace {

/// Names from the graph reach the terminal with control characters escaped.
void makePrintable(show::ShowModel &model) {
  model.mesh.name = printable(model.mesh.name);
  for (auto &axis : model.mesh.axes)
    axis.name = printable(axis.name);
  for (auto &view : model.tensors) {
    view.name = printable(view.name);
    view.pointer = printable(view.pointer);
    view.sharding = printable(view.sharding);
    view.origin = printable(view.origin);
    view.explanation.clear(); // not printed here
    for (auto &axis : view.blocks.partialAxes)
      axis.name = printable(axis.name);
  }
}

bool colourTerminal() {
  // https://no-color.org: a non-empty NO_COLOR turns colour off.
  const char *noColor = std::getenv("NO_COLOR");
  const char *term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !(noColor && *noColor) &&
         !(term && std::string(term) == "dumb");
}

int runShow(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  std::vector<std::string> names(args.positionals.begin() + 1, args.positionals.end());
  PropagationStrategy strategy = strategyOption(args);
  PassReporter reporter(args, path, pipeline::Pass::Partition);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  PropagationResult result = passes.propagate(graph, strategy);
  SpmdProgram program = passes.partition(graph, result);
  // Unknown names fail here, before anything is written.
  show::ShowModel model =
      atFile(path, [&] { return show::buildShowModel(graph, result, program, names); });
  if (auto file = args.value("--html")) {
    show::HtmlInput input{displayName(path), names};
    std::string page =
        atFile(path, [&] { return show::renderHtml(graph, result, program, input); });
    writeTextFile(*file, page);
    std::cerr << "wrote " << printable(*file) << "\n";
    return kSuccess;
  }
  makePrintable(model);
  show::TextStyle style;
  style.colour = colourTerminal();
  std::cout << show::renderText(model, style);
  return kSuccess;
}

} // namespace

const Command &showCommand() {
  static const Command command{
      {"show",
       "which device holds which part of each tensor (terminal or --html page)",
       "GRAPH [VALUE ...] [--html FILE] [--strategy S]",
       "Propagates shardings and partitions GRAPH as run and compile do, then shows the mesh\n"
       "(axes, sizes, device ids) and, for each graph input and output (or each VALUE\n"
       "named), its type, sharding, origin and a grid of which devices hold which block:\n"
       "rows and columns are index ranges (start:end) of the last two dims, higher ranks a\n"
       "row of 2D slices over the leading dims; a cell lists the ids of every device\n"
       "holding that block (d0,2 or d0-3), * marks an uneven (short) block, and devices\n"
       "holding nothing are listed as empty. Colour on a terminal unless NO_COLOR is set.\n"
       "With --html, writes one self-contained page instead: the ops with each value's\n"
       "sharding, a clickable block-to-device view of every tensor (3D for rank 3), the\n"
       "mesh, the communication manifest and each value's origin chain (as explain).",
       {"GRAPH"},
       withPipelineOptions(
           {{"--html", OptionSpec::Value, "FILE", "write the page to FILE (nothing on stdout)"},
            kStrategyOption},
           pipeline::Pass::Partition),
       true},
      runShow};
  return command;
}

} // namespace shardgen::cli
