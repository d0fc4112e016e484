#pragma once
// layoutopt.Session: a network ready to run on NumPy arrays, from an ahead-of-time artifact
// (Session.load, the LLVM-free runtime::Session) or from a model and plan compiled with the
// JIT (Session.compile, pipeline::JitSession). Both serve the same inputs / outputs / run.

#include <pybind11/pybind11.h>

namespace layoutopt::python {

void bind_session(pybind11::module_& module);

}  // namespace layoutopt::python
