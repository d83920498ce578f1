#pragma once
// Code shared between equal steps. Each step's code becomes a function (a
// kernel) that reads the indices of the buffers it works on from a table;
// steps whose code is the same up to those indices (same templates, shapes
// and constants) share one kernel. So the C++ compiler sees each distinct
// kernel once however many ops use it, and the functions that run the steps
// are loops over constant tables of (kernel, indices), which cost the
// compiler next to nothing. Internal to compiler/codegen.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardgen::codegen {

/// What a kernel's caller provides besides the buffer arrays: the device (a
/// step of runSteps) or only its position (scatter, gather and the
/// per-device copies). Kernels are
///   void kernelN(const rt::DeviceContext &device, unsigned char **values, const int32_t
///   *bufferIds) void kernelN(int64_t position, const void *const *inputs, unsigned char **values,
///                void *const *outputs, const int32_t *bufferIds)
enum class KernelCaller { Device, Position };

struct Kernel {
  std::string name;       // "kernel3"
  std::string definition; // the whole function
  /// Indices of the file-scope constants it names (EmitterContext::constants).
  std::vector<size_t> constants;
};

/// One statement of a generated function: a kernel run on buffers, or code
/// kept verbatim; with the comments that name what it computes.
struct Statement {
  std::string comments;
  int64_t kernel = -1;           // with the indices of its buffers:
  std::vector<int32_t> buffers;  // values[bufferIds[k]] is values[buffers[k]]
  std::string trace;             // "" or the op traced first (a C++ string literal)
  std::string verbatim;          // code that names a buffer array as a whole
  std::vector<size_t> constants; // the constants verbatim code names
};

class KernelTable {
public:
  /// The statement running `code` (code that names buffers as values[v],
  /// inputs[i] and outputs[j]): the kernel of its canonical form, added
  /// unless an equal one exists, and its buffer indices. Its comment lines
  /// go to the statement (they name values). `constants` are the constants
  /// the code names.
  Statement call(const std::string &code, KernelCaller caller,
                 const std::vector<size_t> &constants);

  const std::vector<Kernel> &kernels() const { return kernels_; }

private:
  std::vector<Kernel> kernels_;
  std::unordered_map<std::string, size_t> byKey_; // canonical text -> kernel
};

} // namespace shardgen::codegen
