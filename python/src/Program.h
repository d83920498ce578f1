#pragma once
// shardgen.Program: a graph propagated, partitioned, generated and compiled
// by the JIT once, called many times on arrays of the caller's (the global
// call style) or on per-device pieces (the pmap style).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Arrays.h"
#include "CustomCallSource.h"
#include "Graph.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/driver/MemoryBudget.h"
#include "compiler/interp/ResultCheck.h"
#include "compiler/pipeline/Pipeline.h"

namespace shardgen::python {

namespace py = pybind11;

struct CompileOptions {
  PropagationStrategy strategy = PropagationStrategy::UserPriority;
  bool cache = true;
  driver::MemoryLimit memory;
  bool verifySpmd = false;
};

/// One device's piece of a tensor: its box in the global tensor (or, for a
/// distributed tensor, its local buffer [k, shard...] and the k chunks'
/// boxes, edge chunks clipped).
struct Piece {
  int64_t position = 0, device = 0;
  std::vector<int64_t> offset, shape;
  std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> chunks; // (offset, extent)
};

/// How an input or output is split over the mesh.
struct Layout {
  std::string name;
  TensorType type;
  std::string mesh;                        // "@mesh [data=2, model=2]"
  std::optional<std::string> sharding;     // Shardy's text
  std::optional<std::string> distribution; // a distributed tensor's
  std::vector<std::string> partialAxes;    // an unreduced output's pieces are partial sums
  std::vector<Piece> pieces;               // by mesh position
};

class ProgramHandle {
public:
  /// Compiles (the GIL released while the passes run).
  ProgramHandle(std::shared_ptr<GraphHandle> source, CustomCallSource customCalls,
                const CompileOptions &options);
  ~ProgramHandle(); // with the GIL held

  /// The global call style: one array per input; a tuple of new arrays.
  py::tuple call(const py::args &arrays, double timeoutSeconds);
  /// The pmap style: per mesh position, one piece per input (exactly its
  /// layout's piece); per position, a tuple of its output pieces.
  py::list runShards(py::handle perDevice, double timeoutSeconds);
  /// call(), then the outputs compared with the reference interpreter's
  /// within its error bounds (or rtol/atol): CheckError at the worst element.
  py::tuple check(const py::args &arrays, std::optional<double> rtol, std::optional<double> atol,
                  double timeoutSeconds);

  const std::shared_ptr<GraphHandle> &source() const { return source_; }
  const Graph &graph() const { return *graph_; }
  const SpmdProgram &program() const { return *program_; }
  const GeneratedProgram &generated() const { return generated_; }
  const pipeline::PassTimings &timings() const { return timings_; }
  PropagationStrategy strategy() const { return strategy_; }

  std::vector<Layout> layouts(bool outputs) const;
  /// The communication manifest: a dict per collective.
  py::list report() const;
  std::string reportText() const;
  /// Writes what `shardgen compile` writes into `dir` (all or nothing).
  void writeSources(const std::string &dir, const std::string &name, bool mpi) const;

  /// Bench hook: per call, the seconds of `repeat` runs of the compiled
  /// code on `arrays` bound once (what a C++ caller of CompiledProgram::run
  /// with its buffers at hand pays).
  std::vector<double> timeBoundCalls(int64_t repeat, const py::args &arrays);

private:
  std::vector<BoundTensor> bindInputs(const py::args &arrays) const;
  template <typename Run> void launch(double timeoutSeconds, Run &&run);

  std::shared_ptr<GraphHandle> source_;
  CustomCallSource customCalls_; // outlives compiled_: its functions are linked in
  CustomCallFunctions functions_;
  std::unique_ptr<Graph> graph_; // program_ points into it
  std::unique_ptr<SpmdProgram> program_;
  GeneratedProgram generated_;
  std::unique_ptr<CompiledProgram> compiled_;
  pipeline::PassTimings timings_;
  PropagationStrategy strategy_;
  driver::MemoryLimit memory_;
  std::vector<TensorType> inputTypes_, outputTypes_;
  std::vector<std::string> inputNames_; // "input 0 (\"x\")"
};

/// shardgen.eval: the reference interpreter on whole tensors.
py::tuple evaluateGraph(const GraphHandle &source, const py::args &arrays,
                        const CustomCallSource &customCalls, const driver::MemoryLimit &memory);

} // namespace shardgen::python
