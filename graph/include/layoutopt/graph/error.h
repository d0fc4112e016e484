#pragma once
#include <stdexcept>

namespace layoutopt::graph {

/// Raised for every malformed graph: bad shapes, cycles, dangling inputs, unsupported ops.
/// Messages name the node, the input and what was expected versus found.
class GraphError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace layoutopt::graph
