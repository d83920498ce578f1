#pragma once
// The classes and functions of shardgen._shardgen, bound by Module.cpp.

#include <pybind11/pybind11.h>

namespace shardgen::python {

namespace py = pybind11;

/// shardgen.Graph and shardgen.load.
void bindGraph(py::module_ &m);
/// shardgen.Program, shardgen.compile and shardgen.eval.
void bindProgram(py::module_ &m);

} // namespace shardgen::python
