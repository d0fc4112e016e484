#pragma once
// The knobs of each tunable operator family, declared once: their spelling in records and
// plans, whether search visits them, their value type and range, and how AutoTVM's log writes
// them. The config spaces, the record reader and writer, the tuner's features and the kernels'
// schedule readers all name knobs through these tables, so a knob exists in one place.
// Header-only data (no LLVM): the record format reads it without linking the kernels.

#include <array>
#include <span>
#include <string_view>

namespace layoutopt::kernels {

/// searched: the tuner visits its values; derived: search leaves it at its first value and
/// variants of searched configs set it (layout_knobs.h); autotvm_alias: AutoTVM's template
/// spells it, ours reads it into another knob and never offers it.
enum class KnobKind { searched, derived, autotvm_alias };

/// How a value is written: a count or block, or a flag (AutoTVM writes true / false).
enum class KnobType { integer, boolean };

struct KnobDecl {
  const char* name;        ///< spelling in records, plans and schedule texts
  KnobKind kind;
  KnobType type;
  bool split;              ///< AutoTVM writes it as a split ("sp", innermost factor last), else "ot"
  const char* range;       ///< its candidate values, in words

  [[nodiscard]] constexpr bool is(std::string_view other) const { return std::string_view(name) == other; }
};

namespace knobs {

using enum KnobKind;
using enum KnobType;

/// Direct and grouped conv2d (conv2d_NCHWc.x86, group_conv2d_nchw.x86).
namespace conv2d {
inline constexpr KnobDecl tile_ic{"tile_ic", searched, integer, true, "divisors of the input channels per group"};
inline constexpr KnobDecl tile_oc{"tile_oc", searched, integer, true, "divisors of the output channels per group"};
inline constexpr KnobDecl tile_ow{"tile_ow", searched, integer, true, "1 .. min(output width, widest register tile)"};
inline constexpr KnobDecl unroll_kw{"unroll_kw", searched, boolean, false, "0, 1"};
inline constexpr KnobDecl tile_oh{"tile_oh", searched, integer, false, "1 .. min(output height, 4) for 1x1 or narrow outputs, else 1"};
inline constexpr KnobDecl oc_inner{"oc_inner", searched, boolean, false, "0, 1"};
inline constexpr KnobDecl prefetch_weights{"prefetch_weights", searched, boolean, false, "0, 1 (absent: 0)"};
inline constexpr KnobDecl reduce_chunk{"reduce_chunk", searched, integer, false,
                                       "0, and 32 .. 256 input channels below the channels per group (absent: 0)"};
inline constexpr KnobDecl flat_pixels{"flat_pixels", searched, boolean, false,
                                      "0, 1 for 1x1 stride-1 unpadded convs, else 0 (absent: 0)"};
inline constexpr KnobDecl tile_oc_blocks{"tile_oc_blocks", searched, integer, false,
                                         "1 .. 4 output blocks per register tile where the channels per group divide by "
                                         "a vector but not by two; where they divide by two, 1 and the register-filling "
                                         "count if over 2 (3 on AVX2, 4 with AVX-512); else 1 (absent: 1)"};
inline constexpr KnobDecl prefetch_input{"prefetch_input", searched, boolean, false,
                                         "0, 1 for strided convs with kernels wider than a pixel, else 0 (absent: 0)"};
inline constexpr KnobDecl store_oc{"store_oc", derived, integer, false, "0, divisors of the output channels"};
inline constexpr KnobDecl load_ic{"load_ic", derived, integer, false, "0, divisors of the input channels"};
inline constexpr std::array table{tile_ic,      tile_oc,          tile_ow,      unroll_kw,   tile_oh,
                                  oc_inner,     prefetch_weights, reduce_chunk, flat_pixels, tile_oc_blocks,
                                  prefetch_input, store_oc,       load_ic};
}  // namespace conv2d

/// Depthwise conv2d (depthwise_conv2d_NCHWc.x86).
namespace depthwise_conv2d {
inline constexpr KnobDecl tile_c{"tile_c", searched, integer, true, "divisors of the channels"};
inline constexpr KnobDecl tile_ow{"tile_ow", searched, integer, true, "1 .. min(output width, widest register tile)"};
inline constexpr KnobDecl tile_oh{"tile_oh", searched, integer, false, "1 .. min(output height, tallest tile)"};
inline constexpr KnobDecl store_oc{"store_oc", derived, integer, false, "0, divisors of the channels"};
// AutoTVM's depthwise template splits input and output channels apart and may unroll the
// kernel width; tile_ic == tile_oc reads as tile_c, and ours always unrolls.
inline constexpr KnobDecl tile_ic{"tile_ic", autotvm_alias, integer, true, "as tile_c"};
inline constexpr KnobDecl tile_oc{"tile_oc", autotvm_alias, integer, true, "as tile_c"};
inline constexpr KnobDecl unroll_kw{"unroll_kw", autotvm_alias, boolean, false, "ignored"};
inline constexpr std::array table{tile_c, tile_ow, tile_oh, store_oc, tile_ic, tile_oc, unroll_kw};
}  // namespace depthwise_conv2d

/// Winograd conv2d (conv2d_NCHWc_winograd.x86).
namespace winograd_conv2d {
inline constexpr KnobDecl tile_m{"tile_m", searched, integer, false, "the output tile sizes of the transforms"};
inline constexpr KnobDecl tile_ic{"tile_ic", searched, integer, true, "divisors of the input channels"};
inline constexpr KnobDecl tile_oc{"tile_oc", searched, integer, true, "divisors of the output channels"};
inline constexpr KnobDecl tile_t{"tile_t", searched, integer, false, "1 .. min(tiles of 2 x 2, widest register tile)"};
inline constexpr KnobDecl oc_inner{"oc_inner", searched, boolean, false, "0, 1"};
inline constexpr KnobDecl prefetch_weights{"prefetch_weights", searched, boolean, false, "0, 1 (absent: 0)"};
inline constexpr KnobDecl tile_band{"tile_band", searched, integer, false, "0, 1, 2, 4 (absent: 0)"};
inline constexpr KnobDecl tile_oc_blocks{"tile_oc_blocks", searched, integer, false,
                                         "1 .. 4 output blocks per register tile of the batched product (absent: 1)"};
inline constexpr KnobDecl store_oc{"store_oc", derived, integer, false, "0, divisors of the output channels"};
inline constexpr std::array table{tile_m,           tile_ic,   tile_oc,        tile_t,  oc_inner,
                                  prefetch_weights, tile_band, tile_oc_blocks, store_oc};
}  // namespace winograd_conv2d

/// 1x1 conv2d on plain NCHW activations as a GEMM over pixels (conv2d_nchw_gemm.x86).
namespace gemm_conv2d {
inline constexpr KnobDecl tile_channels{"tile_channels", searched, integer, false,
                                        "1 .. min(output channels, 8): output channels per register tile"};
inline constexpr KnobDecl tile_pixels{"tile_pixels", searched, integer, false,
                                      "pixels per register tile: 1 .. 4 whole vectors below the image's pixels, "
                                      "then those pixels up to 4 vectors"};
inline constexpr std::array table{tile_channels, tile_pixels};
}  // namespace gemm_conv2d

/// Dense (dense_nopack.x86).
namespace dense {
inline constexpr KnobDecl tile_in{"tile_in", searched, integer, true, "divisors of the input features"};
inline constexpr KnobDecl tile_out{"tile_out", searched, integer, true, "divisors of the output features"};
inline constexpr KnobDecl prefetch_weights{"prefetch_weights", searched, boolean, false, "0, 1 (absent: 0)"};
inline constexpr KnobDecl tile_rows{"tile_rows", searched, integer, true, "1 .. min(rows, widest register tile) (absent: 1)"};
inline constexpr std::array table{tile_in, tile_out, prefetch_weights, tile_rows};
}  // namespace dense

/// Elementwise operators (not tuned: their space is timed per block by the cost source).
namespace elementwise {
inline constexpr KnobDecl tile_chunk{"tile_chunk", searched, integer, false, "1024, 4096, ... below the stream length, and it"};
inline constexpr std::array table{tile_chunk};
}  // namespace elementwise

/// Pooling (not tuned, as elementwise).
namespace pool2d {
inline constexpr KnobDecl tile_ow{"tile_ow", searched, integer, true, "1 .. min(output width, widest register tile)"};
inline constexpr std::array table{tile_ow};
}  // namespace pool2d

}  // namespace knobs

/// The declaration named `name` in `table`, or nullptr.
[[nodiscard]] constexpr const KnobDecl* find_knob(std::span<const KnobDecl> table, std::string_view name) {
  for (const KnobDecl& knob : table)
    if (knob.is(name)) return &knob;
  return nullptr;
}

}  // namespace layoutopt::kernels
