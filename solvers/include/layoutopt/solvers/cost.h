#pragma once
// Cost vocabulary shared by every solver: costs are doubles in milliseconds, +infinity marks
// a forbidden choice, and cost vectors / matrices are Eigen types. Edge matrices are
// immutable and shared (MatrixPtr) because DNNs repeat the same shapes many times.

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <vector>

namespace layoutopt::solvers {

using Cost = double;
using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using MatrixPtr = std::shared_ptr<const Matrix>;

/// One candidate index per node, in node order.
using Assignment = std::vector<int>;

inline constexpr Cost kInfinity = std::numeric_limits<Cost>::infinity();

[[nodiscard]] inline bool is_finite(Cost cost) { return cost < kInfinity; }

}  // namespace layoutopt::solvers
