#pragma once
// Rounds of one measurement that must agree. A shared host has slow spells that slow a whole
// network for seconds to minutes (docs/design/slow-spells.md); keeping the fastest round hides
// a spell only when it missed one round, and the median of rounds hides it only when it missed
// most. So when the rounds disagree, they are timed again, a bounded number of times, and the
// latest rounds are kept: a spell that passed leaves rounds that agree.

#include <functional>
#include <vector>

namespace layoutopt::timing {

/// Slowest over fastest round above which the rounds of one measurement disagree: below the
/// 25% a slow spell costs a whole run (docs/design/slow-spells.md), above the few percent
/// round medians differ by without one.
inline constexpr double kRoundSwingTolerance = 1.15;

struct RoundPolicy {
  int rounds = 3;        ///< rounds kept (the latest)
  int max_retimed = 3;   ///< extra rounds at most when the kept ones disagree
  double tolerance = kRoundSwingTolerance;
};

/// One round times every series once (a network, or each of several side by side, in
/// alternation) and returns one figure per series, the same count every round.
using RoundTimer = std::function<std::vector<double>()>;

struct SteadyRounds {
  std::vector<std::vector<double>> kept;  ///< [round][series], the latest policy.rounds rounds in order
  int retimed = 0;                        ///< rounds timed beyond policy.rounds
  double swing = 1;                       ///< largest slowest / fastest over the kept rounds of any series
  bool steady = true;                     ///< swing within the tolerance

  /// Series `s`'s figures over the kept rounds.
  [[nodiscard]] std::vector<double> series(size_t s) const;
};

/// Largest slowest / fastest of any series over `rounds` ([round][series]); 1 when empty.
[[nodiscard]] double round_swing(const std::vector<std::vector<double>>& rounds);

/// Times policy.rounds rounds; while the latest policy.rounds swing above the tolerance and
/// fewer than max_retimed extra rounds were timed, times one more. Throws
/// std::invalid_argument for rounds < 1 or max_retimed < 0.
[[nodiscard]] SteadyRounds time_steady_rounds(const RoundPolicy& policy, const RoundTimer& round);

}  // namespace layoutopt::timing
