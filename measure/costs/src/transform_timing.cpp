#include "layoutopt/costs/transform_timing.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "layoutopt/layout/transform.h"
#include "layoutopt/tuning/activation_placement.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/timing/statistics.h"
#include "layoutopt/tuning/timed_operands.h"

namespace layoutopt::costs {

namespace {

double unix_time() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

timing::TimingPolicy transform_pass_policy(const timing::TimingPolicy& policy) {
  timing::TimingPolicy share = policy;
  share.min_repeat_ms = policy.min_repeat_ms / kTransformPasses;
  share.max_repeats = std::max(policy.min_repeats, policy.max_repeats / kTransformPasses);
  return share;
}

TransformEntry time_transform_pass(const TransformKey& key, const timing::TimingPolicy& pass_policy,
                                   const std::string& target) {
  const auto transform = layout::LayoutTransform::for_activation(key.shape, key.src, key.dst);
  const auto elements = static_cast<size_t>(transform.elements());
  const kernels::PageBlock src = tuning::random_block(elements, 11);
  const kernels::PageBlock dst = tuning::random_block(elements, 12);
  // The source as the step before left it, like a kernel's input (activation_placement.h).
  const int64_t src_plane = tuning::row_plane_floats(key.shape, key.src);
  const timing::Timing timing = timing::time_cost(
      pass_policy, [&] { transform.run(src.data(), dst.data()); },
      [&] { tuning::write_rows_per_thread(src.span(), src_plane); });
  return {target, timing.threads, key, timing.ms.median, timing.ms.q1, timing.ms.q3, timing.repeats, unix_time()};
}

namespace {

// One entry from the passes of one key: the median of each statistic, the repeats summed.
TransformEntry combine_passes(const std::vector<TransformEntry>& passes) {
  auto median_of = [&](double TransformEntry::*field) {
    std::vector<double> values;
    for (const TransformEntry& t : passes) values.push_back(t.*field);
    return timing::summarize(values).median;
  };
  TransformEntry entry = passes.back();
  entry.median_ms = median_of(&TransformEntry::median_ms);
  entry.q1_ms = median_of(&TransformEntry::q1_ms);
  entry.q3_ms = median_of(&TransformEntry::q3_ms);
  entry.repeats = 0;
  for (const TransformEntry& t : passes) entry.repeats += t.repeats;
  return entry;
}

}  // namespace

TransformPasses::TransformPasses(const std::vector<TransformKey>& keys, timing::ProgressReporter* progress,
                                 EntryCallback on_entry)
    : passes_(keys.size()), entries_(keys.size()), progress_(progress), on_entry_(std::move(on_entry)) {}

void TransformPasses::add(size_t k, const TransformEntry& pass) {
  passes_[k].push_back(pass);
  entries_[k] = combine_passes(passes_[k]);
  ++added_;
  if (on_entry_) on_entry_(entries_[k]);
  if (!progress_) return;
  std::ostringstream status;
  status << "[Transform " << k + 1 << "/" << entries_.size() << "] pass " << passes_[k].size() << "/"
         << kTransformPasses << " " << describe(pass.key) << ": " << entries_[k].median_ms << " ms";
  progress_->update(static_cast<double>(added_), static_cast<double>(entries_.size() * kTransformPasses), status.str());
}

std::vector<TransformEntry> LocalTransformTimer::time(const std::vector<TransformKey>& keys,
                                                      timing::ProgressReporter* progress,
                                                      const EntryCallback& on_entry) {
  const timing::TimingPolicy share = transform_pass_policy(policy_);
  TransformPasses passes(keys, progress, on_entry);
  for (int pass = 1; pass <= kTransformPasses; ++pass)
    for (size_t k = 0; k < keys.size(); ++k) passes.add(k, time_transform_pass(keys[k], share, target_));
  return passes.entries();
}

std::vector<TransformEntry> time_transforms(const std::vector<TransformKey>& keys, const timing::TimingPolicy& policy,
                                            const std::string& target, timing::ProgressReporter* progress,
                                            const EntryCallback& on_entry) {
  LocalTransformTimer timer(policy, target);
  return timer.time(keys, progress, on_entry);
}

FillResult fill_transform_table(TransformTable& table, const std::vector<TransformKey>& keys, TransformTimer& timer,
                                const std::string& target, int threads, timing::ProgressReporter* progress,
                                const std::function<void()>& after_each) {
  FillResult result;
  std::vector<TransformKey> missing;
  for (const TransformKey& key : keys) {
    if (table.find(target, threads, key)) ++result.reused;
    else missing.push_back(key);
  }
  result.measured = static_cast<int64_t>(missing.size());
  (void)timer.time(missing, progress, [&](TransformEntry entry) {
    // Filed under the table's target and thread count, whichever identical host timed it.
    entry.target = target;
    entry.threads = threads;
    table.insert(entry);
    if (after_each) after_each();
  });
  return result;
}

}  // namespace layoutopt::costs
