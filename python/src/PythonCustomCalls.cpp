#include "PythonCustomCalls.h"

#include <pybind11/numpy.h>

#include <array>
#include <cstring>
#include <mutex>
#include <utility>

#include "Arrays.h"

namespace shardgen::python {

namespace {

struct Slot {
  bool used = false;
  std::string target;
  py::object function; // set and cleared with the GIL held
};

std::mutex slotsMutex;
std::array<Slot, kCustomCallSlots> slots;

ElementType elementTypeOf(shardgen_element_type type) {
  static const ElementType kTypes[] = {ElementType::F32,
                                       ElementType::F64,
                                       ElementType::F16,
                                       ElementType::BF16,
                                       ElementType::I1,
                                       ElementType::I8,
                                       ElementType::I32,
                                       ElementType::I64,
                                       ElementType::UI8,
                                       ElementType::UI32,
                                       ElementType::I16,
                                       ElementType::UI16,
                                       ElementType::UI64,
                                       ElementType::C64,
                                       ElementType::C128,
                                       ElementType::I2,
                                       ElementType::I4,
                                       ElementType::UI2,
                                       ElementType::UI4,
#define SHARDGEN_MINI_FLOAT_TYPE(Name, mlirName) ElementType::Name,
                                       SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_TYPE)
#undef SHARDGEN_MINI_FLOAT_TYPE
  };
  return kTypes[type];
}

TensorType typeOf(const shardgen_buffer &buffer) {
  return TensorType{elementTypeOf(buffer.element_type),
                    Shape(buffer.shape, buffer.shape + buffer.rank)};
}

/// What the C function of slot `k` does.
void callSlot(int k, shardgen_buffer *results, int64_t numResults, const shardgen_buffer *operands,
              int64_t numOperands) {
  py::gil_scoped_acquire gil;
  const Slot &slot = slots[k];
  py::tuple arguments(numOperands);
  for (int64_t i = 0; i < numOperands; ++i) {
    TensorType type = typeOf(operands[i]);
    py::array operand = newArray(type);
    if (operand.nbytes())
      std::memcpy(operand.mutable_data(), operands[i].data, operand.nbytes());
    arguments[i] = std::move(operand);
  }
  py::object returned = slot.function(*arguments);
  // One result: the array itself (or a 1-tuple); several: a sequence.
  std::vector<py::object> values;
  if (numResults == 1 && !py::isinstance<py::tuple>(returned) &&
      !py::isinstance<py::list>(returned))
    values.push_back(returned);
  else if (py::isinstance<py::sequence>(returned) && !py::isinstance<py::str>(returned))
    for (py::handle item : returned)
      values.push_back(py::reinterpret_borrow<py::object>(item));
  const std::string who = "custom_call target \"" + slot.target + "\"";
  if (static_cast<int64_t>(values.size()) != numResults)
    throw py::type_error(who + " returned " + std::to_string(values.size()) +
                         " values; the op has " + std::to_string(numResults) + " results");
  for (int64_t j = 0; j < numResults; ++j) {
    TensorType type = typeOf(results[j]);
    BoundTensor value = bindTensor(values[j], type, who + ", result " + std::to_string(j));
    int64_t bytes = type.numElements() * static_cast<int64_t>(elementByteWidth(type.elementType));
    if (bytes)
      std::memcpy(results[j].data, value.data, static_cast<size_t>(bytes));
  }
}

template <int K>
void slotFunction(shardgen_buffer *results, int64_t numResults, const shardgen_buffer *operands,
                  int64_t numOperands) {
  callSlot(K, results, numResults, operands, numOperands);
}

template <int... K> constexpr auto slotFunctions(std::integer_sequence<int, K...>) {
  return std::array<shardgen_custom_call_fn, sizeof...(K)>{&slotFunction<K>...};
}

constexpr auto kSlotFunctions = slotFunctions(std::make_integer_sequence<int, kCustomCallSlots>());

} // namespace

PythonCustomCalls::PythonCustomCalls(const std::map<std::string, py::function> &functions) {
  std::lock_guard lock(slotsMutex);
  for (const auto &[target, function] : functions) {
    int free = 0;
    while (free < kCustomCallSlots && slots[free].used)
      ++free;
    if (free == kCustomCallSlots) {
      for (int k : slots_)
        slots[k] = Slot{};
      std::string message = "more than " + std::to_string(kCustomCallSlots) +
                            " Python custom-call functions are held at once (by programs alive "
                            "and eval calls running): drop programs no longer used";
      PyErr_SetString(PyExc_RuntimeError, message.c_str());
      throw py::error_already_set();
    }
    slots[free] = Slot{true, target, function};
    slots_.push_back(free);
    functions_[target] = kSlotFunctions[free];
  }
}

PythonCustomCalls::~PythonCustomCalls() {
  std::lock_guard lock(slotsMutex);
  for (int k : slots_)
    slots[k] = Slot{};
}

} // namespace shardgen::python
