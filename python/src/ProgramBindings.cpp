// shardgen.compile, shardgen.eval and shardgen.Program: a compiled graph's
// call styles, and what the tool prints and writes about it.

#include "Arguments.h"
#include "Bindings.h"
#include "Program.h"
#include "compiler/codegen/CppNames.h"

namespace shardgen::python {

namespace {

using namespace pybind11::literals;
using ProgramClass = py::class_<ProgramHandle>;

py::object pieceObject(const Piece &piece) {
  py::list chunks;
  for (const auto &[offset, extent] : piece.chunks)
    chunks.append(py::make_tuple(py::tuple(py::cast(offset)), py::tuple(py::cast(extent))));
  return pythonType("Piece")(piece.position, piece.device, py::tuple(py::cast(piece.offset)),
                             py::tuple(py::cast(piece.shape)), py::tuple(chunks));
}

py::list layoutObjects(const std::vector<Layout> &layouts) {
  py::list list;
  for (const Layout &layout : layouts) {
    py::list pieces;
    for (const Piece &piece : layout.pieces)
      pieces.append(pieceObject(piece));
    list.append(pythonType("Layout")(layout.name, dtypeOf(layout.type.elementType),
                                     py::tuple(py::cast(layout.type.shape)), printType(layout.type),
                                     layout.mesh, layout.sharding, layout.distribution,
                                     py::tuple(py::cast(layout.partialAxes)), py::tuple(pieces)));
  }
  return list;
}

/// The keyword arguments of a call taking *arrays: `names` only.
py::dict keywords(const py::kwargs &kwargs, std::initializer_list<const char *> names) {
  py::dict known;
  for (auto [key, value] : kwargs) {
    auto name = key.cast<std::string>();
    bool allowed = false;
    for (const char *candidate : names)
      allowed = allowed || name == candidate;
    if (!allowed)
      throw py::type_error("unexpected keyword argument '" + name + "'");
    known[key] = value;
  }
  return known;
}

py::object keyword(const py::dict &known, const char *name) {
  return known.contains(name) ? py::object(known[name]) : py::object(py::none());
}

std::optional<double> optionalDouble(py::handle value) {
  return value.is_none() ? std::nullopt : std::optional(value.cast<double>());
}

/// The call styles: prog(*arrays), run_shards, check.
void bindCalls(ProgramClass &program) {
  program
      .def(
          "__call__",
          [](ProgramHandle &p, const py::args &arrays, const py::kwargs &kwargs) {
            py::dict known = keywords(kwargs, {"timeout"});
            return p.call(arrays, timeoutArgument(keyword(known, "timeout")));
          },
          "prog(*arrays, timeout=None): the global call style, one array per input, a tuple\n"
          "of new arrays out. timeout: seconds (TimeoutError past it, saying where each\n"
          "device waits).")
      .def(
          "run_shards",
          [](ProgramHandle &p, py::handle perDevice, py::handle timeout) {
            return p.runShards(perDevice, timeoutArgument(timeout));
          },
          "per_device_inputs"_a, "timeout"_a = py::none(),
          "The per-device (pmap) call style: per mesh position, a sequence with its piece of\n"
          "each input (exactly the piece layouts give it); returns per position a tuple of\n"
          "its pieces of the outputs (an unreduced output's pieces are partial values).")
      .def(
          "check",
          [](ProgramHandle &p, const py::args &arrays, const py::kwargs &kwargs) {
            py::dict known = keywords(kwargs, {"rtol", "atol", "timeout"});
            return p.check(arrays, optionalDouble(keyword(known, "rtol")),
                           optionalDouble(keyword(known, "atol")),
                           timeoutArgument(keyword(known, "timeout")));
          },
          "prog.check(*arrays, rtol=None, atol=None, timeout=None): runs as prog(*arrays) and\n"
          "compares each output element with the reference interpreter's, as `shardgen run\n"
          "--check`: within the bound the interpreter computes (bit-exact where the\n"
          "computation is the same), or atol + rtol * |expected|. Returns the outputs;\n"
          "raises CheckError at the worst element otherwise.")
      .def("_time_bound_calls", &ProgramHandle::timeBoundCalls,
           "Bench only: _time_bound_calls(repeat, *arrays), seconds per call of the\n"
           "compiled code on the arrays bound once (the C++ caller's cost).");
}

/// What the program is: mesh, layouts, manifest, sources.
void bindDescription(ProgramClass &program) {
  program
      .def_property_readonly(
          "layouts",
          [](const ProgramHandle &p) {
            return pythonType("Layouts")(layoutObjects(p.layouts(false)),
                                         layoutObjects(p.layouts(true)));
          },
          "Layouts(inputs, outputs): per tensor its Layout (sharding or distribution, and\n"
          "per mesh position the Piece of the tensor that device holds).")
      .def("report", &ProgramHandle::report,
           "The communication manifest: per collective a dict (step, op, kind, axes, and\n"
           "per mesh position the bytes sent and received).")
      .def("report_text", &ProgramHandle::reportText,
           "The manifest as `shardgen run --report` prints it (with each device's peak memory).")
      .def_property_readonly(
          "mesh",
          [](const ProgramHandle &p) {
            py::dict axes;
            for (const MeshAxis &axis : p.program().mesh.axes)
              axes[py::str(axis.name)] = axis.size;
            return axes;
          },
          "The mesh it runs on: axis name -> size.")
      .def_property_readonly("num_devices",
                             [](const ProgramHandle &p) { return p.program().mesh.numDevices(); })
      .def_property_readonly(
          "device_ids",
          [](const ProgramHandle &p) {
            std::vector<int64_t> ids;
            for (int64_t position = 0; position < p.program().mesh.numDevices(); ++position)
              ids.push_back(p.program().mesh.deviceId(position));
            return ids;
          },
          "The device id at each mesh position.")
      .def_property_readonly(
          "sources",
          [](const ProgramHandle &p) {
            py::dict files;
            for (const auto &[file, text] : deviceSources(p.generated()))
              files[py::str(file)] = text;
            return files;
          },
          "The generated device C++, file name -> text.");
}

/// Where it came from and what it is called.
void bindIdentity(ProgramClass &program) {
  program
      .def_property_readonly(
          "graph", [](const ProgramHandle &p) { return p.source(); },
          "The Graph it was compiled from.")
      .def_property_readonly(
          "name", [](const ProgramHandle &p) { return p.generated().name; },
          "The program's C++ name.")
      .def_property_readonly(
          "inputs",
          [](const ProgramHandle &p) { return tensorSpecs(p.graph(), p.graph().main.args); })
      .def_property_readonly(
          "outputs",
          [](const ProgramHandle &p) { return tensorSpecs(p.graph(), p.graph().main.results); })
      .def_property_readonly(
          "strategy",
          [](const ProgramHandle &p) { return std::string(strategyName(p.strategy())); })
      .def_property_readonly(
          "timings",
          [](const ProgramHandle &p) {
            py::dict timings;
            for (const auto &[pass, ms] : p.timings())
              timings[py::str(pass)] = ms;
            return timings;
          },
          "Milliseconds per compiler pass (propagate, partition, generate, JIT).")
      .def("__repr__", [](const ProgramHandle &p) {
        return "<shardgen.Program '" + p.generated().name + "' on " +
               std::to_string(p.program().mesh.numDevices()) + " devices>";
      });
}

void bindWriteSources(ProgramClass &program) {
  program.def(
      "write_sources",
      [](const ProgramHandle &p, py::handle dir, py::handle name, const std::string &backend) {
        if (backend != "threads" && backend != "mpi")
          throw py::value_error("backend takes threads or mpi, not '" + backend + "'");
        std::string programName = name.is_none() ? "" : name.cast<std::string>();
        if (!programName.empty() && codegen::programIdentifier(programName) != programName)
          throw py::value_error("name '" + programName +
                                "' is not a usable C++ name (an identifier of at most 200 "
                                "characters with a lowercase letter, no keyword or reserved name)");
        std::string path = py::str(py::module_::import("os").attr("fspath")(dir));
        py::gil_scoped_release release;
        p.writeSources(path, programName, backend == "mpi");
      },
      "dir"_a, "name"_a = py::none(), "backend"_a = "threads",
      "Writes what `shardgen compile -o DIR [--name NAME] [--backend mpi]` writes (the\n"
      "sources, header and CMakeLists.txt), all or nothing.");
}

std::unique_ptr<ProgramHandle> compile(std::shared_ptr<GraphHandle> graph, py::handle mesh,
                                       const std::string &backend, const std::string &strategy,
                                       py::handle customCalls, bool cache, py::handle maxMemory,
                                       bool verifySpmd) {
  if (backend == "mpi")
    throw py::value_error("backend 'mpi' runs a program under mpirun, outside this process: use "
                          "`shardgen run --backend mpi`, or write its sources with "
                          "Program.write_sources(dir, backend='mpi')");
  if (backend != "threads")
    throw py::value_error("backend takes threads, not '" + backend + "'");
  CompileOptions options;
  options.strategy = strategyArgument(strategy);
  options.cache = cache;
  options.memory = memoryArgument(maxMemory);
  options.verifySpmd = verifySpmd;
  driver::MeshSizes sizes = meshArgument(mesh);
  if (!sizes.empty())
    graph = graph->withMeshSizes(sizes);
  return std::make_unique<ProgramHandle>(graph, CustomCallSource::from(customCalls), options);
}

} // namespace

void bindProgram(py::module_ &m) {
  ProgramClass program(m, "Program", R"doc(
A graph compiled by shardgen.compile: propagated, partitioned over its mesh,
generated as C++ and JIT-compiled in this process. Call it on whole arrays
(prog(x, w) -> tuple of arrays) or on per-device pieces (prog.run_shards).)doc");
  bindCalls(program);
  bindDescription(program);
  bindIdentity(program);
  bindWriteSources(program);
  m.def("compile", &compile, "graph"_a, "mesh"_a = py::none(), "backend"_a = "threads",
        "strategy"_a = "user-priority", "custom_calls"_a = py::none(), "cache"_a = true,
        "max_memory"_a = py::none(), "verify_spmd"_a = false,
        "Propagates, partitions, generates and JIT-compiles `graph` once, as `shardgen run`\n"
        "does before running (with its compile cache unless cache=False). mesh: new axis\n"
        "sizes ({'data': 4}). custom_calls: {'target': function} or a shared library's\n"
        "path. max_memory: refuse a program whose buffers need more (bytes or '4G'; default\n"
        "90% of the machine's). verify_spmd: prove the collectives coherent first.");
  m.def(
      "eval",
      [](const std::shared_ptr<GraphHandle> &graph, const py::args &arrays,
         const py::kwargs &kwargs) {
        py::dict known = keywords(kwargs, {"custom_calls", "max_memory"});
        return evaluateGraph(*graph, arrays, CustomCallSource::from(keyword(known, "custom_calls")),
                             memoryArgument(keyword(known, "max_memory")));
      },
      "graph"_a,
      "eval(graph, *arrays, custom_calls=None, max_memory=None): the reference interpreter\n"
      "on whole arrays, as `shardgen eval`: a tuple of new arrays.");
}

} // namespace shardgen::python
