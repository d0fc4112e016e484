#pragma once
// The error of an ahead-of-time artifact that cannot be loaded or written: a damaged or
// truncated file, weights that do not belong to the program, a CPU without an instruction
// set the code needs, inputs of the wrong shape. The message says which and why.

#include <stdexcept>

namespace layoutopt::runtime {

class ArtifactError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace layoutopt::runtime
