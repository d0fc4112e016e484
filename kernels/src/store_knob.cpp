#include "layoutopt/kernels/store_knob.h"

#include <vector>

namespace layoutopt::kernels {

void add_store_knob(ConfigSpace& space, int64_t out_channels) {
  std::vector<int64_t> blocks{0};
  for (int64_t block : divisors(out_channels)) blocks.push_back(block);
  space.add_derived(kStoreKnob, blocks, 0);
}

}  // namespace layoutopt::kernels
