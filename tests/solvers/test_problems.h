#pragma once
// Small problem builders shared by the solver tests.

#include <random>
#include <string>

#include "layoutopt/solvers/problem.h"

namespace layoutopt::solvers::testing {

struct RandomShape {
  int max_nodes = 7;
  int max_candidates = 4;
  double edge_probability = 0.4;
  double forbidden_probability = 0.15;
};

/// A random tiny problem: 1-candidate nodes, disconnected parts, multi-edges (added twice,
/// in both directions) and forbidden entries all occur across seeds.
inline Problem random_problem(uint64_t seed, const RandomShape& shape = {}) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> size(1, shape.max_nodes);
  std::uniform_int_distribution<int> choices(1, shape.max_candidates);
  Problem problem;
  const int nodes = size(random);
  for (int v = 0; v < nodes; ++v) {
    Vector costs(choices(random));
    for (Eigen::Index i = 0; i < costs.size(); ++i) costs[i] = unit(random) < 0.05 ? kInfinity : unit(random);
    problem.add_node("v" + std::to_string(v), costs);
  }
  for (int a = 0; a < nodes; ++a)
    for (int b = a + 1; b < nodes; ++b) {
      const int copies = unit(random) < shape.edge_probability ? (unit(random) < 0.2 ? 2 : 1) : 0;
      for (int c = 0; c < copies; ++c) {
        const bool reversed = unit(random) < 0.5;
        const int from = reversed ? b : a;
        const int to = reversed ? a : b;
        Matrix costs(problem.candidates(from), problem.candidates(to));
        for (Eigen::Index i = 0; i < costs.size(); ++i)
          costs.data()[i] = unit(random) < shape.forbidden_probability ? kInfinity : unit(random);
        problem.add_edge(from, to, std::make_shared<const Matrix>(costs));
      }
    }
  return problem;
}

inline Vector vec(std::initializer_list<double> values) {
  Vector result(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double value : values) result[i++] = value;
  return result;
}

inline Matrix mat(std::initializer_list<std::initializer_list<double>> rows) {
  Matrix result(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index r = 0;
  for (const auto& row : rows) {
    Eigen::Index c = 0;
    for (double value : row) result(r, c++) = value;
    ++r;
  }
  return result;
}

/// Costs agree up to rounding (both infinite counts as agreeing).
inline bool same_cost(Cost a, Cost b) {
  if (!is_finite(a) || !is_finite(b)) return !is_finite(a) && !is_finite(b);
  return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(a));
}

}  // namespace layoutopt::solvers::testing
