#pragma once
// The DP-versus-PBQP study: every solver on every problem, with cost, proof, bound, time
// and the solver's own figures, written as a CSV and a self-contained HTML report with
// plots (solve time vs size, optimality gap vs size, DP table size vs width).

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/solvers/problem.h"
#include "layoutopt/solvers/solution.h"

namespace layoutopt::evaluation {

struct ComparisonProblem {
  std::string name;    ///< "resnet-50", "dense-1000"
  std::string family;  ///< "zoo (analytic model)", "generated dense", "file"
  solvers::Problem problem;
};

struct ComparisonRow {
  std::string problem, family, solver;
  size_t nodes = 0, edges = 0;
  double log10_search_space = 0;
  std::optional<solvers::Solution> solution;  ///< empty when the solver refused
  std::string refusal;                        ///< the solver's message when it refused
  /// (cost - best cost any solver found) / best cost; 0 for the best.
  std::optional<double> gap_to_best;
};

struct ComparisonOptions {
  std::vector<std::string> solvers{"greedy", "dp", "pbqp"};
  solvers::SolveOptions solve;
};

using ComparisonProgress = std::function<void(const ComparisonRow&, size_t done, size_t total)>;

/// Runs every solver on every problem (in that order), then fills in gap_to_best.
[[nodiscard]] std::vector<ComparisonRow> compare_solvers(const std::vector<ComparisonProblem>& problems,
                                                         const ComparisonOptions& options,
                                                         const ComparisonProgress& progress = {});

/// comparison.csv, one row per (problem, solver).
void write_comparison_csv(const std::vector<ComparisonRow>& rows, const std::filesystem::path& path);
/// report.html plus the plots as .svg files in `folder` (created if missing).
void write_comparison_report(const std::vector<ComparisonRow>& rows, const std::filesystem::path& folder);

}  // namespace layoutopt::evaluation
