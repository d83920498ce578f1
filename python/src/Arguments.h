#pragma once
// The Python API's arguments as the compiler's types (a bad one is a
// TypeError or ValueError), and the plain data types of shardgen._types.

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "compiler/driver/MemoryBudget.h"
#include "compiler/driver/MeshSizes.h"
#include "compiler/ir/Graph.h"
#include "compiler/propagate/Propagation.h"

namespace shardgen::python {

namespace py = pybind11;

/// shardgen._types.NAME (Sharding, TensorSpec, Layout, Piece, Layouts, Show).
py::object pythonType(const char *name);

/// "user-priority", ... (ValueError otherwise).
PropagationStrategy strategyArgument(const std::string &name);
/// None or {"data": 4, ...}.
driver::MeshSizes meshArgument(py::handle mesh);
/// None (the machine's), a number of bytes, or "4G".
driver::MemoryLimit memoryArgument(py::handle maxMemory);
/// None (no limit) or positive seconds; 0 for none.
double timeoutArgument(py::handle timeout);

/// TensorSpec(name, dtype, shape, type) of each slot (inputs or outputs).
py::list tensorSpecs(const Graph &graph, const std::vector<RegionArgument> &slots);

} // namespace shardgen::python
