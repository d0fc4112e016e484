#pragma once
// The pipeline steps as Python functions: optimize, plan and tune call the library functions
// `layoutopt optimize`, `plan` and `tune` call (pipeline::optimize_model, plan_network,
// tune_model), with keyword arguments named after the CLI's flags, and return dicts of the
// figures the CLI prints. Progress goes to stderr, as the CLI's does; the GIL is released
// while they run.

#include <pybind11/pybind11.h>

namespace layoutopt::python {

void bind_pipeline(pybind11::module_& module);

}  // namespace layoutopt::python
