#include "CustomCallSource.h"

#include <map>
#include <string>

namespace shardgen::python {

CustomCallSource CustomCallSource::from(py::handle customCalls) {
  CustomCallSource source;
  if (customCalls.is_none())
    return source;
  py::object os = py::module_::import("os");
  if (py::isinstance<py::str>(customCalls) || py::isinstance(customCalls, os.attr("PathLike"))) {
    std::string path = py::str(os.attr("fspath")(customCalls));
    source.library_ = std::make_shared<driver::CustomCallLibrary>(path);
    return source;
  }
  if (!py::isinstance<py::dict>(customCalls) &&
      !py::isinstance(customCalls, py::module_::import("collections.abc").attr("Mapping")))
    throw py::type_error("custom_calls takes a shared library's path or a mapping of "
                         "call_target_name to Python function, not " +
                         std::string(Py_TYPE(customCalls.ptr())->tp_name));
  std::map<std::string, py::function> functions;
  for (py::handle name : customCalls.attr("keys")()) {
    py::object function = customCalls[name];
    if (!py::isinstance<py::str>(name) || !PyCallable_Check(function.ptr()))
      throw py::type_error("custom_calls maps each call_target_name (a str) to a function");
    functions[name.cast<std::string>()] = py::reinterpret_borrow<py::function>(function);
  }
  source.python_ = std::make_shared<PythonCustomCalls>(functions);
  return source;
}

CustomCallFunctions CustomCallSource::resolve(const GraphHandle &source, const Graph &graph) const {
  return source.placed([&] {
    return driver::customCallFunctions(
        graph, library_.get(), python_ ? python_->functions() : CustomCallFunctions{},
        "pass custom_calls={\"NAME\": function} or custom_calls=\"LIB.so\", a shared library "
        "that defines it");
  });
}

} // namespace shardgen::python
