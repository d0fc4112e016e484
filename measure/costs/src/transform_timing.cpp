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

// One entry from several timings of the same key: the median of each statistic.
TransformEntry median_entry(const std::vector<TransformEntry>& timings) {
  auto median_of = [&](double TransformEntry::*field) {
    std::vector<double> values;
    for (const TransformEntry& t : timings) values.push_back(t.*field);
    return timing::summarize(values).median;
  };
  TransformEntry entry = timings.back();
  entry.median_ms = median_of(&TransformEntry::median_ms);
  entry.q1_ms = median_of(&TransformEntry::q1_ms);
  entry.q3_ms = median_of(&TransformEntry::q3_ms);
  entry.repeats = 0;
  for (const TransformEntry& t : timings) entry.repeats += t.repeats;
  return entry;
}

double unix_time() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// One timing of one transform on random data.
TransformEntry time_transform(const TransformKey& key, const timing::TimingPolicy& policy, const std::string& target) {
  const auto transform = layout::LayoutTransform::for_activation(key.shape, key.src, key.dst);
  const auto elements = static_cast<size_t>(transform.elements());
  const kernels::PageBlock src = tuning::random_block(elements, 11);
  const kernels::PageBlock dst = tuning::random_block(elements, 12);
  // The source as the step before left it, like a kernel's input (activation_placement.h).
  const int64_t src_plane = tuning::row_plane_floats(key.shape, key.src);
  const timing::Timing timing = timing::time_cost(
      policy, [&] { transform.run(src.data(), dst.data()); }, [&] { tuning::write_rows_per_thread(src.span(), src_plane); });
  return {target, timing.threads, key, timing.ms.median, timing.ms.q1, timing.ms.q3, timing.repeats, unix_time()};
}

}  // namespace

std::vector<TransformEntry> time_transforms(const std::vector<TransformKey>& keys, const timing::TimingPolicy& policy,
                                            const std::string& target, timing::ProgressReporter* progress,
                                            const std::function<void(const TransformEntry&)>& on_entry) {
  timing::TimingPolicy share = policy;
  share.min_repeat_ms = policy.min_repeat_ms / kTransformPasses;
  share.max_repeats = std::max(policy.min_repeats, policy.max_repeats / kTransformPasses);
  std::vector<std::vector<TransformEntry>> passes(keys.size());
  std::vector<TransformEntry> entries(keys.size());
  const auto total = static_cast<double>(keys.size() * kTransformPasses);
  for (int pass = 1; pass <= kTransformPasses; ++pass) {
    for (size_t k = 0; k < keys.size(); ++k) {
      passes[k].push_back(time_transform(keys[k], share, target));
      entries[k] = median_entry(passes[k]);
      if (on_entry) on_entry(entries[k]);
      if (progress) {
        std::ostringstream status;
        status << "[Transform " << k + 1 << "/" << keys.size() << "] pass " << pass << "/" << kTransformPasses << " "
               << describe(keys[k]) << ": " << entries[k].median_ms << " ms";
        progress->update(static_cast<double>((pass - 1) * keys.size() + k + 1), total, status.str());
      }
    }
  }
  return entries;
}

FillResult fill_transform_table(TransformTable& table, const std::vector<TransformKey>& keys,
                                const timing::TimingPolicy& policy, const std::string& target, timing::ProgressReporter* progress,
                                const std::function<void()>& after_each) {
  FillResult result;
  std::vector<TransformKey> missing;
  for (const TransformKey& key : keys) {
    if (table.find(target, policy.threads, key)) ++result.reused;
    else missing.push_back(key);
  }
  result.measured = static_cast<int64_t>(missing.size());
  (void)time_transforms(missing, policy, target, progress, [&](const TransformEntry& entry) {
    table.insert(entry);
    if (after_each) after_each();
  });
  return result;
}

}  // namespace layoutopt::costs
