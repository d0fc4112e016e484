#pragma once
// Layout knobs: derived knobs of the kernels that can read their input or store their output
// in another channel block than they compute in, the layout change fused into their loads or
// stores. Value 0 means "as computed"; search leaves it there, and
// tuning/fused_layout_variants.h derives the other values a plan can use. Design:
// docs/design/fused-layout-changes.md.

#include <cstdint>
#include <string>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/knob_table.h"

namespace layoutopt::kernels {

/// A channel block a kernel's tensor may be kept in: the knob's name and its suffix in the
/// schedule text.
struct LayoutKnob {
  const char* name;
  const char* suffix;
};

/// The block the output is stored in (direct, grouped and depthwise conv2d).
inline constexpr LayoutKnob kStoreKnob{knobs::conv2d::store_oc.name, "_st"};
/// The block the input is read in (direct and grouped conv2d).
inline constexpr LayoutKnob kLoadKnob{knobs::conv2d::load_ic.name, "_ld"};
// One store knob for every family that has one: the fused-variant code names it once.
static_assert(knobs::depthwise_conv2d::store_oc.is(kStoreKnob.name) && knobs::winograd_conv2d::store_oc.is(kStoreKnob.name));

/// Adds `knob` as a derived knob, last: 0, then every divisor of `channels`; absent reads as 0.
void add_layout_knob(ConfigSpace& space, const LayoutKnob& knob, int64_t channels);

/// True for a block a tensor of `channels` channels can be kept in: 0 (as computed) or a divisor.
[[nodiscard]] bool valid_layout_block(int64_t block, int64_t channels);

/// The schedule text's suffix for a block ("_st16"; empty for 0, kept as computed).
[[nodiscard]] std::string layout_suffix(const LayoutKnob& knob, int64_t block);

}  // namespace layoutopt::kernels
