#include "layoutopt/kernels/store_knob.h"

#include <vector>

namespace layoutopt::kernels {

void add_store_knob(ConfigSpace& space, int64_t out_channels) {
  std::vector<int64_t> blocks{0};
  for (int64_t block : divisors(out_channels)) blocks.push_back(block);
  space.add_derived(kStoreKnob, blocks, 0);
}

bool valid_store_block(int64_t store_bn, int64_t out_channels) {
  return store_bn == 0 || (store_bn > 0 && out_channels % store_bn == 0);
}

std::string store_suffix(int64_t store_bn) { return store_bn != 0 ? "_st" + std::to_string(store_bn) : ""; }

}  // namespace layoutopt::kernels
