#pragma once
// The cost-problem solvers on instances, for comparing DP and PBQP from a notebook:
// layoutopt.Problem (built from lists or NumPy arrays, +inf forbids a choice),
// load_instance / save_instance, generate_instance, and solve(problem, solver=...,
// time_limit=..., max_search_nodes=..., prove=...) returning a Solution.

#include <pybind11/pybind11.h>

namespace layoutopt::python {

void bind_solvers(pybind11::module_& module);

}  // namespace layoutopt::python
