#pragma once
// Timing layout transforms for the transform table, with the same cost policy and procedure
// as kernels (cost_policy.h: cost_policy, time_cost) so node and edge costs add up.
// Transforms are timed one after another, never in parallel: on a machine with few cores,
// concurrent timings disturb each other; each one uses the configured OpenMP thread count,
// like the kernels it sits between.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "layoutopt/measure/progress.h"
#include "layoutopt/measure/timing.h"
#include "layoutopt/measure/transform_table.h"

namespace layoutopt::measure {

/// Times one transform on random data. Throws layout::LayoutError for a layout the shape
/// cannot take.
[[nodiscard]] TransformEntry time_transform(const TransformKey& key, const TimingPolicy& policy,
                                            const std::string& target);

struct FillResult {
  int64_t reused = 0;    ///< already in the table
  int64_t measured = 0;  ///< timed now
};

/// Times every key missing from `table` for (target, policy.threads) and inserts it; calls
/// `after_each` after each new entry (e.g. to save the table incrementally).
FillResult fill_transform_table(TransformTable& table, const std::vector<TransformKey>& keys,
                                const TimingPolicy& policy, const std::string& target, ProgressReporter* progress,
                                const std::function<void()>& after_each = {});

}  // namespace layoutopt::measure
