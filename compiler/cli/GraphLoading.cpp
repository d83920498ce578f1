#include "compiler/cli/GraphLoading.h"

#include <algorithm>
#include <iostream>
#include <random>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphSource.h"
#include "compiler/cli/MeshOverride.h"
#include "compiler/cli/TerminalText.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/Npy.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/pipeline/Pipeline.h"

namespace shardgen::cli {

std::string displayName(const std::string &graphPath) {
  return graphPath == "-" ? "<stdin>" : printable(graphPath);
}

Graph loadGraph(pipeline::Pipeline &passes, const ParsedArgs &args, const std::string &graphPath,
                const std::string &mlirFunction) {
  Graph graph = passes.read([&] { return readGraphSource(graphPath, mlirFunction); });
  applyMeshOverride(args, graph);
  try {
    passes.verify(graph);
  } catch (const FileGraphError &error) {
    if (!args.has("--mesh"))
      throw;
    throw FileGraphError(error.file(), error.pointer(),
                         std::string(error.what()) + " (with --mesh " + *args.value("--mesh") +
                             ")");
  }
  return graph;
}

std::vector<Literal> loadInputs(const Graph &graph, const std::string &graphPath,
                                const std::vector<std::string> &files) {
  const auto &args = graph.main.args;
  // A token input holds no data: it takes no file.
  auto isTokenArg = [&](const RegionArgument &arg) { return graph.type(arg.value).isToken(); };
  const size_t dataInputs =
      args.size() - static_cast<size_t>(std::count_if(args.begin(), args.end(), isTokenArg));
  if (files.size() != dataInputs)
    throw UsageError("--inputs needs one .npy file per graph input (a !stablehlo.token input "
                     "takes none): the graph has " +
                     std::to_string(dataInputs) + ", got " + std::to_string(files.size()));
  std::vector<Literal> inputs;
  size_t file = 0;
  for (size_t arg = 0; arg < args.size(); ++arg) {
    if (isTokenArg(args[arg])) {
      inputs.emplace_back(tokenType());
      continue;
    }
    const size_t i = file++;
    const Value &value = graph.value(args[arg].value);
    // The header's type is checked before the data is read: a file never
    // makes shardgen allocate more than the graph's input needs.
    auto checkType = [&](const TensorType &type) {
      if (type != *value.type && !isBf16Bits(type, *value.type) &&
          !isSubByteBytes(type, *value.type))
        throw FileGraphError(displayName(graphPath), args[arg].pointer,
                             "input \"" + value.name + "\" has type " + printType(*value.type) +
                                 ", but " + files[i] + " holds " + printType(type));
    };
    try {
      Literal literal = readNpy(files[i], checkType);
      if (literal.elementType() == value.type->elementType)
        inputs.push_back(std::move(literal));
      else if (subByteBits(value.type->elementType) > 0 || isMiniFloat(value.type->elementType))
        inputs.push_back(subByteFromBytes(literal, value.type->elementType, files[i]));
      else
        inputs.push_back(bf16FromBits(literal));
    } catch (const NpyError &error) {
      std::string_view message = error.what(); // "PATH: what is wrong"
      if (message.starts_with(files[i] + ": "))
        message.remove_prefix(files[i].size() + 2);
      throw InputError(files[i], std::string(message));
    }
  }
  return inputs;
}

std::vector<Literal> randomInputs(const Graph &graph, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Literal> inputs;
  for (const auto &arg : graph.main.args) {
    Literal literal(*graph.value(arg.value).type);
    ElementType type = literal.elementType();
    for (int64_t i = 0; i < literal.numElements(); ++i) { // none for a token
      // Small values keep float sums well conditioned and integer products in range.
      if (isComplex(type)) {
        std::uniform_real_distribution<double> part(-1.0, 1.0);
        const double real = part(rng);
        literal.setComplex(i, real, part(rng));
      } else if (isFloat(type))
        literal.setFloat(i, std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
      else if (type == ElementType::I1)
        literal.setInt(i, rng() & 1);
      else
        literal.setInt(i, std::uniform_int_distribution<int64_t>(-8, 8)(rng) &
                              (isUnsignedInteger(type) ? 0x7 : ~int64_t{0}));
    }
    inputs.push_back(std::move(literal));
  }
  return inputs;
}

std::vector<Literal> inputsFromArgs(const Graph &graph, const std::string &graphPath,
                                    const ParsedArgs &args) {
  if (args.has("--inputs"))
    return loadInputs(graph, graphPath, args.list("--inputs"));
  std::vector<Literal> inputs = randomInputs(graph, 0);
  if (!inputs.empty())
    std::cerr << "note: no --inputs given; using pseudo-random inputs (seed 0)\n";
  return inputs;
}

} // namespace shardgen::cli
