#include "layoutopt/timing/timing.h"

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "layoutopt/timing/cache_flush.h"
#include "layoutopt/timing/thread_scope.h"

namespace layoutopt::timing {

namespace {

void validate(const TimingPolicy& policy) {
  auto fail = [](const std::string& why) { throw std::invalid_argument("timing policy: " + why); };
  if (policy.warmup_runs < 0) fail("warmup_runs must be >= 0, got " + std::to_string(policy.warmup_runs));
  if (policy.min_repeats < 1) fail("min_repeats must be >= 1, got " + std::to_string(policy.min_repeats));
  if (policy.max_repeats < policy.min_repeats)
    fail("max_repeats (" + std::to_string(policy.max_repeats) + ") is below min_repeats (" +
         std::to_string(policy.min_repeats) + ")");
  if (!(policy.min_repeat_ms >= 0.0)) fail("min_repeat_ms must be >= 0, got " + std::to_string(policy.min_repeat_ms));
}

double elapsed_ms(const std::function<void()>& body, const Clock& clock) {
  const double start = clock();
  body();
  return clock() - start;
}

}  // namespace

double steady_clock_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool needs_another_run(const TimingPolicy& policy, int repeats, double total_ms) {
  return repeats < policy.max_repeats && (repeats < policy.min_repeats || total_ms < policy.min_repeat_ms);
}

Timing time_runs(const TimingPolicy& policy, const std::function<void()>& body, const std::function<void()>& prepare,
                 const Clock& clock) {
  validate(policy);
  const Clock now = clock ? clock : Clock(steady_clock_ms);
  const ThreadScope threads(policy.threads);
  std::optional<CacheFlusher> flusher;
  if (policy.flush_cache) flusher.emplace(policy.flush_bytes > 0 ? policy.flush_bytes : default_flush_bytes());

  Timing timing;
  timing.threads = threads.threads();
  for (; timing.warmup_runs < policy.warmup_runs; ++timing.warmup_runs) {
    if (flusher) flusher->flush();
    if (prepare) prepare();
    body();
  }
  std::vector<double> samples;
  while (needs_another_run(policy, timing.repeats, timing.total_ms)) {
    if (flusher) flusher->flush();
    if (prepare) prepare();
    samples.push_back(elapsed_ms(body, now));
    timing.total_ms += samples.back();
    ++timing.repeats;
  }
  timing.ms = summarize(samples);
  return timing;
}

}  // namespace layoutopt::timing
