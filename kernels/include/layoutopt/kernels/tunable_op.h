#pragma once
// TunableOp: one facade over the kernel families (conv2d, grouped conv2d, depthwise conv2d,
// Winograd conv2d, dense) so a tuner can search any of them the same way: a ConfigSpace, and
// for a flat config index the knob values, the layouts the schedule implies, the physical
// buffer sizes a measurement must allocate, the packed weights and the compiled kernel.
//
//   TunableOp op = TunableOp::conv2d(desc);      // depthwise / grouped picked from the desc
//   for (int64_t i = 0; i < op.space().size(); ++i) {
//     OpLayouts l = op.layouts(i);                // e.g. NCHW16c -> NCHW32c
//     Kernel k = op.compile(i);                   // throws KernelError for a bad schedule
//   }

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/conv2d_desc.h"
#include "layoutopt/kernels/default_channel_block.h"
#include "layoutopt/kernels/dense.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/layout/layout.h"

namespace layoutopt::kernels {

enum class OpFamily { conv2d, group_conv2d, depthwise_conv2d, winograd_conv2d, dense, gemm_conv2d };
[[nodiscard]] const char* to_string(OpFamily family);
/// Whether the family's kernels compute a conv with an input scale (Conv2dDesc::input_scale):
/// the direct conv2d ones do, depthwise, Winograd, GEMM and dense do not.
[[nodiscard]] bool takes_input_scale(OpFamily family);
/// Whether the family's kernels compute a conv with an input prologue (Conv2dDesc::prologue):
/// the direct conv2d ones do (groups 1, as every prologue conv has), the others do not.
[[nodiscard]] bool takes_input_prologue(OpFamily family);

/// Physical layouts of a schedule's operands (bias is always a plain vector; a residual
/// has the output's layout).
struct OpLayouts {
  layout::Layout input;
  layout::Layout weight;
  layout::Layout output;
};

/// Float counts of each operand in its physical layout; 0 for an operand the epilogue
/// does not read.
struct BufferSizes {
  int64_t input = 0;
  int64_t weight = 0;
  int64_t bias = 0;
  int64_t residual = 0;
  int64_t output = 0;
  int64_t scale = 0;  ///< a conv's input scale: batch x in_channels, plain
  bool operator==(const BufferSizes&) const = default;
};

class TunableOp {
 public:
  /// conv2d, group_conv2d or depthwise_conv2d, as the desc's groups decide. Validates desc.
  static TunableOp conv2d(const Conv2dDesc& desc);
  /// Winograd F(m x m, 3 x 3); throws KernelError unless winograd_applicable(desc).
  static TunableOp winograd_conv2d(const Conv2dDesc& desc);
  /// The GEMM over pixels on NCHW (gemm_conv2d.h); throws KernelError unless
  /// gemm_conv2d_applicable(desc).
  static TunableOp gemm_conv2d(const Conv2dDesc& desc);
  /// Every algorithm that computes `desc`: conv2d (direct) first, then Winograd and the GEMM
  /// over pixels where they apply. Their knob names differ, so a knob assignment is a point
  /// of at most one.
  static std::vector<TunableOp> conv2d_algorithms(const Conv2dDesc& desc);
  /// The algorithm the untuned default computes `desc` with: Winograd where
  /// winograd_by_default, the GEMM where gemm_conv2d_by_default, else conv2d(desc).
  static TunableOp conv2d_default_algorithm(const Conv2dDesc& desc);
  static TunableOp dense(const DenseDesc& desc);

  [[nodiscard]] OpFamily family() const { return family_; }
  [[nodiscard]] const ConfigSpace& space() const { return space_; }
  /// The conv desc (conv families) or dense desc; the other accessor throws KernelError.
  [[nodiscard]] const Conv2dDesc& conv_desc() const;
  [[nodiscard]] const DenseDesc& dense_desc() const;

  /// Knob name -> value of config `index` (throws KernelError outside the space).
  [[nodiscard]] std::map<std::string, int64_t> knobs(int64_t index) const;
  /// Flat index of a knob assignment; nullopt when a knob is missing (and has no value when
  /// absent, see Knob), unknown or its value is not in the space.
  [[nodiscard]] std::optional<int64_t> index_of(const std::map<std::string, int64_t>& knobs) const;

  /// The untuned default config, what a framework runs without tuning: every channel block
  /// the largest of 16 and 8 dividing its channel count (else 1), the other knobs from the
  /// family's default schedule. Used as the "default" baseline of end-to-end comparisons.
  [[nodiscard]] int64_t default_index() const;

  [[nodiscard]] OpLayouts layouts(int64_t index) const;
  /// Logical shapes of the activation input and of the output (and residual), in canonical
  /// order: NCHW for convolutions, NC for dense.
  [[nodiscard]] std::vector<int64_t> input_shape() const;
  [[nodiscard]] std::vector<int64_t> output_shape() const;
  [[nodiscard]] BufferSizes buffer_sizes(int64_t index) const;
  /// The weights of config `index` as its kernel reads them, from canonical ones (OIHW for
  /// convolutions, OI for dense): re-laid, and for Winograd transformed.
  [[nodiscard]] std::vector<float> pack_weights(int64_t index, std::span<const float> canonical) const;
  /// Compiles (or fetches from the kernel cache) the kernel of config `index`.
  [[nodiscard]] Kernel compile(int64_t index) const;
  /// FLOPs of one run (2 per multiply-add of the direct algorithm, also for Winograd), for
  /// GFLOPS reporting.
  [[nodiscard]] double flops() const;
  /// FLOPs config `index`'s kernel spends in multiply-adds (2 each): flops() for direct
  /// kernels and dense, the batched product for Winograd (winograd_product_flops). What the
  /// compute limit of a planned network counts.
  [[nodiscard]] double executed_flops(int64_t index) const;
  /// Stable text, e.g. "conv2d n1_c64_..." (the desc's str()).
  [[nodiscard]] std::string str() const;

 private:
  TunableOp(OpFamily family, std::variant<Conv2dDesc, DenseDesc> desc, ConfigSpace space);

  OpFamily family_;
  std::variant<Conv2dDesc, DenseDesc> desc_;
  ConfigSpace space_;
};

}  // namespace layoutopt::kernels
