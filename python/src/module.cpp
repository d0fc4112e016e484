// The `layoutopt._layoutopt` extension: each area binds itself (errors.cpp, arrays.cpp,
// session.cpp, solvers.cpp, pipeline.cpp); layoutopt/__init__.py re-exports it.

#include <pybind11/pybind11.h>

#include "arrays.h"
#include "errors.h"
#include "pipeline.h"
#include "session.h"
#include "solvers.h"

PYBIND11_MODULE(_layoutopt, module) {
  module.doc() = "layoutopt: run compiled CNNs on NumPy arrays, plan and tune them, solve layout cost problems";
  layoutopt::python::bind_errors(module);  // first: the other areas' docstrings name the classes
  layoutopt::python::bind_arrays(module);
  layoutopt::python::bind_session(module);
  layoutopt::python::bind_solvers(module);
  layoutopt::python::bind_pipeline(module);
}
