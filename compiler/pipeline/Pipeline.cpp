#include "compiler/pipeline/Pipeline.h"

#include <chrono>

#include "compiler/frontend/GraphWriter.h"
#include "compiler/partition/Partitioner.h"
#include "compiler/show/ProgramPrinter.h"
#include "compiler/verify/Verifier.h"

namespace shardgen::pipeline {

void Pipeline::timed(Pass pass, const std::function<void()> &work) {
  auto start = std::chrono::steady_clock::now();
  if (observer_)
    observer_->runPass(pass, work);
  else
    work();
  timings_.emplace_back(
      passName(pass),
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
}

void Pipeline::after(Pass pass, const std::function<std::string()> &dump) {
  if (observer_ && observer_->afterPass(pass, dump))
    throw Stopped{pass};
}

Graph Pipeline::read(const std::function<Graph()> &frontend) { return run(Pass::Read, frontend); }

void Pipeline::verify(Graph &graph) {
  run(Pass::Verify, [&] {
    verifyGraph(graph);
    checkTensorSizes(graph);
  });
  after(Pass::Verify, [&] { return writeGraph(graph); });
}

PropagationResult Pipeline::propagate(const Graph &graph, PropagationStrategy strategy) {
  PropagationResult result =
      run(Pass::Propagate, [&] { return propagateShardings(graph, strategy); });
  if (observer_ && !result.warnings.empty())
    observer_->warn(Pass::Propagate, result.warnings); // after the pass, before its dump
  after(Pass::Propagate, [&] {
    Graph propagated = graph.clone();
    applyPropagation(propagated, result);
    return writeGraph(propagated);
  });
  return result;
}

SpmdProgram Pipeline::partition(Graph &graph, const PropagationResult &result) {
  SpmdProgram program = run(Pass::Partition, [&] {
    applyPropagation(graph, result);
    return partitionProgram(graph);
  });
  after(Pass::Partition, [&] { return show::printProgram(program); });
  return program;
}

GeneratedProgram Pipeline::generate(const SpmdProgram &program, const AotOptions &options) {
  GeneratedProgram generated =
      run(Pass::Generate, [&] { return generateProgram(program, options); });
  after(Pass::Generate, [&] {
    // The main file, then a large program's other files, each named.
    std::vector<std::pair<std::string, std::string>> files = deviceSources(generated);
    std::string text = files.front().second;
    for (size_t f = 1; f < files.size(); ++f)
      text += "\n// ==== " + files[f].first + " ====\n" + files[f].second;
    return text;
  });
  return generated;
}

std::unique_ptr<CompiledProgram> Pipeline::jit(const SpmdProgram &program,
                                               const GeneratedProgram &generated,
                                               const JitOptions &options) {
  return run(Pass::Jit,
             [&] { return std::make_unique<CompiledProgram>(program, generated, options); });
}

double passMilliseconds(const PassTimings &timings, Pass pass) {
  double ms = 0;
  for (const auto &[name, passMs] : timings)
    if (name == passName(pass))
      ms += passMs;
  return ms;
}

CompiledGraph compileGraph(const std::function<Graph()> &frontend, Until until,
                           PropagationStrategy strategy) {
  Pipeline passes;
  CompiledGraph out;
  out.graph = std::make_unique<Graph>(passes.read(frontend));
  passes.verify(*out.graph);
  PropagationResult result = passes.propagate(*out.graph, strategy);
  out.program = std::make_unique<SpmdProgram>(passes.partition(*out.graph, result));
  if (until != Until::Partition)
    out.generated = passes.generate(*out.program);
  if (until == Until::Jit)
    out.compiled = passes.jit(*out.program, out.generated);
  out.timings = passes.timings();
  return out;
}

SpmdProgram propagateAndPartition(Graph &graph, PropagationStrategy strategy) {
  Pipeline passes;
  PropagationResult result = passes.propagate(graph, strategy);
  return passes.partition(graph, result);
}

} // namespace shardgen::pipeline
