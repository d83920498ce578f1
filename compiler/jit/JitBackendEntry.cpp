// The one symbol libshardgen-jit.so exports: the table of its entry points
// (JitBackend.h), which JitLoader.cpp finds with dlsym.
#include "compiler/jit/HostTarget.h"
#include "compiler/jit/JitBackend.h"

extern "C" __attribute__((visibility("default"))) const shardgen::jit::Backend *
shardgen_jit_backend() {
  using namespace shardgen;
  static const jit::Backend backend{jit::kBackendAbi,      sizeof(JitOptions),  sizeof(JitSource),
                                    &jit::compileCppUnits, &jit::linkerNamesOf, &jit::hostCpuName};
  return &backend;
}
