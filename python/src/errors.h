#pragma once
// The C++ libraries' exceptions as Python exceptions: one base class, layoutopt.Error, and
// a subclass per area (GraphError, PlanError, SolverError, ArtifactError, KernelError,
// NpyError, LayoutError, RecordError, XGBoostError), each carrying the C++ message.

#include <pybind11/pybind11.h>

namespace layoutopt::python {

/// Adds the exception classes to `module` and translates the C++ exceptions into them.
void bind_errors(pybind11::module_& module);

}  // namespace layoutopt::python
