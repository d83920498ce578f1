#include "bench/codegen_bench_util.h"

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "compiler/codegen/JitRunner.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/pipeline/Pipeline.h"
#include "shardgen/runtime.h"

namespace shardgen::bench {

// runSteps is file-local in the generated program; this export, appended to
// the same translation unit, reaches it.
static const char kStepsExport[] =
    "\nextern \"C\" void shardgen_bench_steps(const void *device, unsigned char **values) {\n"
    "  runSteps(*static_cast<const rt::DeviceContext *>(device), values);\n"
    "}\n";

BenchProgram::BenchProgram(const std::string &json)
    : BenchProgram(std::function<Graph()>([&] { return readGraph(json); })) {}

BenchProgram::BenchProgram(const std::function<Graph()> &frontend) {
  // The JIT pass is this file's own: the program's steps are exported.
  pipeline::CompiledGraph passes = pipeline::compileGraph(frontend, pipeline::Until::Generate);
  graph_ = std::move(passes.graph);
  program_ = std::move(*passes.program);
  if (program_.mesh.numDevices() != 1)
    throw std::invalid_argument("bench programs run on one device");
  generated_ = std::move(passes.generated);
  module_ = compileCpp(generated_.source + kStepsExport, generated_.name + ".cpp",
                       generatedCodeJitOptions());
  steps_ = module_->lookupFunction<StepsFn>("shardgen_bench_steps");
}

void BenchProgram::runSteps(const std::vector<void *> &inputs, const std::vector<void *> &outputs) {
  if (inputs.size() != program_.inputs.size() || outputs.size() != program_.outputs.size())
    throw std::invalid_argument("wrong number of buffers");
  std::vector<unsigned char *> values(program_.values.size(), nullptr);
  for (size_t i = 0; i < inputs.size(); ++i)
    values[program_.inputs[i]] = static_cast<unsigned char *>(inputs[i]);
  for (size_t i = 0; i < outputs.size(); ++i)
    values[program_.outputs[i]] = static_cast<unsigned char *>(outputs[i]);
  // Intermediates (unfused ones) get real memory, sized for the largest.
  int64_t spareBytes = 64;
  for (const SpmdValue &value : program_.values)
    spareBytes = std::max(spareBytes, value.layout.globalType.numElements() * 8);
  size_t unbound = 0;
  for (unsigned char *v : values)
    unbound += v == nullptr;
  if (spare_.size() < unbound * spareBytes)
    spare_.assign(unbound * spareBytes, 0);
  size_t next = 0;
  for (unsigned char *&v : values)
    if (!v)
      v = spare_.data() + (next++) * spareBytes;
  runtime::DeviceContext device;
  steps_(&device, values.data());
}

std::vector<float> randomFloats(int64_t n, float scale) {
  std::vector<float> out(n);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (float &x : out) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = scale *
        (static_cast<float>(static_cast<int64_t>(state >> 40) - (1 << 23)) / float(1 << 23));
  }
  return out;
}

double benchNow() {
  static const bool cpu = [] {
    const char *clock = std::getenv("SHARDGEN_BENCH_CLOCK");
    return clock && std::strcmp(clock, "cpu") == 0;
  }();
  if (!cpu)
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

} // namespace shardgen::bench
