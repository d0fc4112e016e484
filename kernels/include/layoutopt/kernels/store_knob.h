#pragma once
// The store block: a derived knob of the kernels that can store their output in another
// channel block than they compute in (direct, grouped and depthwise conv2d), the layout change
// fused into their stores. Value 0 stores as computed; search leaves it there, and
// tuning/store_variants.h derives the other values a plan can use. Design:
// docs/design/fused-stores.md.

#include <cstdint>

#include "layoutopt/kernels/config_space.h"

namespace layoutopt::kernels {

inline constexpr const char* kStoreKnob = "store_oc";

/// Adds the store knob, last: 0, then every divisor of `out_channels`; absent reads as 0.
void add_store_knob(ConfigSpace& space, int64_t out_channels);

}  // namespace layoutopt::kernels
