#pragma once
// The tuning budget of one `optimize` run: a named level or explicit seconds. The levels'
// seconds are policy of the pipeline, not of the CLI: quick is enough for a first plan of a
// small network, thorough for the figures in the README.
//
//   quick 60 s, normal 600 s, thorough 3600 s

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutopt::pipeline {

enum class BudgetLevel { quick, normal, thorough };

class TuningBudget {
 public:
  /// The seconds of a named level.
  [[nodiscard]] static TuningBudget of(BudgetLevel level);
  /// Explicit seconds; throws std::invalid_argument unless they are finite and positive.
  [[nodiscard]] static TuningBudget explicit_seconds(double seconds);
  /// A front end's choice: explicit `seconds` when given (they override a level), else the
  /// level named `level` (parse_budget_level). Throws std::invalid_argument as those do.
  [[nodiscard]] static TuningBudget chosen(std::string_view level, std::optional<double> seconds);

  /// Tuning seconds (wall clock, over all tasks).
  [[nodiscard]] double seconds() const { return seconds_; }
  /// The level it was made from; nullopt for explicit seconds.
  [[nodiscard]] std::optional<BudgetLevel> level() const { return level_; }

  bool operator==(const TuningBudget&) const = default;

 private:
  TuningBudget(std::optional<BudgetLevel> level, double seconds) : level_(level), seconds_(seconds) {}
  std::optional<BudgetLevel> level_;
  double seconds_;
};

/// "quick", "normal", "thorough".
[[nodiscard]] std::string_view to_string(BudgetLevel level);
/// The level named `name`; throws std::invalid_argument naming the levels for another name.
[[nodiscard]] BudgetLevel parse_budget_level(std::string_view name);
/// Every level's name, in order (quick first).
[[nodiscard]] const std::vector<std::string>& budget_level_names();
/// "quick (60 s), normal (600 s), thorough (3600 s)", for help texts.
[[nodiscard]] std::string describe_budget_levels();

}  // namespace layoutopt::pipeline
