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
#include <utility>
#include <vector>

#include "layoutopt/timing/progress.h"
#include "layoutopt/timing/timing.h"
#include "layoutopt/costs/transform_key.h"
#include "layoutopt/costs/transform_table.h"

namespace layoutopt::costs {

/// Passes over a list of transforms (see above).
inline constexpr int kTransformPasses = 3;

/// Called with a key's entry so far (the median of its passes up to then) after each pass of it.
using EntryCallback = std::function<void(const TransformEntry&)>;

/// Who times a list of transforms: this process (LocalTransformTimer), or a measurement farm
/// spreading the passes over hosts (distributed/measurement_farm.h).
class TransformTimer {
 public:
  virtual ~TransformTimer() = default;
  /// Times every key in kTransformPasses passes, calling `on_entry` after each pass of a key
  /// (so an interrupted run keeps what it measured). Returns the final entries, in the order
  /// of `keys`. Throws layout::LayoutError for a layout a key's shape cannot take.
  virtual std::vector<TransformEntry> time(const std::vector<TransformKey>& keys, timing::ProgressReporter* progress,
                                           const EntryCallback& on_entry) = 0;
};

/// The policy of one pass: a kTransformPasses-th share of `policy`'s timed milliseconds.
[[nodiscard]] timing::TimingPolicy transform_pass_policy(const timing::TimingPolicy& policy);

/// One pass over one key on random data, with the policy of a pass (transform_pass_policy).
[[nodiscard]] TransformEntry time_transform_pass(const TransformKey& key, const timing::TimingPolicy& pass_policy,
                                                 const std::string& target);

/// The passes of a list of keys as they arrive, in any order (one host, or many): each key's
/// entry is the median of each statistic over its passes so far, the repeats summed, and is
/// handed to `on_entry` and reported as a progress line after every pass.
class TransformPasses {
 public:
  /// `progress` (may be null) must outlive this.
  TransformPasses(const std::vector<TransformKey>& keys, timing::ProgressReporter* progress, EntryCallback on_entry);
  /// Adds one pass of keys[k].
  void add(size_t k, const TransformEntry& pass);
  [[nodiscard]] const std::vector<TransformEntry>& entries() const { return entries_; }

 private:
  std::vector<std::vector<TransformEntry>> passes_;  ///< by key
  std::vector<TransformEntry> entries_;              ///< by key
  size_t added_ = 0;
  timing::ProgressReporter* progress_;
  EntryCallback on_entry_;
};

/// Times on this process, pass after pass over the whole list.
class LocalTransformTimer : public TransformTimer {
 public:
  LocalTransformTimer(const timing::TimingPolicy& policy, std::string target)
      : policy_(policy), target_(std::move(target)) {}
  std::vector<TransformEntry> time(const std::vector<TransformKey>& keys, timing::ProgressReporter* progress,
                                   const EntryCallback& on_entry) override;

 private:
  timing::TimingPolicy policy_;
  std::string target_;
};

/// Times every key with a LocalTransformTimer (see TransformTimer::time).
std::vector<TransformEntry> time_transforms(const std::vector<TransformKey>& keys, const timing::TimingPolicy& policy,
                                            const std::string& target, timing::ProgressReporter* progress,
                                            const EntryCallback& on_entry = {});

struct FillResult {
  int64_t reused = 0;    ///< already in the table
  int64_t measured = 0;  ///< timed now
};

/// Times every key missing from `table` for (target, threads) with `timer` and inserts it
/// under that target and thread count; calls `after_each` after each new or updated entry
/// (e.g. to save the table incrementally).
FillResult fill_transform_table(TransformTable& table, const std::vector<TransformKey>& keys, TransformTimer& timer,
                                const std::string& target, int threads, timing::ProgressReporter* progress,
                                const std::function<void()>& after_each = {});

}  // namespace layoutopt::costs
