// The extension shardgen._shardgen (python/shardgen/__init__.py re-exports
// it): errors, dtypes, then the Graph and Program bindings.

#include <pybind11/pybind11.h>

#include "Arrays.h"
#include "Bindings.h"
#include "Errors.h"

PYBIND11_MODULE(_shardgen, m) {
  m.doc() = "shardgen: compile sharded tensor programs and run them on numpy arrays.";
  shardgen::python::registerErrors(m);
  shardgen::python::initDtypes();
  shardgen::python::bindGraph(m);
  shardgen::python::bindProgram(m);
}
