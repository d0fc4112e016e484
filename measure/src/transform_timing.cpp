#include "layoutopt/measure/transform_timing.h"

#include <chrono>
#include <sstream>

#include "layoutopt/layout/transform.h"
#include "layoutopt/measure/cost_policy.h"
#include "layoutopt/measure/random_fill.h"

namespace layoutopt::measure {

namespace {

std::string describe(const TransformKey& key) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < key.shape.size(); ++i) out << (i ? "," : "") << key.shape[i];
  out << "] " << key.src << " -> " << key.dst;
  return out.str();
}

double unix_time() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

TransformEntry time_transform(const TransformKey& key, const TimingPolicy& policy, const std::string& target) {
  const auto transform =
      layout::LayoutTransform::for_activation(key.shape, layout::Layout::parse(key.src), layout::Layout::parse(key.dst));
  std::vector<float> src(static_cast<size_t>(transform.elements()));
  std::vector<float> dst(src.size());
  fill_random(src, 11);
  fill_random(dst, 12);  // first-touch the destination so page faults are not timed
  const Timing timing = time_cost(policy, [&] { transform.run(src.data(), dst.data()); });
  return {target, timing.threads, key, timing.ms.median, timing.ms.q1, timing.ms.q3, timing.repeats, unix_time()};
}

FillResult fill_transform_table(TransformTable& table, const std::vector<TransformKey>& keys,
                                const TimingPolicy& policy, const std::string& target, ProgressReporter* progress,
                                const std::function<void()>& after_each) {
  FillResult result;
  const auto total = static_cast<double>(keys.size());
  for (const TransformKey& key : keys) {
    if (table.find(target, policy.threads, key)) {
      ++result.reused;
      continue;
    }
    const TransformEntry entry = time_transform(key, policy, target);
    table.insert(entry);
    ++result.measured;
    if (after_each) after_each();
    if (progress) {
      std::ostringstream status;
      status << "[Transform " << result.reused + result.measured << "/" << keys.size() << "] " << describe(key) << ": "
             << entry.median_ms << " ms";
      progress->update(static_cast<double>(result.reused + result.measured), total, status.str());
    }
  }
  return result;
}

}  // namespace layoutopt::measure
