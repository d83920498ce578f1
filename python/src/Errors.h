#pragma once
// shardgen's errors as Python exceptions: shardgen.GraphError (bad input,
// placed in its source: file, JSON pointer, line and column), InternalError
// (a bug in shardgen), CheckError (a compiled result differs from the
// reference interpreter's), and the built-in ones where Python has one
// (TimeoutError, KeyboardInterrupt, OSError, ValueError).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h> // in every unit that converts: one set of type casters

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace shardgen::python {

namespace py = pybind11;

/// A GraphError placed in the source it came from; what() is the line the
/// shardgen tool prints ("mlp.json:/ops/3: error: ...", "m.mlir:12:5: ...").
class PlacedGraphError : public std::runtime_error {
public:
  PlacedGraphError(std::string file, std::string pointer, std::string place, int64_t line,
                   int64_t column, std::string message);
  std::string file, pointer, place;
  int64_t line, column; // 0: unknown
  std::string message;  // without the place
};

/// A compiled result that differs from the reference interpreter's.
class CheckFailure : public std::runtime_error {
public:
  CheckFailure(const std::string &text, size_t output, std::string name, std::vector<int64_t> index,
               std::string actual, std::string expected, std::string bound, int64_t differing)
      : std::runtime_error(text), output(output), name(std::move(name)), index(std::move(index)),
        actual(std::move(actual)), expected(std::move(expected)), bound(std::move(bound)),
        differing(differing) {}
  size_t output;
  std::string name;
  std::vector<int64_t> index;
  std::string actual, expected, bound;
  int64_t differing;
};

/// Creates shardgen.Error, GraphError, InternalError and CheckError in `m`
/// and translates C++ exceptions to them (and to Python's built-in ones).
void registerErrors(py::module_ &m);

} // namespace shardgen::python
