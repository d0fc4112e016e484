#include "layoutopt/solvers/wcsp_writer.h"

#include <cmath>

#include "layoutopt/solvers/error.h"

namespace layoutopt::solvers {

namespace {

// wcsp wants non-negative integers; forbidden entries are written as `top`.
long long scaled(Cost cost, double scale, long long top) {
  return is_finite(cost) ? std::llround(cost * scale) : top;
}

long long top_cost(const Problem& problem, double scale) {
  double total = 1;
  auto add_max = [&](const Eigen::Ref<const Matrix>& values) {
    double largest = 0;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
      const double value = values(i % values.rows(), i / values.rows());
      if (value < 0) throw SolverError("wcsp export: negative cost " + std::to_string(value) + " cannot be written");
      if (is_finite(value)) largest = std::max(largest, value);
    }
    total += std::ceil(largest * scale) + 1;
  };
  for (const Node& node : problem.nodes()) add_max(node.costs);
  for (const Edge& edge : problem.edges()) add_max(*edge.costs);
  return static_cast<long long>(total);
}

}  // namespace

void write_wcsp(const Problem& problem, std::ostream& out, double scale) {
  const long long top = top_cost(problem, scale);
  int max_domain = 0;
  for (size_t v = 0; v < problem.node_count(); ++v) max_domain = std::max(max_domain, problem.candidates(static_cast<int>(v)));
  out << "layoutopt " << problem.node_count() << " " << max_domain << " " << problem.node_count() + problem.edge_count()
      << " " << top << "\n";
  for (size_t v = 0; v < problem.node_count(); ++v) out << problem.candidates(static_cast<int>(v)) << " ";
  out << "\n";
  for (size_t v = 0; v < problem.node_count(); ++v) {
    const Vector& costs = problem.node(static_cast<int>(v)).costs;
    out << "1 " << v << " 0 " << costs.size() << "\n";
    for (Eigen::Index i = 0; i < costs.size(); ++i) out << i << " " << scaled(costs[i], scale, top) << "\n";
  }
  for (const Edge& edge : problem.edges()) {
    const Matrix& costs = *edge.costs;
    out << "2 " << edge.from << " " << edge.to << " 0 " << costs.size() << "\n";
    for (Eigen::Index i = 0; i < costs.rows(); ++i)
      for (Eigen::Index j = 0; j < costs.cols(); ++j) out << i << " " << j << " " << scaled(costs(i, j), scale, top) << "\n";
  }
}

}  // namespace layoutopt::solvers
