#include "Program.h"

#include <chrono>
#include <filesystem>

#include "Interrupt.h"
#include "compiler/codegen/AotWriter.h"
#include "compiler/codegen/CppNames.h"
#include "compiler/driver/CompileCache.h"
#include "compiler/driver/LaunchSettings.h"
#include "compiler/driver/OutputFolder.h"
#include "compiler/ir/Distribution.h"
#include "compiler/ir/InputError.h"
#include "compiler/ir/Sharding.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/ShardLayout.h"
#include "compiler/partition/SpmdCoherence.h"

namespace shardgen::python {

namespace {

std::string quotedName(const std::string &name) { return "\"" + name + "\""; }

std::string namesOf(const Graph &graph, const std::vector<RegionArgument> &slots) {
  std::string names;
  for (const RegionArgument &slot : slots)
    names += (names.empty() ? "" : ", ") + graph.value(slot.value).name;
  return names;
}

std::vector<std::string> axisTexts(const std::vector<AxisRef> &axes) {
  std::vector<std::string> texts;
  for (const AxisRef &axis : axes)
    texts.push_back(axesText({axis}));
  return texts;
}

} // namespace

ProgramHandle::ProgramHandle(std::shared_ptr<GraphHandle> source, CustomCallSource customCalls,
                             const CompileOptions &options)
    : source_(std::move(source)), customCalls_(std::move(customCalls)), strategy_(options.strategy),
      memory_(options.memory) {
  std::string cacheDir;
  if (options.cache) {
    driver::CompileCacheFolder folder = driver::userCompileCache();
    std::string warning =
        "shardgen: not using the compile cache " + folder.refused + ": " + folder.problem;
    if (!folder.problem.empty() && PyErr_WarnEx(PyExc_RuntimeWarning, warning.c_str(), 1) != 0)
      throw py::error_already_set(); // warnings turned into errors
    cacheDir = folder.dir;
  }
  py::gil_scoped_release release;
  const GraphHandle &graph = *source_;
  pipeline::Pipeline passes;
  graph_ = std::make_unique<Graph>(graph.verifiedCopy());
  functions_ = customCalls_.resolve(graph, *graph_);
  graph.placed([&] {
    PropagationResult propagation = passes.propagate(*graph_, strategy_);
    program_ = std::make_unique<SpmdProgram>(passes.partition(*graph_, propagation));
    driver::requireFits("the program", driver::meshRunDemand(*program_), memory_);
    if (options.verifySpmd)
      verifySpmdCoherence(*program_);
    generated_ = passes.generate(*program_);
  });
  // What the JIT says of the cache (an unfit folder, a damaged entry
  // removed), warned once the GIL is held again.
  std::vector<std::string> cacheWarnings;
  JitOptions jitOptions = generatedCodeJitOptions(
      functions_, cacheDir, [&](const std::string &message) { cacheWarnings.push_back(message); });
  compiled_ = passes.jit(*program_, generated_, jitOptions);
  if (!cacheWarnings.empty()) {
    py::gil_scoped_acquire acquire;
    for (const std::string &message : cacheWarnings)
      if (PyErr_WarnEx(PyExc_RuntimeWarning, ("shardgen: " + message).c_str(), 1) != 0)
        throw py::error_already_set(); // warnings turned into errors
  }
  timings_ = passes.timings();
  for (size_t i = 0; i < program_->inputs.size(); ++i) {
    inputTypes_.push_back(program_->layout(program_->inputs[i]).globalType);
    inputNames_.push_back("input " + std::to_string(i) + " (" +
                          quotedName(graph_->value(graph_->main.args[i].value).name) + ")");
  }
  for (SpmdValueId id : program_->outputs)
    outputTypes_.push_back(program_->layout(id).globalType);
}

ProgramHandle::~ProgramHandle() = default;

template <typename Run> void ProgramHandle::launch(double timeoutSeconds, Run &&run) {
  InterruptibleRun interrupt;
  runtime::LaunchOptions options = driver::launchOptions(timeoutSeconds);
  options.cancel = interrupt.cancel();
  std::exception_ptr failure;
  bool cancelled = false;
  {
    py::gil_scoped_release release;
    try {
      run(threadsLauncher(options));
    } catch (const runtime::RunCancelled &) {
      cancelled = true;
      failure = std::current_exception();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  interrupt.raiseIfInterrupted(cancelled);
  if (failure)
    std::rethrow_exception(failure);
}

std::vector<BoundTensor> ProgramHandle::bindInputs(const py::args &arrays) const {
  if (arrays.size() != inputTypes_.size())
    throw py::type_error(generated_.name + " takes " + std::to_string(inputTypes_.size()) +
                         " inputs (" + namesOf(*graph_, graph_->main.args) + "), got " +
                         std::to_string(arrays.size()));
  std::vector<BoundTensor> bound;
  bound.reserve(arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i)
    bound.push_back(bindTensor(arrays[i], inputTypes_[i], inputNames_[i]));
  return bound;
}

py::tuple ProgramHandle::call(const py::args &arrays, double timeoutSeconds) {
  std::vector<BoundTensor> bound = bindInputs(arrays);
  std::vector<const void *> in(bound.size());
  for (size_t i = 0; i < bound.size(); ++i)
    in[i] = bound[i].data;
  py::tuple outputs(outputTypes_.size());
  std::vector<void *> out(outputTypes_.size());
  for (size_t j = 0; j < outputTypes_.size(); ++j) {
    py::array array = newArray(outputTypes_[j]);
    out[j] = array.mutable_data();
    outputs[j] = std::move(array);
  }
  launch(timeoutSeconds, [&](const MeshLauncher &launcher) { compiled_->run(in, out, launcher); });
  return outputs;
}

py::list ProgramHandle::runShards(py::handle perDevice, double timeoutSeconds) {
  const int64_t devices = program_->mesh.numDevices();
  if (!py::isinstance<py::sequence>(perDevice) ||
      py::len(perDevice) != static_cast<size_t>(devices))
    throw py::type_error("run_shards takes one sequence of input pieces per mesh position (" +
                         std::to_string(devices) + " of them)");
  std::vector<BoundTensor> bound;
  std::vector<std::vector<const void *>> in(devices);
  std::vector<std::vector<void *>> out(devices);
  py::list outputs;
  for (int64_t p = 0; p < devices; ++p) {
    py::object pieces = py::reinterpret_borrow<py::sequence>(perDevice)[p];
    const std::string where = "position " + std::to_string(p);
    if (!py::isinstance<py::sequence>(pieces) || py::len(pieces) != inputTypes_.size())
      throw py::type_error(where + ": run_shards takes " + std::to_string(inputTypes_.size()) +
                           " input pieces per position (" + namesOf(*graph_, graph_->main.args) +
                           ")");
    for (size_t i = 0; i < inputTypes_.size(); ++i) {
      TensorType type = localBufferType(program_->layout(program_->inputs[i]), p);
      bound.push_back(bindTensor(py::reinterpret_borrow<py::sequence>(pieces)[i], type,
                                 where + ", " + inputNames_[i]));
      in[p].push_back(bound.back().data);
    }
    py::tuple mine(program_->outputs.size());
    for (size_t j = 0; j < program_->outputs.size(); ++j) {
      py::array array = newArray(localBufferType(program_->layout(program_->outputs[j]), p));
      out[p].push_back(array.mutable_data());
      mine[j] = std::move(array);
    }
    outputs.append(std::move(mine));
  }
  launch(timeoutSeconds,
         [&](const MeshLauncher &launcher) { compiled_->runShards(in, out, launcher); });
  return outputs;
}

py::tuple ProgramHandle::check(const py::args &arrays, std::optional<double> rtol,
                               std::optional<double> atol, double timeoutSeconds) {
  driver::MemoryDemand demand = driver::interpreterDemand(*graph_);
  source_->placed(
      [&] { driver::requireFits("check (the reference interpreter)", demand, memory_); });
  py::tuple outputs = call(arrays, timeoutSeconds);
  std::vector<BoundTensor> bound = bindInputs(arrays);
  std::vector<Literal> inputs, actual;
  for (size_t i = 0; i < bound.size(); ++i)
    inputs.push_back(literalOf(bound[i], inputTypes_[i]));
  for (size_t j = 0; j < outputTypes_.size(); ++j) {
    BoundTensor output = bindTensor(outputs[j], outputTypes_[j], "output");
    actual.push_back(literalOf(output, outputTypes_[j]));
  }
  std::optional<OutputMismatch> mismatch;
  {
    py::gil_scoped_release release;
    BoundedEvaluation expected = source_->placed(
        [&] { return evaluateWithBounds(*graph_, inputs, driver::evalOptionsWith(functions_)); });
    mismatch = compareOutputs(actual, expected, ToleranceOverride{rtol, atol}, outputNames(*graph_),
                              MismatchSearch::Worst);
  }
  if (mismatch) {
    std::string text =
        source_->label() + ": check failed: " + mismatch->describe() + " (reference interpreter";
    if (mismatch->differing > 1)
      text += "; the worst of " + std::to_string(mismatch->differing) + " differing elements";
    throw CheckFailure(text + ")", mismatch->output, mismatch->name, mismatch->index,
                       mismatch->actual, mismatch->expected, mismatch->bound, mismatch->differing);
  }
  return outputs;
}

std::vector<Layout> ProgramHandle::layouts(bool outputs) const {
  const std::vector<SpmdValueId> &ids = outputs ? program_->outputs : program_->inputs;
  const std::vector<RegionArgument> &slots = outputs ? graph_->main.results : graph_->main.args;
  std::vector<Layout> layouts;
  for (size_t k = 0; k < ids.size(); ++k) {
    const ShardLayout &shard = program_->layout(ids[k]);
    Layout layout;
    layout.name = graph_->value(slots[k].value).name;
    layout.type = shard.globalType;
    layout.mesh = codegen::meshDescription(program_->mesh);
    if (shard.isDistributed())
      layout.distribution = printDistribution(*shard.distribution);
    else
      layout.sharding = printSharding(shard.sharding);
    layout.partialAxes = axisTexts(shard.partialAxes);
    for (int64_t p = 0; p < program_->mesh.numDevices(); ++p) {
      Piece piece;
      piece.position = p;
      piece.device = program_->mesh.deviceId(p);
      piece.shape = localBufferType(shard, p).shape;
      if (shard.isDistributed()) {
        piece.offset.assign(piece.shape.size(), 0);
        for (int64_t chunk : shard.chunks->chunksOfPosition(p)) {
          ChunkBox box = shard.chunks->chunkBox(chunk);
          piece.chunks.emplace_back(box.offset, box.extent);
        }
      } else {
        piece.offset = shard.offsetsOf(p);
      }
      layout.pieces.push_back(std::move(piece));
    }
    layouts.push_back(std::move(layout));
  }
  return layouts;
}

py::list ProgramHandle::report() const {
  CommunicationManifest manifest = computeManifest(*program_);
  py::list collectives;
  for (const CollectiveRecord &record : manifest.collectives) {
    py::dict entry;
    entry["step"] = record.step;
    entry["op"] = record.pointer;
    entry["kind"] = std::string(stepKindName(record.kind));
    entry["axes"] = axisTexts(record.axes);
    py::list sent, received;
    for (const DeviceTraffic &traffic : record.traffic) {
      sent.append(traffic.sent);
      received.append(traffic.received);
    }
    entry["sent"] = sent;
    entry["received"] = received;
    collectives.append(std::move(entry));
  }
  return collectives;
}

std::string ProgramHandle::reportText() const {
  return formatManifest(computeManifest(*program_), *program_);
}

void ProgramHandle::writeSources(const std::string &dir, const std::string &name, bool mpi) const {
  AotOptions options;
  options.name = name;
  options.mpi = mpi;
  std::optional<GeneratedProgram> regenerated;
  if (!name.empty() || mpi)
    regenerated = source_->placed([&] { return generateProgram(*program_, options); });
  driver::OutputFolder folder(dir);
  try {
    writeAotProject(folder.staging().string(), regenerated ? *regenerated : generated_);
  } catch (const std::filesystem::filesystem_error &error) {
    throw InputError(dir, "cannot write " + error.path1().filename().string() + ": " +
                              driver::errorText(error.code()));
  }
  folder.commit();
}

std::vector<double> ProgramHandle::timeBoundCalls(int64_t repeat, const py::args &arrays) {
  std::vector<BoundTensor> bound = bindInputs(arrays);
  std::vector<const void *> in(bound.size());
  for (size_t i = 0; i < bound.size(); ++i)
    in[i] = bound[i].data;
  std::vector<Literal> outputs;
  std::vector<void *> out;
  for (const TensorType &type : outputTypes_)
    outputs.emplace_back(type);
  for (Literal &output : outputs)
    out.push_back(output.data());
  std::vector<double> seconds;
  py::gil_scoped_release release;
  MeshLauncher launcher = threadsLauncher();
  for (int64_t r = 0; r < repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    compiled_->run(in, out, launcher);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return seconds;
}

py::tuple evaluateGraph(const GraphHandle &source, const py::args &arrays,
                        const CustomCallSource &customCalls, const driver::MemoryLimit &memory) {
  const Graph &graph = source.verified();
  CustomCallFunctions functions = customCalls.resolve(source, graph);
  source.placed([&] { driver::requireFits("eval", driver::interpreterDemand(graph), memory); });
  const std::vector<RegionArgument> &args = graph.main.args;
  if (arrays.size() != args.size())
    throw py::type_error(graph.name + " takes " + std::to_string(args.size()) + " inputs (" +
                         namesOf(graph, args) + "), got " + std::to_string(arrays.size()));
  std::vector<Literal> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value &value = graph.value(args[i].value);
    BoundTensor bound = bindTensor(
        arrays[i], *value.type, "input " + std::to_string(i) + " (" + quotedName(value.name) + ")");
    inputs.push_back(literalOf(bound, *value.type));
  }
  std::vector<Literal> outputs;
  {
    py::gil_scoped_release release;
    outputs =
        source.placed([&] { return evaluate(graph, inputs, driver::evalOptionsWith(functions)); });
  }
  py::tuple result(outputs.size());
  for (size_t j = 0; j < outputs.size(); ++j)
    result[j] = arrayOf(outputs[j]);
  return result;
}

} // namespace shardgen::python
