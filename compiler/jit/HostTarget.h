// The host CPU the JIT compiles for. Without it LLVM targets generic x86-64
// and the kernels lose their vector width (measured 4.7x slower).
#pragma once

#include <string>
#include <vector>

namespace shardgen::jit {

/// The LLVM name of the host CPU (e.g. "znver4"); shardgen::hostCpuName()
/// reaches it through the loaded JIT module.
std::string hostCpuName();

/// The host's CPU features as target features: "+avx2", "-avx512f", ...
std::vector<std::string> hostCpuFeatures();

} // namespace shardgen::jit
