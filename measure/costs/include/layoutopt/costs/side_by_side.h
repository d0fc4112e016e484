#pragma once
// Which stretches of a compiled network run side by side (runtime::Fork), from the network's
// own step times: each step profiled with the whole team and with one thread, on the
// inputs set last. Measured rather than priced: how well a step splits over threads depends
// on its size and on what the step before left in which core's cache, which no isolated
// timing sees (docs/design/side-by-side.md).

#include <vector>

#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/runtime/fork.h"

namespace layoutopt::costs {

/// Step times of `network` with `threads` threads and with one, over `runs` profiled runs
/// each (profile_network), and the forks runtime::plan_forks makes of them for `threads`
/// lanes. None for fewer than two threads. Compile the network again with them
/// (CompiledNetwork::compile's forks) to run them.
[[nodiscard]] std::vector<runtime::Fork> plan_side_by_side(kernels::CompiledNetwork& network, int threads, int runs);

}  // namespace layoutopt::costs
