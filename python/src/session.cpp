#include "session.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "arrays.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/pipeline/jit_session.h"
#include "layoutopt/runtime/session.h"

namespace py = pybind11;

namespace layoutopt::python {

namespace {

/// The session behind a layoutopt.Session. Runs release the GIL and may overlap: an
/// artifact's session runs each call on an arena of its own, a JIT session lets them take turns.
class Session {
 public:
  explicit Session(runtime::Session session) : backend_(std::move(session)) {}
  explicit Session(pipeline::JitSession session) : backend_(std::move(session)) {}

  [[nodiscard]] const std::vector<runtime::TensorSpec>& inputs() const {
    return std::visit([](const auto& s) -> const std::vector<runtime::TensorSpec>& { return s.inputs(); }, backend_);
  }
  [[nodiscard]] const std::vector<runtime::TensorSpec>& outputs() const {
    return std::visit([](const auto& s) -> const std::vector<runtime::TensorSpec>& { return s.outputs(); }, backend_);
  }
  [[nodiscard]] int threads() const {
    return std::visit([](const auto& s) { return s.threads(); }, backend_);
  }
  [[nodiscard]] const pipeline::JitSession* jit() const { return std::get_if<pipeline::JitSession>(&backend_); }
  [[nodiscard]] std::string kind() const { return jit() ? "jit" : "aot"; }

  void run(const std::vector<runtime::TensorView>& in, const std::vector<runtime::MutableTensorView>& out) {
    std::visit([&](auto& s) { s.run(in, out); }, backend_);
  }

