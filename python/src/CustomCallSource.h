#pragma once
// Where a program's (or eval's) custom_call targets come from, as the
// Python module takes them: custom_calls="LIB.so" (a shared library, as the
// tool's --custom-calls), or {"target": function} (Python functions).

#include <pybind11/pybind11.h>

#include <memory>

#include "Graph.h"
#include "PythonCustomCalls.h"
#include "compiler/driver/CustomCallLibrary.h"

namespace shardgen::python {

namespace py = pybind11;

class CustomCallSource {
public:
  /// None, a path (str or os.PathLike) or a mapping of names to callables
  /// (GIL held). Throws TypeError for anything else, OSError for a library
  /// that cannot be loaded.
  static CustomCallSource from(py::handle customCalls);

  /// The function of every custom_call target of `graph` (a GraphError of
  /// `source` for one without).
  CustomCallFunctions resolve(const GraphHandle &source, const Graph &graph) const;

private:
  std::shared_ptr<driver::CustomCallLibrary> library_;
  std::shared_ptr<PythonCustomCalls> python_; // freed with the GIL held (by its holder)
};

} // namespace shardgen::python
