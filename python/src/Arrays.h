#pragma once
// Tensors between Python and a program: numpy dtypes of shardgen's element
// types, inputs bound without a copy (numpy arrays, anything with
// __dlpack__ on the CPU, anything with the buffer protocol), and outputs as
// numpy arrays that own their memory.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h> // in every unit that converts: one set of type casters

#include <memory>
#include <string>

#include "compiler/ir/Literal.h"
#include "compiler/ir/TensorType.h"

namespace shardgen::python {

namespace py = pybind11;

/// Looks ml_dtypes up once (call with the module).
void initDtypes();

/// The numpy dtype of `type`: bf16 is ml_dtypes.bfloat16 when that package
/// is importable, else uint16 (the bit patterns).
py::dtype dtypeOf(ElementType type);

/// "float32 of shape (8, 16)": what a program wants, in numpy's words.
std::string describeWanted(const TensorType &type);

/// An object's memory, held for a run: `data` stays valid while this lives.
class BoundTensor {
public:
  BoundTensor() = default;
  BoundTensor(BoundTensor &&) noexcept;
  BoundTensor &operator=(BoundTensor &&) noexcept;
  BoundTensor(const BoundTensor &) = delete;
  BoundTensor &operator=(const BoundTensor &) = delete;
  ~BoundTensor(); // needs the GIL

  const void *data = nullptr;

private:
  friend BoundTensor bindTensor(py::handle, const TensorType &, const std::string &);
  // The three kinds of object bindTensor takes, each checked against `type`.
  static BoundTensor fromArray(py::handle object, const TensorType &type, const std::string &what);
  static BoundTensor fromDlpack(py::handle object, const TensorType &type, const std::string &what);
  static BoundTensor fromBuffer(py::handle object, const TensorType &type, const std::string &what);

  py::object owner_;                  // a numpy array
  std::unique_ptr<Py_buffer> buffer_; // a buffer-protocol view
  void *managed_ = nullptr;           // a DLPack DLManagedTensor we consumed
};

/// `object` as a tensor of exactly `type` (C-contiguous, aligned), without a
/// copy. Throws TypeError naming `what` ("input 0 (\"x\")"), what it got
/// and what the program wants.
BoundTensor bindTensor(py::handle object, const TensorType &type, const std::string &what);

/// A new uninitialized numpy array of `type` (it owns its memory).
py::array newArray(const TensorType &type);

/// `literal` copied into a new numpy array.
py::array arrayOf(const Literal &literal);

/// The bound tensor's bytes copied into a Literal of `type`.
Literal literalOf(const BoundTensor &tensor, const TensorType &type);

} // namespace shardgen::python
