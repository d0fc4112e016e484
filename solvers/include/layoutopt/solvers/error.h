#pragma once
// The one exception type of the solvers library. Messages name the offending file, node or
// edge and say what was expected, so the CLI can print them unchanged.

#include <stdexcept>

namespace layoutopt::solvers {

class SolverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace layoutopt::solvers
