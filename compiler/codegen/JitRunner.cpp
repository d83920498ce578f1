#include "compiler/codegen/JitRunner.h"

#include <stdexcept>
#include <string>

#include "compiler/codegen/EmbeddedFiles.h"
#include "runtime/include/shardgen/launch.h"
#include "runtime/include/shardgen/mesh.h"
#include "runtime/include/shardgen/runtime.h"

namespace shardgen {

namespace rt = shardgen::runtime;

// JIT-ed programs call the runtime through this executable's exported
// symbols; naming the device-facing functions here links them in even when
// nothing else in the process uses them.
[[maybe_unused]] __attribute__((used)) static void *const kRuntimeEntryPoints[] = {
    reinterpret_cast<void *>(&rt::allReduce),     reinterpret_cast<void *>(&rt::allGather),
    reinterpret_cast<void *>(&rt::reduceScatter), reinterpret_cast<void *>(&rt::allToAll),
    reinterpret_cast<void *>(&rt::collectivePermute), reinterpret_cast<void *>(&rt::axisIndex),
    reinterpret_cast<void *>(&rt::groupSize),     reinterpret_cast<void *>(&rt::groupPosition),
    reinterpret_cast<void *>(&rt::barrier),       reinterpret_cast<void *>(&rt::traceOp)};

static constexpr std::string_view kVirtualInclude = "/shardgen-embedded/include";

JitOptions generatedCodeJitOptions() {
  JitOptions options;
  options.optLevel = 2;
  options.includeDirs.push_back(std::string(kVirtualInclude));
  for (const codegen::EmbeddedFile &file : codegen::embeddedFiles()) {
    std::string_view path = file.path;
    std::string relative;
    if (path.starts_with("templates/kernels/"))
      relative = path.substr(std::string_view("templates/").size());
    else if (path.starts_with("runtime/include/"))
      relative = path.substr(std::string_view("runtime/include/").size());
    else
      continue;
    options.virtualFiles.emplace_back(std::string(kVirtualInclude) + "/" + relative,
                                      std::string(file.contents));
  }
  return options;
}

CompiledProgram::CompiledProgram(const SpmdProgram &program, const GeneratedProgram &generated,
                                 const JitOptions &options)
    : program_(program),
      module_(compileCpp(generated.source, generated.name + ".cpp", options)) {
  entry_ = module_->lookupFunction<Entry>(deviceEntryPoint(generated));
}

std::vector<Literal> CompiledProgram::run(const std::vector<Literal> &inputs,
                                          const rt::LaunchOptions &options) const {
  if (inputs.size() != program_.inputs.size())
    throw std::invalid_argument("the program takes " + std::to_string(program_.inputs.size()) +
                                " inputs, got " + std::to_string(inputs.size()));
  std::vector<const void *> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].type() != program_.layout(program_.inputs[i]).globalType)
      throw std::invalid_argument("input " + std::to_string(i) + " has the wrong type");
    in.push_back(inputs[i].data());
  }
  std::vector<Literal> outputs;
  std::vector<void *> out;
  for (SpmdValueId id : program_.outputs)
    outputs.emplace_back(program_.layout(id).globalType);
  for (Literal &literal : outputs)
    out.push_back(literal.data());

  std::vector<rt::MeshAxis> axes;
  for (const MeshAxis &axis : program_.mesh.axes)
    axes.push_back(rt::MeshAxis{axis.name, axis.size});
  std::vector<int64_t> deviceIds;
  if (program_.mesh.deviceIds.size() > 1)
    deviceIds = program_.mesh.deviceIds;
  rt::DeviceMesh mesh(axes, deviceIds);
  Entry *entry = entry_;
  rt::launch(mesh, [&](const rt::DeviceContext &device) {
    entry(&device, in.data(), out.data(), 1);
  }, options);
  return outputs;
}

} // namespace shardgen
