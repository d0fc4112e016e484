#include "layoutopt/measure/cost_policy.h"

namespace layoutopt::measure {

TimingPolicy cost_policy(int threads, double min_repeat_ms) {
  TimingPolicy policy;
  policy.warmup_runs = 2;
  policy.min_repeats = 5;
  policy.min_repeat_ms = min_repeat_ms;
  policy.threads = threads;
  policy.flush_cache = false;
  return policy;
}

}  // namespace layoutopt::measure
