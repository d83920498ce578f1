#include "Errors.h"

#include <new>

#include "compiler/driver/MeshSizes.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InputError.h"
#include "compiler/ir/InternalError.h"
#include "runtime/include/shardgen/launch.h"

namespace shardgen::python {

PlacedGraphError::PlacedGraphError(std::string file, std::string pointer, std::string place,
                                   int64_t line, int64_t column, std::string message)
    : std::runtime_error(file + ":" + place + ": error: " + message), file(std::move(file)),
      pointer(std::move(pointer)), place(std::move(place)), line(line), column(column),
      message(std::move(message)) {}

namespace {

// The exception classes, created once with the module (never freed: the
// module's classes live as long as the interpreter).
PyObject *errorType = nullptr;
PyObject *graphErrorType = nullptr;
PyObject *internalErrorType = nullptr;
PyObject *checkErrorType = nullptr;

PyObject *newException(py::module_ &m, const char *name, const char *doc, py::tuple bases) {
  std::string qualified = "shardgen." + std::string(name);
  PyObject *type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (!type)
    throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

py::object orNone(int64_t value) { return value > 0 ? py::object(py::int_(value)) : py::none(); }

/// Raises `type(message)` with `attributes` set on the instance.
void raiseWith(PyObject *type, const std::string &message, const py::dict &attributes) {
  py::object instance = py::reinterpret_borrow<py::object>(type)(message);
  for (auto [key, value] : attributes)
    py::setattr(instance, key, value);
  PyErr_SetObject(type, instance.ptr());
}

void createExceptions(py::module_ &m) {
  errorType = newException(m, "Error", "The base of shardgen's own exceptions.",
                           py::make_tuple(py::handle(PyExc_Exception)));
  graphErrorType = newException(
      m, "GraphError",
      "Bad input: what the shardgen tool reports with exit status 1. str(e) is its message\n"
      "(FILE:POINTER: error: ... for JSON, FILE:LINE:COLUMN: error: ... for MLIR). Attributes:\n"
      "file, pointer (the JSON pointer, or None), line and column (1-based, or None),\n"
      "message (without the place).",
      py::make_tuple(py::handle(errorType), py::handle(PyExc_ValueError)));
  internalErrorType = newException(
      m, "InternalError", "A bug in shardgen (exit status 4 of the tool), never bad input.",
      py::make_tuple(py::handle(errorType), py::handle(PyExc_RuntimeError)));
  checkErrorType = newException(
      m, "CheckError",
      "A compiled program's output differs from the reference interpreter's by more than\n"
      "the error bound (Program.check). Attributes: output (its index), name, index (the\n"
      "worst element), actual, expected, bound (as text), differing (how many differ).",
      py::make_tuple(py::handle(errorType), py::handle(PyExc_AssertionError)));
}

void raisePlaced(const PlacedGraphError &error) {
  py::dict attributes;
  attributes["file"] = error.file;
  attributes["pointer"] = error.pointer.empty() || error.pointer[0] == '/'
                              ? py::object(py::str(error.pointer))
                              : py::object(py::none());
  attributes["line"] = orNone(error.line);
  attributes["column"] = orNone(error.column);
  attributes["message"] = error.message;
  raiseWith(graphErrorType, error.what(), attributes);
}

void raiseUnplaced(const GraphError &error) {
  py::dict attributes;
  attributes["file"] = py::none();
  attributes["pointer"] = error.pointer();
  attributes["line"] = py::none();
  attributes["column"] = py::none();
  attributes["message"] = error.what();
  raiseWith(graphErrorType, "shardgen:" + error.pointer() + ": error: " + error.what(), attributes);
}

void raiseCheck(const CheckFailure &error) {
  py::dict attributes;
  attributes["output"] = error.output;
  attributes["name"] = error.name;
  attributes["index"] = py::tuple(py::cast(error.index));
  attributes["actual"] = error.actual;
  attributes["expected"] = error.expected;
  attributes["bound"] = error.bound;
  attributes["differing"] = error.differing;
  raiseWith(checkErrorType, error.what(), attributes);
}

/// pybind11's exception translator: the Python exception of each error.
/// (By value: the signature register_exception_translator takes.)
void translate(std::exception_ptr pointer) { // NOLINT(performance-unnecessary-value-param)
  try {
    if (pointer)
      std::rethrow_exception(pointer);
  } catch (const py::builtin_exception &) {
    throw; // pybind11's own (TypeError, ValueError, ...)
  } catch (const py::error_already_set &) {
    throw; // a Python exception, e.g. raised by a custom call
  } catch (const PlacedGraphError &error) {
    raisePlaced(error);
  } catch (const GraphError &error) {
    raiseUnplaced(error);
  } catch (const CheckFailure &error) {
    raiseCheck(error);
  } catch (const InputError &error) {
    PyErr_SetString(PyExc_OSError, (error.where() + ": error: " + error.what()).c_str());
  } catch (const driver::MeshSizeError &error) {
    PyErr_SetString(PyExc_ValueError, (std::string("mesh: ") + error.what()).c_str());
  } catch (const runtime::RunTimeout &error) {
    PyErr_SetString(PyExc_TimeoutError, error.what());
  } catch (const runtime::RunCancelled &) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
  } catch (const std::bad_alloc &) {
    PyErr_SetString(PyExc_MemoryError, "out of memory");
  } catch (const std::exception &error) {
    // InternalError, JitError (generated code that does not compile) and
    // anything else: every input problem is one of the errors above.
    PyErr_SetString(internalErrorType,
                    ("internal error (a bug in shardgen): " + std::string(error.what())).c_str());
  }
}

} // namespace

void registerErrors(py::module_ &m) {
  createExceptions(m);
  py::register_exception_translator(&translate);
}

} // namespace shardgen::python
