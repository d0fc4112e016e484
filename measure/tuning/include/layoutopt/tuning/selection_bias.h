#pragma once
// Selection bias of tuning timings: how much slower a config the tuner picked turns out
// when it is timed again.
//
// A tuning log times each config once, and the planner picks, per task and layout pair, the
// config with the lowest timing among hundreds of near-equal ones. On a shared machine that
// minimum is partly luck. Configs a plan chose are timed again (config_confirmation.h), and
// the ratio of their later timings to their tuning timing measures the luck. Scaling every
// once-timed config of a task by that ratio makes it comparable with its re-timed rivals
// and its prediction honest. Evidence: docs/design/confirmation.md (selection bias).
//
// The ratio is the task's own when enough of its configs were re-timed (the noise of a
// 0.05 ms kernel is not that of a 2 ms one), else the one of all tasks pooled, else 1.

#include <cstddef>
#include <vector>

namespace layoutopt::tuning {

struct SessionResult;  // tuning_session.h

/// Re-timed configs a task needs before its own ratios are trusted over the pooled ones.
inline constexpr size_t kOwnRatiosNeeded = 3;

/// One factor per task for its configs timed once: the median of the task's
/// `ratios_by_task` (LayoutCandidates::retiming_ratios) when it has at least `own_needed`,
/// else the median of every task's ratios together, else 1 when nothing was timed again.
[[nodiscard]] std::vector<double> once_timed_factors(const std::vector<std::vector<double>>& ratios_by_task,
                                                     size_t own_needed = kOwnRatiosNeeded);

/// once_timed_factors of a summarized history (summarize_history), one per task in its
/// order, from the retiming ratios of each task's configs: the one rule by which the
/// measured cost source and the default baseline price configs timed once.
[[nodiscard]] std::vector<double> once_timed_factors_of(const SessionResult& history,
                                                        size_t own_needed = kOwnRatiosNeeded);

}  // namespace layoutopt::tuning
