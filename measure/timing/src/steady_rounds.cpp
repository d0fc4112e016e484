#include "layoutopt/timing/steady_rounds.h"

#include <algorithm>
#include <stdexcept>

namespace layoutopt::timing {

std::vector<double> SteadyRounds::series(size_t s) const {
  std::vector<double> figures;
  for (const std::vector<double>& round : kept) figures.push_back(round.at(s));
  return figures;
}

double round_swing(const std::vector<std::vector<double>>& rounds) {
  double swing = 1;
  const size_t series = rounds.empty() ? 0 : rounds.front().size();
  for (size_t s = 0; s < series; ++s) {
    double fastest = rounds.front().at(s), slowest = fastest;
    for (const std::vector<double>& round : rounds) {
      fastest = std::min(fastest, round.at(s));
      slowest = std::max(slowest, round.at(s));
    }
    if (fastest > 0) swing = std::max(swing, slowest / fastest);
  }
  return swing;
}

SteadyRounds time_steady_rounds(const RoundPolicy& policy, const RoundTimer& round) {
  if (policy.rounds < 1 || policy.max_retimed < 0)
    throw std::invalid_argument("time_steady_rounds: needs rounds >= 1 and max_retimed >= 0");
  SteadyRounds result;
  for (int r = 0; r < policy.rounds; ++r) result.kept.push_back(round());
  result.swing = round_swing(result.kept);
  while (result.swing > policy.tolerance && result.retimed < policy.max_retimed) {
    result.kept.erase(result.kept.begin());
    result.kept.push_back(round());
    ++result.retimed;
    result.swing = round_swing(result.kept);
  }
  result.steady = result.swing <= policy.tolerance;
  return result;
}

}  // namespace layoutopt::timing
