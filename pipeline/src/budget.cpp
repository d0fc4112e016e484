#include "layoutopt/pipeline/budget.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace layoutopt::pipeline {

namespace {

struct LevelPolicy {
  BudgetLevel level;
  std::string_view name;
  double seconds;
};

constexpr std::array<LevelPolicy, 3> kLevels{{
    {BudgetLevel::quick, "quick", 60},
    {BudgetLevel::normal, "normal", 600},
    {BudgetLevel::thorough, "thorough", 3600},
}};

const LevelPolicy& policy_of(BudgetLevel level) {
  for (const LevelPolicy& policy : kLevels)
    if (policy.level == level) return policy;
  throw std::invalid_argument("unknown budget level");
}

}  // namespace

TuningBudget TuningBudget::of(BudgetLevel level) { return {level, policy_of(level).seconds}; }

TuningBudget TuningBudget::explicit_seconds(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0)
    throw std::invalid_argument("a tuning budget needs a positive number of seconds, not " + std::to_string(seconds));
  return {std::nullopt, seconds};
}

TuningBudget TuningBudget::chosen(std::string_view level, std::optional<double> seconds) {
  return seconds ? explicit_seconds(*seconds) : of(parse_budget_level(level));
}

std::string_view to_string(BudgetLevel level) { return policy_of(level).name; }

BudgetLevel parse_budget_level(std::string_view name) {
  for (const LevelPolicy& policy : kLevels)
    if (policy.name == name) return policy.level;
  std::string names;
  for (const std::string& known : budget_level_names()) names += (names.empty() ? "" : ", ") + known;
  throw std::invalid_argument("unknown budget '" + std::string(name) + "' (known: " + names + ")");
}

const std::vector<std::string>& budget_level_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const LevelPolicy& policy : kLevels) all.emplace_back(policy.name);
    return all;
  }();
  return names;
}

std::string describe_budget_levels() {
  std::string text;
  for (const LevelPolicy& policy : kLevels)
    text += (text.empty() ? "" : ", ") + std::string(policy.name) + " (" +
            std::to_string(static_cast<int>(policy.seconds)) + " s)";
  return text;
}

}  // namespace layoutopt::pipeline
