#pragma once
// Small problem builders shared by the solver tests.

#include <random>
#include <string>

#include "layoutopt/solvers/problem.h"
#include "layoutopt/solvers/solution.h"

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

/// A random layout-selection problem with "materialise this layout" nodes: every operator
/// (candidate c wants layout c % layouts) gets, per layout, a binary node with zero node
/// costs, an edge from the operator charging the transform into that layout in row 1, and
/// edges to 2-3 later readers forbidding, in row 0, the readers' candidates that want that
/// layout. Their binary nodes have degree >= 3, so the reductions leave a core.
inline Problem materialisation_problem(uint64_t seed, int operators, int candidates, int layouts) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Problem problem;
  for (int v = 0; v < operators; ++v) {
    Vector costs(candidates);
    for (Eigen::Index i = 0; i < costs.size(); ++i) costs[i] = unit(random);
    problem.add_node("op" + std::to_string(v), costs);
  }
  for (int producer = 0; producer + 1 < operators; ++producer)
    for (int layout = 0; layout < layouts; ++layout) {
      const int aux = problem.add_node("op" + std::to_string(producer) + ".as" + std::to_string(layout),
                                       Vector::Zero(2));
      Matrix transform = Matrix::Zero(2, candidates);
      for (int c = 0; c < candidates; ++c) transform(1, c) = c % layouts == layout ? 0.0 : 0.5 * unit(random);
      problem.add_edge(aux, producer, std::make_shared<const Matrix>(transform));
      std::uniform_int_distribution<int> later(producer + 1, operators - 1);
      const int readers = 2 + (unit(random) < 0.5 ? 1 : 0);
      for (int k = 0; k < readers; ++k) {
        const int reader = later(random);
        Matrix forbid = Matrix::Zero(2, candidates);
        for (int c = 0; c < candidates; ++c)
          if (c % layouts == layout) forbid(0, c) = kInfinity;
        problem.add_edge(aux, reader, std::make_shared<const Matrix>(forbid));
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
/// Solve options whose answers do not depend on the clock: no time limit, and a node limit
/// bounding pbqp's branch-and-bound instead (far above what these instances need), so an
/// `optimal` flag checked by a test is the same on a loaded machine as on an idle one.
inline SolveOptions deterministic() {
  SolveOptions options;
  options.time_limit_seconds = kNoTimeLimit;
  options.max_search_nodes = 1'000'000;
  return options;
}

inline bool same_cost(Cost a, Cost b) {
  if (!is_finite(a) || !is_finite(b)) return !is_finite(a) && !is_finite(b);
  return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(a));
}

}  // namespace layoutopt::solvers::testing
