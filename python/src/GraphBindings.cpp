// shardgen.load and shardgen.Graph: the tool's commands on one graph
// (check, propagate, explain, show, export, import).

#include "Arguments.h"
#include "Bindings.h"
#include "Graph.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/ir/Distribution.h"
#include "compiler/ir/Sharding.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/partition/Partitioner.h"
#include "compiler/show/HtmlRenderer.h"
#include "compiler/show/ShowModel.h"
#include "compiler/show/TextRenderer.h"

namespace shardgen::python {

namespace {

using namespace pybind11::literals;
using GraphClass = py::class_<GraphHandle, std::shared_ptr<GraphHandle>>;

/// A slot's Sharding(sharding, origin), or None when it holds neither a
/// sharding nor a distribution.
py::object slotSharding(const UniquedOptional<TensorSharding> &sharding,
                        const Distribution *distribution,
                        const std::optional<ShardingOrigin> &origin) {
  std::optional<std::string> text;
  if (distribution)
    text = printDistribution(*distribution);
  else if (sharding)
    text = printSharding(*sharding);
  if (!text)
    return py::none();
  return pythonType("Sharding")(*text, origin ? py::object(py::str(origin->str())) : py::none());
}

py::object argumentSharding(const RegionArgument &slot) {
  return slotSharding(slot.sharding, slot.distribution ? &*slot.distribution : nullptr,
                      slot.origin);
}

py::object resultSharding(const Op &op, size_t r) {
  const Distribution *distribution =
      r < op.distributions.size() && op.distributions[r] ? &*op.distributions[r] : nullptr;
  std::optional<ShardingOrigin> origin;
  if (r < op.origins.size())
    origin = op.origins[r];
  return slotSharding(r < op.shardings.size() ? op.shardings[r] : UniquedOptional<TensorSharding>{},
                      distribution, origin);
}

/// Value name -> Sharding of every slot of `graph` that holds one (the
/// first value of a name wins: body values may repeat outer names).
py::dict shardingsOf(const Graph &graph) {
  py::dict shardings;
  auto note = [&](ValueId value, py::object sharding) {
    py::str name(graph.value(value).name);
    if (!sharding.is_none() && !shardings.contains(name))
      shardings[name] = std::move(sharding);
  };
  for (const RegionArgument &arg : graph.main.args)
    note(arg.value, argumentSharding(arg));
  walkOps(graph.main, [&](const Op &op) {
    for (size_t r = 0; r < op.results.size(); ++r)
      note(op.results[r], resultSharding(op, r));
    // A manual computation's body values have shardings; a scalar body's
    // (a reduce's) are scalars without one.
    if (const Region *body = op.body(); body && op.kind == OpKind::ManualComputation)
      for (const RegionArgument &arg : body->args)
        note(arg.value, argumentSharding(arg));
  });
  return shardings;
}

/// A verified copy of the graph and its propagation (not written in yet).
struct Propagated {
  Graph graph;
  PropagationResult result;
};

Propagated propagated(const GraphHandle &source, PropagationStrategy strategy) {
  Propagated out{source.verifiedCopy(), {}};
  out.result = source.placed([&] { return propagateShardings(out.graph, strategy); });
  return out;
}

/// Whether a str is the graph's text rather than a file name: JSON starts
/// with '{', MLIR is recognized by content; no file name holds a newline.
bool isGraphText(const std::string &text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  return (start != std::string::npos && text[start] == '{') || driver::isMlirSource("", text) ||
         text.find('\n') != std::string::npos;
}

std::shared_ptr<GraphHandle> load(py::handle source, const std::string &function) {
  py::object os = py::module_::import("os");
  if (py::isinstance<py::bytes>(source) ||
      (py::isinstance<py::str>(source) && isGraphText(source.cast<std::string>()))) {
    GraphText text(source.cast<std::string>());
    py::gil_scoped_release release;
    return GraphHandle::read(text, "<string>", function);
  }
  if (!py::isinstance<py::str>(source) && !py::isinstance(source, os.attr("PathLike")))
    throw py::type_error("load takes a path (str or os.PathLike) or the graph's text (str or "
                         "bytes), not " +
                         std::string(Py_TYPE(source.ptr())->tp_name));
  std::string path = py::str(os.attr("fspath")(source));
  if (!py::bool_(os.attr("path").attr("exists")(path))) {
    PyErr_SetObject(PyExc_FileNotFoundError,
                    py::make_tuple(2, "No such file or directory", path).ptr());
    throw py::error_already_set();
  }
  py::gil_scoped_release release;
  try {
    GraphText text = GraphText::load(path);
    return GraphHandle::read(text, path, function);
  } catch (const GraphError &error) { // the file itself: a folder, too large
    throw PlacedGraphError(path, error.pointer(), error.pointer(), 0, 0, error.what());
  }
}

/// What the graph is: names, specs, shardings, its text.
void bindGraphData(GraphClass &graph) {
  graph
      .def_property_readonly(
          "name", [](const GraphHandle &g) { return g.read().name; }, "The graph's name.")
      .def_property_readonly(
          "source", [](const GraphHandle &g) { return g.label(); },
          "The file it was read from, or \"<string>\".")
      .def_property_readonly(
          "inputs",
          [](const GraphHandle &g) { return tensorSpecs(g.verified(), g.verified().main.args); },
          "The inputs: TensorSpec(name, dtype, shape, type) each, in order.")
      .def_property_readonly(
          "outputs",
          [](const GraphHandle &g) { return tensorSpecs(g.verified(), g.verified().main.results); },
          "The outputs: TensorSpec(name, dtype, shape, type) each, in order.")
      .def_property_readonly(
          "shardings", [](const GraphHandle &g) { return shardingsOf(g.read()); },
          "Value name -> Sharding(sharding, origin) of every value whose slot holds one (after\n"
          "propagate(): every value): Shardy's text (a distribution's for a distributed\n"
          "value) and where it came from ('user:/inputs/0/sharding', 'op:/ops/2', 'default',\n"
          "...; None for an annotation of a graph not propagated).")
      .def_property_readonly(
          "output_shardings",
          [](const GraphHandle &g) {
            py::list list;
            for (const RegionResult &result : g.read().main.results)
              list.append(argumentSharding(result));
            return list;
          },
          "Per output: its Sharding(sharding, origin), or None.")
      .def(
          "to_json",
          [](const GraphHandle &g) {
            py::gil_scoped_release release;
            return writeGraph(g.verified());
          },
          "The graph file's JSON text (what `shardgen import` writes for MLIR).")
      .def(
          "with_mesh",
          [](const GraphHandle &g, py::handle sizes) {
            return g.withMeshSizes(meshArgument(sizes));
          },
          "sizes"_a, "The same graph with new mesh axis sizes ({'data': 4}), as --mesh data=4.")
      .def("__repr__", [](const GraphHandle &g) {
        return "<shardgen.Graph '" + g.read().name + "' from " + g.label() + ">";
      });
}

/// check and propagate, as the tool's commands.
void bindGraphPasses(GraphClass &graph) {
  graph
      .def(
          "check",
          [](const GraphHandle &g) {
            const Graph *verified = nullptr;
            {
              py::gil_scoped_release release;
              verified = &g.verified();
            }
            size_t ops = 0;
            walkOps(verified->main, [&](const Op &) { ++ops; });
            return py::dict("inputs"_a = verified->main.args.size(), "ops"_a = ops,
                            "outputs"_a = verified->main.results.size(),
                            "meshes"_a = verified->meshes.size());
          },
          "Verifies the graph (GraphError if it is not valid), as `shardgen check`; returns\n"
          "its counts: {'inputs': ..., 'ops': ..., 'outputs': ..., 'meshes': ...}.")
      .def(
          "propagate",
          [](const GraphHandle &g, const std::string &strategy) {
            PropagationStrategy chosen = strategyArgument(strategy);
            py::gil_scoped_release release;
            Propagated p = propagated(g, chosen);
            applyPropagation(p.graph, std::move(p.result));
            return g.withGraph(p.graph);
          },
          "strategy"_a = "user-priority",
          "Propagates shardings as `shardgen propagate`: the graph with a sharding (and its\n"
          "origin) on every input, op result, output and manual-computation body value.\n"
          "strategy: basic, aggressive, op-priority or user-priority.")
      .def(
          "explain",
          [](const GraphHandle &g, const std::string &value, const std::string &strategy) {
            PropagationStrategy chosen = strategyArgument(strategy);
            py::gil_scoped_release release;
            Propagated p = propagated(g, chosen);
            return g.placed([&] { return explainValue(p.graph, p.result, value); });
          },
          "value"_a, "strategy"_a = "user-priority",
          "Why `value` has its sharding, as `shardgen explain`.");
}

/// show and export, as the tool's commands.
void bindGraphViews(GraphClass &graph) {
  graph
      .def(
          "show",
          [](const GraphHandle &g, const py::args &values, const std::string &strategy) {
            std::vector<std::string> names;
            for (py::handle value : values)
              names.push_back(value.cast<std::string>());
            PropagationStrategy chosen = strategyArgument(strategy);
            std::string text, html;
            {
              py::gil_scoped_release release;
              Propagated p = propagated(g, chosen);
              g.placed([&] {
                applyPropagation(p.graph, p.result);
                SpmdProgram program = partitionProgram(p.graph);
                show::ShowModel model = show::buildShowModel(p.graph, p.result, program, names);
                text = show::renderText(model, show::TextStyle{});
                html =
                    show::renderHtml(p.graph, p.result, program, show::HtmlInput{g.label(), names});
              });
            }
            return pythonType("Show")(text, html);
          },
          "strategy"_a = "user-priority",
          "Which device holds which block of each input and output (or of each value\n"
          "named), as `shardgen show`: str() is the terminal text, _repr_html_() the page\n"
          "of `shardgen show --html` (Jupyter shows it), .save(path) writes the page.")
      .def(
          "export_mlir",
          [](const GraphHandle &g, bool generic) {
            py::gil_scoped_release release;
            return g.placed([&] {
              return mlir::writeMlir(g.verified(),
                                     generic ? mlir::MlirForm::Generic : mlir::MlirForm::Pretty);
            });
          },
          "generic"_a = false,
          "The graph as StableHLO + Shardy MLIR text, as `shardgen export` (generic=True:\n"
          "every op in MLIR's generic form).");
}

} // namespace

void bindGraph(py::module_ &m) {
  GraphClass graph(m, "Graph", R"doc(
A graph read by shardgen.load (JSON, or StableHLO + Shardy MLIR text). It is
verified on first need; its methods are the shardgen tool's commands.)doc");
  bindGraphData(graph);
  bindGraphPasses(graph);
  bindGraphViews(graph);
  m.def(
      "load",
      [](py::handle source, py::handle function) {
        return load(source, function.is_none() ? "" : function.cast<std::string>());
      },
      "source"_a, "function"_a = py::none(),
      "Reads a graph: a path (str or os.PathLike) or the text itself (str or bytes: JSON\n"
      "starting with '{', or MLIR). JSON or StableHLO + Shardy MLIR, chosen as the tool\n"
      "chooses (a .mlir name, or MLIR content). function: an MLIR module's entry function\n"
      "(default main). GraphError for a text that cannot be read.");
}

} // namespace shardgen::python
