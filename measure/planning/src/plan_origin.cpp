#include "layoutopt/planning/plan_origin.h"

#include <array>
#include <stdexcept>
#include <utility>

namespace layoutopt::planning {

namespace {

template <class Enum, size_t N>
Enum parse_spelling(std::string_view text, const std::array<std::pair<Enum, const char*>, N>& spellings,
                    const char* what) {
  for (const auto& [value, spelling] : spellings)
    if (text == spelling) return value;
  std::string allowed;
  for (const auto& entry : spellings) allowed += (allowed.empty() ? "" : ", ") + std::string(entry.second);
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(text) + "' (expected one of: " +
                              allowed + ")");
}

template <class Enum, size_t N>
std::string spelling_of(Enum value, const std::array<std::pair<Enum, const char*>, N>& spellings) {
  for (const auto& [known, spelling] : spellings)
    if (known == value) return spelling;
  throw std::logic_error("an enumerator without a spelling");
}

constexpr std::array<std::pair<SolverChoice, const char*>, 3> kSolverSpellings{
    {{SolverChoice::automatic, "auto"}, {SolverChoice::dp, "dp"}, {SolverChoice::pbqp, "pbqp"}}};
constexpr std::array<std::pair<CostKind, const char*>, 2> kCostSpellings{
    {{CostKind::measured, "measured"}, {CostKind::modelled, "modelled"}}};

}  // namespace

SolverChoice parse_solver(std::string_view text) { return parse_spelling(text, kSolverSpellings, "solver"); }
CostKind parse_cost_kind(std::string_view text) { return parse_spelling(text, kCostSpellings, "cost kind"); }
std::string to_string(SolverChoice solver) { return spelling_of(solver, kSolverSpellings); }
std::string to_string(CostKind costs) { return spelling_of(costs, kCostSpellings); }

}  // namespace layoutopt::planning
