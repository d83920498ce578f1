#include "compiler/codegen/JitRunner.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/codegen/EmbeddedFiles.h"
#include "compiler/ir/InternalError.h"
#include "compiler/partition/ShardLayout.h"
#include "runtime/include/shardgen/launch.h"
#include "runtime/include/shardgen/mesh.h"
#include "runtime/include/shardgen/runtime.h"

namespace shardgen {

namespace rt = shardgen::runtime;

namespace {

constexpr std::string_view kVirtualInclude = "/shardgen-embedded/include";

/// The embedded kernel library and runtime headers, at their include paths.
std::vector<std::pair<std::string, std::string>> embeddedHeaders() {
  std::vector<std::pair<std::string, std::string>> headers;
  for (const codegen::EmbeddedFile &file : codegen::embeddedFiles()) {
    std::string_view path = file.path;
    std::string relative;
    if (path.starts_with("templates/kernels/"))
      relative = path.substr(std::string_view("templates/").size());
    else if (path.starts_with("runtime/include/"))
      relative = path.substr(std::string_view("runtime/include/").size());
    else
      continue;
    headers.emplace_back(std::string(kVirtualInclude) + "/" + relative, std::string(file.contents));
  }
  return headers;
}

// The runtime functions device code calls (shardgen/runtime.h), as C++
// expressions: the host takes their addresses, clang tells their linker names.
#define SHARDGEN_RUNTIME_ENTRY_POINTS(X)                                                           \
  X(&shardgen::runtime::allReduce)                                                                 \
  X(&shardgen::runtime::allGather)                                                                 \
  X(&shardgen::runtime::reduceScatter)                                                             \
  X(&shardgen::runtime::allToAll)                                                                  \
  X(&shardgen::runtime::collectivePermute)                                                         \
  X(&shardgen::runtime::axisIndex)                                                                 \
  X(&shardgen::runtime::groupSize)                                                                 \
  X(&shardgen::runtime::groupPosition)                                                             \
  X(&shardgen::runtime::barrier)                                                                   \
  X(&shardgen::runtime::exchange)                                                                  \
  X(&shardgen::runtime::traceOp)                                                                   \
  X(&shardgen::runtime::acquireArena)                                                              \
  X(&shardgen::runtime::releaseArena)

/// The runtime's entry points by linker name: computed once per process by
/// compiling their addresses against the embedded runtime.h (or read from
/// the compile cache in `cacheDir`, where that probe is cached).
const std::map<std::string, void *> &
runtimeSymbols(const std::string &cacheDir,
               const std::function<void(const std::string &)> &cacheWarning) {
  static const std::map<std::string, void *> symbols = [&] {
#define SHARDGEN_EXPRESSION(f) #f,
#define SHARDGEN_ADDRESS(f) reinterpret_cast<void *>(f),
    const std::vector<std::string> expressions = {
        SHARDGEN_RUNTIME_ENTRY_POINTS(SHARDGEN_EXPRESSION)};
    const std::vector<void *> addresses = {SHARDGEN_RUNTIME_ENTRY_POINTS(SHARDGEN_ADDRESS)};
#undef SHARDGEN_EXPRESSION
#undef SHARDGEN_ADDRESS
    JitOptions options;
    options.includeDirs.push_back(std::string(kVirtualInclude));
    options.virtualFiles = embeddedHeaders();
    options.cacheDir = cacheDir;
    options.cacheWarning = cacheWarning;
    std::vector<std::string> names =
        linkerNamesOf("#include \"shardgen/runtime.h\"\n", expressions, options);
    std::map<std::string, void *> table;
    for (size_t i = 0; i < names.size(); ++i)
      table.emplace(names[i], addresses[i]);
    return table;
  }();
  return symbols;
}

} // namespace

JitOptions generatedCodeJitOptions(const CustomCallFunctions &customCalls,
                                   const std::string &cacheDir,
                                   const std::function<void(const std::string &)> &cacheWarning) {
  JitOptions options;
  options.optLevel = 2;
  options.includeDirs.push_back(std::string(kVirtualInclude));
  options.virtualFiles = embeddedHeaders();
  options.cacheDir = cacheDir;
  options.cacheWarning = cacheWarning;
  options.hostSymbols = baseHostSymbols();
  const std::map<std::string, void *> &runtime = runtimeSymbols(cacheDir, cacheWarning);
  options.hostSymbols.insert(runtime.begin(), runtime.end());
  for (const auto &[target, function] : customCalls)
    if (!options.hostSymbols.emplace(target, reinterpret_cast<void *>(function)).second)
      throw JitError("custom_call target '" + target +
                         "' has the name of a symbol generated code links against",
                     "");
  return options;
}

namespace {

/// The device program's files, compiled in parallel into one module.
std::vector<JitSource> jitSources(const GeneratedProgram &generated) {
  std::vector<JitSource> sources;
  for (auto &[name, source] : deviceSources(generated))
    sources.push_back({name, source});
  return sources;
}

} // namespace

MeshLauncher threadsLauncher(const rt::LaunchOptions &options) {
  return [options](const rt::DeviceMesh &mesh, const rt::DeviceFunction &function) {
    rt::launch(mesh, function, options);
  };
}

CompiledProgram::CompiledProgram(const SpmdProgram &program, const GeneratedProgram &generated,
                                 const JitOptions &options)
    : program_(program), module_(compileCppUnits(jitSources(generated), options)) {
  entry_ = module_->lookupFunction<Entry>(deviceEntryPoint(generated));
}

std::vector<Literal> CompiledProgram::run(const std::vector<Literal> &inputs,
                                          const rt::LaunchOptions &options) const {
  return runImpl(inputs, threadsLauncher(options), nullptr);
}

std::vector<Literal> CompiledProgram::run(const std::vector<Literal> &inputs,
                                          const MeshLauncher &launcher) const {
  return runImpl(inputs, launcher, nullptr);
}

std::vector<Literal> CompiledProgram::run(const std::vector<Literal> &inputs,
                                          const rt::LaunchOptions &options,
                                          std::vector<std::vector<Literal>> &shards) const {
  return runImpl(inputs, threadsLauncher(options), &shards);
}

void CompiledProgram::run(const std::vector<const void *> &inputs,
                          const std::vector<void *> &outputs, const MeshLauncher &launcher) const {
  runImpl(inputs, outputs, launcher, nullptr);
}

rt::DeviceMesh CompiledProgram::deviceMesh() const {
  std::vector<rt::MeshAxis> axes;
  for (const MeshAxis &axis : program_.mesh.axes)
    axes.push_back(rt::MeshAxis{axis.name, axis.size});
  std::vector<int64_t> deviceIds;
  if (program_.mesh.deviceIds.size() > 1)
    deviceIds = program_.mesh.deviceIds;
  return rt::DeviceMesh(axes, deviceIds);
}

void CompiledProgram::runShards(const std::vector<std::vector<const void *>> &inputShards,
                                const std::vector<std::vector<void *>> &outputShards,
                                const MeshLauncher &launcher) const {
  const auto devices = static_cast<size_t>(program_.mesh.numDevices());
  SHARDGEN_CHECK(inputShards.size() == devices && outputShards.size() == devices,
                 "runShards takes the buffers of " + std::to_string(devices) + " positions");
  // Outputs are written in place (mode 4) unless two positions given here
  // share output bytes (one buffer for a replicated output's pieces).
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges; // [begin, end) of every output piece
  for (size_t p = 0; p < devices; ++p)
    for (size_t j = 0; j < outputShards[p].size() && j < program_.outputs.size(); ++j) {
      const auto begin = reinterpret_cast<uintptr_t>(outputShards[p][j]);
      const int64_t bytes =
          localBytes(program_.layout(program_.outputs[j]), static_cast<int64_t>(p));
      if (bytes > 0)
        ranges.emplace_back(begin, begin + static_cast<uintptr_t>(bytes));
    }
  std::sort(ranges.begin(), ranges.end());
  bool apart = true;
  for (size_t k = 1; k < ranges.size(); ++k)
    apart = apart && ranges[k - 1].second <= ranges[k].first;
  Entry *entry = entry_;
  launcher(deviceMesh(), [&](const rt::DeviceContext &device) {
    const auto position = static_cast<size_t>(device.position);
    SHARDGEN_CHECK(inputShards[position].size() == program_.inputs.size() &&
                       outputShards[position].size() == program_.outputs.size(),
                   "position " + std::to_string(position) + " lacks buffers");
    entry(&device, inputShards[position].data(), outputShards[position].data(), apart ? 4 : 0);
  });
}

std::vector<Literal> CompiledProgram::runImpl(const std::vector<Literal> &inputs,
                                              const MeshLauncher &launcher,
                                              std::vector<std::vector<Literal>> *shards) const {
  SHARDGEN_CHECK(inputs.size() == program_.inputs.size(),
                 "the program takes " + std::to_string(program_.inputs.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  std::vector<const void *> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    SHARDGEN_CHECK(inputs[i].type() == program_.layout(program_.inputs[i]).globalType,
                   "input " + std::to_string(i) + " has the wrong type");
    in.push_back(inputs[i].data());
  }
  std::vector<Literal> outputs;
  std::vector<void *> out;
  for (SpmdValueId id : program_.outputs)
    outputs.emplace_back(program_.layout(id).globalType);
  for (Literal &literal : outputs)
    out.push_back(literal.data());
  runImpl(in, out, launcher, shards);
  return outputs;
}

void CompiledProgram::runImpl(const std::vector<const void *> &in, const std::vector<void *> &out,
                              const MeshLauncher &launcher,
                              std::vector<std::vector<Literal>> *shards) const {
  SHARDGEN_CHECK(in.size() == program_.inputs.size() && out.size() == program_.outputs.size(),
                 "the program takes " + std::to_string(program_.inputs.size()) + " inputs and " +
                     std::to_string(program_.outputs.size()) + " outputs");
  const rt::DeviceMesh mesh = deviceMesh();
  // With shards, each device gets the global outputs followed by its own
  // local buffers (the entry point's mode 3).
  std::vector<std::vector<void *>> outPerDevice;
  if (shards) {
    int64_t devices = program_.mesh.numDevices();
    shards->assign(program_.outputs.size(), {});
    for (size_t j = 0; j < program_.outputs.size(); ++j)
      for (int64_t p = 0; p < devices; ++p)
        (*shards)[j].emplace_back(localBufferType(program_.layout(program_.outputs[j]), p));
    for (int64_t p = 0; p < devices; ++p) {
      outPerDevice.push_back(out);
      for (size_t j = 0; j < program_.outputs.size(); ++j)
        outPerDevice.back().push_back((*shards)[j][p].data());
    }
  }
  Entry *entry = entry_;
  launcher(mesh, [&](const rt::DeviceContext &device) {
    if (shards)
      entry(&device, in.data(), outPerDevice[device.position].data(), 3);
    else
      entry(&device, in.data(), out.data(), 1);
  });
}

} // namespace shardgen
