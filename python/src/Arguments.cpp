#include "Arguments.h"

#include <optional>
#include <stdexcept>

#include "Arrays.h"

namespace shardgen::python {

py::object pythonType(const char *name) {
  return py::module_::import("shardgen._types").attr(name);
}

PropagationStrategy strategyArgument(const std::string &name) {
  std::optional<PropagationStrategy> strategy = parseStrategy(name);
  if (!strategy)
    throw py::value_error("unknown strategy '" + name +
                          "' (expected basic, aggressive, op-priority or user-priority)");
  return *strategy;
}

driver::MeshSizes meshArgument(py::handle mesh) {
  driver::MeshSizes sizes;
  if (mesh.is_none())
    return sizes;
  if (!py::isinstance<py::dict>(mesh))
    throw py::type_error("mesh takes a dict of axis name to size, e.g. {\"data\": 4}");
  for (auto [name, size] : py::reinterpret_borrow<py::dict>(mesh)) {
    if (!py::isinstance<py::str>(name) || !py::isinstance<py::int_>(size) ||
        py::isinstance<py::bool_>(size))
      throw py::type_error("mesh takes a dict of axis name (str) to size (int)");
    sizes.emplace_back(name.cast<std::string>(), size.cast<int64_t>());
  }
  return sizes;
}

driver::MemoryLimit memoryArgument(py::handle maxMemory) {
  if (maxMemory.is_none())
    return driver::machineMemoryLimit();
  if (py::isinstance<py::int_>(maxMemory) && !py::isinstance<py::bool_>(maxMemory)) {
    auto bytes = maxMemory.cast<int64_t>();
    if (bytes < 1)
      throw py::value_error("max_memory must be at least 1 byte");
    return {bytes, "max_memory=" + std::to_string(bytes)};
  }
  if (py::isinstance<py::str>(maxMemory)) {
    auto text = maxMemory.cast<std::string>();
    try {
      return {driver::parseByteSize(text, "max_memory"), "max_memory=" + text};
    } catch (const std::invalid_argument &error) {
      throw py::value_error(error.what());
    }
  }
  throw py::type_error("max_memory takes a number of bytes or a size such as \"4G\"");
}

double timeoutArgument(py::handle timeout) {
  if (timeout.is_none())
    return 0;
  auto seconds = timeout.cast<double>();
  if (!(seconds > 0) || seconds > 1e9)
    throw py::value_error("timeout takes a positive number of seconds");
  return seconds;
}

py::list tensorSpecs(const Graph &graph, const std::vector<RegionArgument> &slots) {
  py::list specs;
  py::object spec = pythonType("TensorSpec");
  for (const RegionArgument &slot : slots) {
    const Value &value = graph.value(slot.value);
    if (value.type)
      specs.append(spec(value.name, dtypeOf(value.type->elementType),
                        py::tuple(py::cast(value.type->shape)), printType(*value.type)));
    else
      specs.append(spec(value.name, py::none(), py::none(), py::none()));
  }
  return specs;
}

} // namespace shardgen::python
