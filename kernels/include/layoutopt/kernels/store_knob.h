#pragma once
// The store block: a derived knob of the kernels that can store their output in another
// channel block than they compute in (direct, grouped and depthwise conv2d), the layout change
// fused into their stores. Value 0 stores as computed; search leaves it there, and
// tuning/store_variants.h derives the other values a plan can use. Design:
// docs/design/fused-stores.md.

#include <cstdint>
#include <string>

#include "layoutopt/kernels/config_space.h"

namespace layoutopt::kernels {

inline constexpr const char* kStoreKnob = "store_oc";

/// Adds the store knob, last: 0, then every divisor of `out_channels`; absent reads as 0.
void add_store_knob(ConfigSpace& space, int64_t out_channels);

/// True for a store block a kernel with `out_channels` outputs can take: 0 or a divisor.
[[nodiscard]] bool valid_store_block(int64_t store_bn, int64_t out_channels);

/// The schedule text's suffix for a store block ("_st16"; empty for 0, stored as computed).
[[nodiscard]] std::string store_suffix(int64_t store_bn);

}  // namespace layoutopt::kernels