 private:
  std::variant<runtime::Session, pipeline::JitSession> backend_;
};

/// The arrays a run reads, in the session's input order, from one array, a sequence or a
/// {name: array} mapping. Raises ValueError for a wrong count or an unknown or missing name.
std::vector<py::array> gather_inputs(const Session& session, py::handle given) {
  const std::vector<runtime::TensorSpec>& specs = session.inputs();
  std::vector<py::array> arrays;
  if (py::isinstance<py::dict>(given)) {
    auto mapping = py::reinterpret_borrow<py::dict>(given);
    std::string names;
    for (const runtime::TensorSpec& spec : specs) names += (names.empty() ? "'" : ", '") + spec.name + "'";
    for (const auto& [key, value] : mapping) {
      const std::string name = py::str(key).cast<std::string>();
      const bool known = std::any_of(specs.begin(), specs.end(), [&](const auto& s) { return s.name == name; });
      if (!known) throw py::value_error("the network has no input '" + name + "'; its inputs are " + names);
    }
    for (const runtime::TensorSpec& spec : specs) {
      if (!mapping.contains(spec.name)) throw py::value_error("input '" + spec.name + "' is missing; the inputs are " + names);
      arrays.push_back(input_array(mapping[py::str(spec.name)], spec));
    }
    return arrays;
  }
  if (py::isinstance<py::list>(given) || py::isinstance<py::tuple>(given)) {
    auto sequence = py::reinterpret_borrow<py::sequence>(given);
    if (sequence.size() != specs.size())
      throw py::value_error("the network takes " + std::to_string(specs.size()) + " inputs, got " +
                            std::to_string(sequence.size()));
    for (size_t i = 0; i < specs.size(); ++i) arrays.push_back(input_array(sequence[i], specs[i]));
    return arrays;
  }
  if (specs.size() != 1)
    throw py::value_error("the network takes " + std::to_string(specs.size()) +
                          " inputs: pass a list in session.inputs order or a {name: array} dict");
  arrays.push_back(input_array(given, specs.front()));
  return arrays;
}

/// Runs the network; the outputs are arrays it writes into. The GIL is released while it
/// runs: the arrays stay referenced here, so their memory outlives the run.
std::vector<py::array_t<float>> run_arrays(Session& session, const std::vector<py::array>& arrays) {
  std::vector<runtime::TensorView> in;
  for (size_t i = 0; i < arrays.size(); ++i) in.push_back(input_view(arrays[i], session.inputs()[i]));
  std::vector<py::array_t<float>> results;
  std::vector<runtime::MutableTensorView> out;
  for (const runtime::TensorSpec& spec : session.outputs()) results.push_back(output_array(spec));
  for (size_t o = 0; o < results.size(); ++o) out.push_back(output_view(results[o], session.outputs()[o]));
  {
    const py::gil_scoped_release released;
    session.run(in, out);
  }
  return results;
}

/// A list in session.outputs order, or a {name: array} dict when the inputs came as one.
py::object run(Session& session, py::handle given) {
  const std::vector<py::array_t<float>> results = run_arrays(session, gather_inputs(session, given));
  if (!py::isinstance<py::dict>(given)) return py::cast(results);
  py::dict named;
  for (size_t o = 0; o < results.size(); ++o) named[py::str(session.outputs()[o].name)] = results[o];
  return named;
}

/// The graph reference executor on the JIT session's graph, the `run --check` comparison.
std::vector<py::array_t<float>> run_reference(const Session& session, py::handle given) {
  const pipeline::JitSession* jit = session.jit();
  if (jit == nullptr)
    throw kernels::KernelError("run_reference needs the model's graph: only a session made by Session.compile has it");
  std::vector<kernels::reference::HostTensor> inputs;
  for (const py::array& array : gather_inputs(session, given)) {
    kernels::reference::HostTensor tensor(std::vector<int64_t>(array.shape(), array.shape() + array.ndim()));
    std::copy_n(static_cast<const float*>(array.data()), tensor.data.size(), tensor.data.begin());
    inputs.push_back(std::move(tensor));
  }
  std::vector<kernels::reference::HostTensor> expected;
  {
    const py::gil_scoped_release released;
    expected = kernels::reference::run_graph(jit->graph(), inputs);
  }
  std::vector<py::array_t<float>> results;
  for (size_t o = 0; o < expected.size(); ++o) {
    py::array_t<float> result = output_array(session.outputs()[o]);
    std::copy(expected[o].data.begin(), expected[o].data.end(), result.mutable_data());
    results.push_back(std::move(result));
  }
  return results;
}

std::string tensor_repr(const runtime::TensorSpec& tensor) {
  return "TensorSpec(name='" + tensor.name + "', shape=" + shape_text(tensor.shape) + ")";
}

void bind_tensor_spec(py::module_& module) {
  py::class_<runtime::TensorSpec>(module, "TensorSpec", "Name and shape of a network input or output (float32, NCHW / NC).")
      .def_readonly("name", &runtime::TensorSpec::name)
      .def_property_readonly("shape", [](const runtime::TensorSpec& t) { return py::tuple(py::cast(t.shape)); })
      .def("__repr__", &tensor_repr);
}

// unique_ptr: the session is made once and never moved, as runs on other threads may be using it.
std::unique_ptr<Session> load(const std::filesystem::path& directory, int threads) {
  const py::gil_scoped_release released;  // reading weights and resolving kernels takes a while
  return std::make_unique<Session>(runtime::Session::load(directory, {.threads = threads}));
}

std::unique_ptr<Session> compile(const std::filesystem::path& model, const std::optional<std::filesystem::path>& plan,
                                 std::optional<int64_t> batch, int threads, std::optional<uint64_t> seed) {
  std::optional<pipeline::JitSession> jit;
  {
    const py::gil_scoped_release released;  // the JIT compiles for seconds
    jit.emplace(pipeline::JitSession::compile(
        model.string(), {.plan = plan.value_or(std::filesystem::path()),
                         .model = {.batch = batch, .seed = seed, .names = {"batch=", "seed="}},
                         .threads = threads}));
  }
  // Options without effect, as the pipeline functions report them (python/src/pipeline.cpp).
  for (const std::string& warning : jit->warnings())
    if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
  return std::make_unique<Session>(std::move(*jit));
}

}  // namespace

void bind_session(py::module_& module) {
  bind_tensor_spec(module);
  py::class_<Session>(module, "Session",
                      "A compiled network that runs on NumPy arrays: Session.load(artifact_dir) or "
                      "Session.compile(model, plan=...).")
      .def_static("load", &load, py::arg("directory"), py::arg("threads") = 0,
                  "Loads an ahead-of-time artifact folder (`layoutopt compile MODEL -o DIR`). threads=0: the thread "
                  "count it was compiled for. Raises ArtifactError for a damaged, truncated or foreign artifact.")
      .def_static("compile", &compile, py::arg("model"), py::arg("plan") = py::none(), py::arg("batch") = py::none(),
                  py::arg("threads") = 0, py::arg("seed") = py::none(),
                  "Compiles a model (zoo name, .onnx or .json graph) with the JIT for a plan file, or the default "
                  "schedule without one. threads=0: OpenMP's default.")
      .def_property_readonly("inputs", &Session::inputs)
      .def_property_readonly("outputs", &Session::outputs)
      .def_property_readonly("threads", &Session::threads)
      .def_property_readonly("kind", &Session::kind, "'aot' (Session.load) or 'jit' (Session.compile)")
      .def_property_readonly("schedule",
                             [](const Session& s) -> std::optional<std::string> {
                               if (s.jit() == nullptr) return std::nullopt;
                               return s.jit()->schedule_source();
                             },
                             "Where a JIT session's schedule came from; None for an artifact.")
      .def("run", &run, py::arg("inputs"),
           "Runs the network. inputs: one array (single-input networks), a list in `inputs` order, or a "
           "{name: array} dict. Each must be float32 of the input's shape (TypeError / ValueError otherwise); a "
           "C-contiguous array is read in place, a non-contiguous one copied once. Returns the outputs as a list "
           "in `outputs` order, or as a {name: array} dict when the inputs came as a dict.")
      .def("run_reference", &run_reference, py::arg("inputs"),
           "JIT sessions: the graph reference executor's outputs for the same inputs (a list), to check a plan.")
      .def("__repr__", [](const Session& s) {
        return "<layoutopt.Session " + s.kind() + ", " + std::to_string(s.inputs().size()) + " inputs, " +
               std::to_string(s.outputs().size()) + " outputs, " + std::to_string(s.threads()) + " threads>";
      });
}

}  // namespace layoutopt::python
