#pragma once
// Code shared between equal steps. Each step's code becomes a function (a
// kernel) of the buffers it names; steps whose code is the same up to which
// buffers it names (same templates, shapes and constants) call one kernel.
// So the C++ compiler sees each distinct kernel once however many ops use
// it, and the functions that run the steps hold calls only. Internal to
// compiler/codegen.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardgen::codegen {

/// What a kernel's caller provides besides buffers: the device (a step of
/// runSteps) or only its position (scatter, gather and the per-device copies).
enum class KernelCaller { Device, Position };

struct Kernel {
  std::string name;       // "kernel3"
  std::string definition; // the whole function
  /// Indices of the file-scope constants it names (EmitterContext::constants).
  std::vector<size_t> constants;
};

/// One statement of a generated function: a kernel call with its comments,
/// or code kept verbatim (kernel -1).
struct Statement {
  std::string text;
  int64_t kernel = -1;
  std::vector<size_t> constants; // the constants verbatim code names
};

class KernelTable {
public:
  /// The statement running `code` (code that names buffers as values[v],
  /// inputs[i] and outputs[j]): a call of the kernel of its canonical form,
  /// added unless an equal one exists. Its comment lines come first in the
  /// statement (they name values). Code that rebinds a buffer pointer
  /// ("values[4] = values[2];") stays verbatim. `constants` are the
  /// constants the code names.
  Statement call(const std::string &code, KernelCaller caller,
                 const std::vector<size_t> &constants);

  const std::vector<Kernel> &kernels() const { return kernels_; }

private:
  std::vector<Kernel> kernels_;
  std::unordered_map<std::string, size_t> byKey_; // canonical text -> kernel
};

} // namespace shardgen::codegen
