#include "layoutopt/kernels/layout_knobs.h"

#include <vector>

namespace layoutopt::kernels {

void add_layout_knob(ConfigSpace& space, const LayoutKnob& knob, int64_t channels) {
  std::vector<int64_t> blocks{0};
  for (int64_t block : divisors(channels)) blocks.push_back(block);
  space.add_derived(knob.name, blocks, 0);
}

bool valid_layout_block(int64_t block, int64_t channels) { return block == 0 || (block > 0 && channels % block == 0); }

std::string layout_suffix(const LayoutKnob& knob, int64_t block) {
  return block != 0 ? knob.suffix + std::to_string(block) : "";
}

}  // namespace layoutopt::kernels
