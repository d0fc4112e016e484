#include "errors.h"

#include <stdexcept>

#include "layoutopt/graph/error.h"
#include "layoutopt/kernels/reference/npy_io.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/planning/plan.h"
#include "layoutopt/runtime/artifact_error.h"
#include "layoutopt/runtime/error.h"
#include "layoutopt/solvers/error.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/xgboost_model.h"

namespace py = pybind11;

namespace layoutopt::python {

namespace {

// The classes live as long as the interpreter: pybind11's own exceptions are held the same
// way (a leaked reference), so the translator never meets a destroyed class at exit.
struct ErrorClasses {
  PyObject* base = nullptr;
  PyObject* graph = nullptr;
  PyObject* plan = nullptr;
  PyObject* solver = nullptr;
  PyObject* artifact = nullptr;
  PyObject* kernel = nullptr;
  PyObject* npy = nullptr;
  PyObject* layout = nullptr;
  PyObject* record = nullptr;
  PyObject* xgboost = nullptr;
};
ErrorClasses classes;

PyObject* add_class(py::module_& module, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("layoutopt.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name, py::handle(type));  // steals nothing: add_object increments
  return type;
}

void raise(PyObject* type, const std::exception& error) { PyErr_SetString(type, error.what()); }

// Most derived first: every C++ error here derives from std::runtime_error.
void translate(std::exception_ptr pending) {
  try {
    std::rethrow_exception(pending);
  } catch (const py::builtin_exception&) {
    // pybind11's TypeError, ValueError ... derive from std::runtime_error too: they go on
    // to pybind11's own translator, not to layoutopt.Error.
    throw;
  } catch (const graph::GraphError& e) {
    raise(classes.graph, e);
  } catch (const planning::PlanError& e) {
    raise(classes.plan, e);
  } catch (const solvers::SolverError& e) {
    raise(classes.solver, e);
  } catch (const runtime::ArtifactError& e) {
    raise(classes.artifact, e);
  } catch (const runtime::KernelError& e) {
    raise(classes.kernel, e);
  } catch (const kernels::reference::NpyError& e) {
    raise(classes.npy, e);
  } catch (const layout::LayoutError& e) {
    raise(classes.layout, e);
  } catch (const tuning::RecordError& e) {
    raise(classes.record, e);
  } catch (const tuning::XGBoostError& e) {
    raise(classes.xgboost, e);
  } catch (const std::runtime_error& e) {
    // The pipeline's own refusals ("give --records", "'plan.json' exists") are plain
    // runtime_errors: still the library's errors, not Python's RuntimeError.
    raise(classes.base, e);
  }
  // Anything else (std::bad_alloc, std::invalid_argument, py::error_already_set ...)
  // propagates to pybind11's own translators.
}

}  // namespace

void bind_errors(py::module_& module) {
  classes.base = add_class(module, "Error", PyExc_Exception, "Base class of every error the layoutopt libraries raise.");
  classes.graph = add_class(module, "GraphError", classes.base, "A model that cannot be read, built or prepared.");
  classes.plan = add_class(module, "PlanError", classes.base, "A plan file that is unreadable or does not fit the model.");
  classes.solver = add_class(module, "SolverError", classes.base,
                             "A cost problem or instance file that is malformed, or a solver that refuses it.");
  classes.artifact = add_class(module, "ArtifactError", classes.base,
                               "An ahead-of-time artifact that cannot be loaded or run here.");
  classes.kernel = add_class(module, "KernelError", classes.base, "A schedule or tensor the kernels cannot take.");
  classes.npy = add_class(module, "NpyError", classes.base, "A .npy file that cannot be read or written.");
  classes.layout = add_class(module, "LayoutError", classes.base, "An invalid data layout.");
  classes.record = add_class(module, "RecordError", classes.base, "A tuning record that cannot be read.");
  classes.xgboost = add_class(module, "XGBoostError", classes.base, "The XGBoost cost model failed.");
  py::register_exception_translator(translate);
}

}  // namespace layoutopt::python
