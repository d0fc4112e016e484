#include "dp/run_kernels.h"

#include <algorithm>

namespace layoutopt::solvers::dp {

namespace {

#define LAYOUTOPT_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

// One loop per case, so each inner loop is a plain vectorizable stream.
template <bool kAssign, bool kBroadcast>
inline void sum_runs_of(Cost* __restrict out, const Cost* __restrict in, const RunStart* starts, size_t count,
                        size_t extent) {
  for (size_t s = 0; s < count; ++s) {
    Cost* __restrict o = out + starts[s].out;
    const Cost* __restrict v = in + starts[s].in;
    for (size_t i = 0; i < extent; ++i) {
      const Cost value = kBroadcast ? v[0] : v[i];
      o[i] = kAssign ? value : o[i] + value;
    }
  }
}

LAYOUTOPT_VECTOR_CLONES void assign_runs(Cost* out, const Cost* in, const RunStart* starts, size_t count,
                                         size_t extent) {
  sum_runs_of<true, false>(out, in, starts, count, extent);
}
LAYOUTOPT_VECTOR_CLONES void assign_broadcasts(Cost* out, const Cost* in, const RunStart* starts, size_t count,
                                               size_t extent) {
  sum_runs_of<true, true>(out, in, starts, count, extent);
}
LAYOUTOPT_VECTOR_CLONES void add_runs(Cost* out, const Cost* in, const RunStart* starts, size_t count, size_t extent) {
  sum_runs_of<false, false>(out, in, starts, count, extent);
}
LAYOUTOPT_VECTOR_CLONES void add_broadcasts(Cost* out, const Cost* in, const RunStart* starts, size_t count,
                                            size_t extent) {
  sum_runs_of<false, true>(out, in, starts, count, extent);
}

}  // namespace

void sum_runs(Cost* out, const Cost* in, const std::vector<RunStart>& starts, size_t extent, bool broadcast,
              bool assign) {
  const auto loop = assign ? (broadcast ? assign_broadcasts : assign_runs) : (broadcast ? add_broadcasts : add_runs);
  loop(out, in, starts.data(), starts.size(), extent);
}

LAYOUTOPT_VECTOR_CLONES void min_into(Cost* __restrict out, const Cost* __restrict in, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = std::min(out[i], in[i]);
}

LAYOUTOPT_VECTOR_CLONES void min_into(Cost* __restrict out, const Cost* __restrict in, size_t n,
                                      uint16_t* __restrict choice, uint16_t candidate) {
  for (size_t i = 0; i < n; ++i) {
    const bool better = in[i] < out[i];
    out[i] = better ? in[i] : out[i];
    choice[i] = better ? candidate : choice[i];
  }
}

}  // namespace layoutopt::solvers::dp
