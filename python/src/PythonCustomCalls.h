#pragma once
// Python functions as custom_call targets. Generated code (and the
// interpreter) call a target through a plain C function pointer with no
// user data, so each Python function gets one of a fixed pool of C
// functions for as long as its program (or eval) holds it. Such a function
// takes the GIL, hands the operands to Python as numpy arrays (copies: no
// pointer outlives the call), and copies the returned arrays into the
// results after checking their dtypes and shapes. An exception the
// function raises ends the run (on every device) and is raised in the
// caller.

#include <pybind11/pybind11.h>

#include <map>
#include <string>
#include <vector>

#include "compiler/codegen/JitRunner.h"

namespace shardgen::python {

namespace py = pybind11;

/// How many Python custom-call functions may be held at once (programs and
/// eval calls alive together).
inline constexpr int kCustomCallSlots = 512;

class PythonCustomCalls {
public:
  /// Takes a slot per function (the GIL held). Throws RuntimeError when the
  /// pool is used up.
  explicit PythonCustomCalls(const std::map<std::string, py::function> &functions);
  ~PythonCustomCalls(); // gives the slots back; needs the GIL
  PythonCustomCalls(const PythonCustomCalls &) = delete;
  PythonCustomCalls &operator=(const PythonCustomCalls &) = delete;

  /// The C function of each target.
  const CustomCallFunctions &functions() const { return functions_; }

private:
  std::vector<int> slots_;
  CustomCallFunctions functions_;
};

} // namespace shardgen::python
