#pragma once
// Timing layout transforms for the transform table, with the same cost policy and procedure
// as kernels (cost_policy.h: cost_policy, time_cost) so node and edge costs add up.
// Transforms are timed one after another, never in parallel: on a machine with few cores,
// concurrent timings disturb each other; each one uses the configured OpenMP thread count,
// like the kernels it sits between.
//
// A list of transforms is timed in passes. A shared machine drifts for seconds at a time
// (neighbours on the host, clocks): timed back to back, a run of consecutive entries comes
// out slow together and disagrees with a re-measurement. Each pass times every key with a
// share of the policy's min_repeat_ms, and an entry is the median of its passes, so one
// slow stretch moves one sample per key, not the entry. Evidence:
// docs/design/reproducible-timings.md.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "layoutopt/timing/progress.h"
#include "layoutopt/timing/timing.h"
#include "layoutopt/costs/transform_key.h"
#include "layoutopt/costs/transform_table.h"

namespace layoutopt::costs {

/// Passes over a list of transforms (see above).
inline constexpr int kTransformPasses = 3;

/// Times every key in kTransformPasses passes. After each pass, calls `on_entry` for each key
/// with its entry so far (the median of its passes up to then), so an interrupted run keeps
/// what it measured. Returns the final entries, in the order of `keys`. Throws
/// layout::LayoutError for a layout a key's shape cannot take.
std::vector<TransformEntry> time_transforms(const std::vector<TransformKey>& keys, const timing::TimingPolicy& policy,
                                            const std::string& target, timing::ProgressReporter* progress,
                                            const std::function<void(const TransformEntry&)>& on_entry = {});

struct FillResult {
  int64_t reused = 0;    ///< already in the table
  int64_t measured = 0;  ///< timed now
};

/// Times every key missing from `table` for (target, policy.threads) with time_transforms and
/// inserts it; calls `after_each` after each new or updated entry (e.g. to save the table
/// incrementally).
FillResult fill_transform_table(TransformTable& table, const std::vector<TransformKey>& keys,
                                const timing::TimingPolicy& policy, const std::string& target, timing::ProgressReporter* progress,
                                const std::function<void()>& after_each = {});

}  // namespace layoutopt::costs
