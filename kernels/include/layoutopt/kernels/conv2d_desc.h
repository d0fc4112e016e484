#pragma once
// Conv2dDesc: everything a conv2d kernel computes, as one value (like oneDNN's primitive
// descriptor). Shapes are logical (NCHW activations, OIHW weights with I = in_channels/groups);
// the schedule, not the desc, decides the physical layouts.

#include <cstdint>
#include <optional>
#include <string>

#include "layoutopt/kernels/epilogue.h"

namespace layoutopt::kernels {

struct Conv2dDesc {
  int64_t batch = 1;
  int64_t in_channels = 0;
  int64_t in_h = 0;
  int64_t in_w = 0;
  int64_t out_channels = 0;
  int64_t kernel_h = 1;
  int64_t kernel_w = 1;
  int64_t stride_h = 1;
  int64_t stride_w = 1;
  int64_t pad_top = 0;
  int64_t pad_left = 0;
  int64_t pad_bottom = 0;
  int64_t pad_right = 0;
  int64_t dilation_h = 1;
  int64_t dilation_w = 1;
  int64_t groups = 1;
  Epilogue epilogue;
  /// Computes conv(input * scale) with a scale[N, in_channels] per image and input channel
  /// (squeeze-and-excitation's gate), a plain vector of batch x in_channels floats. The
  /// direct conv2d kernel takes it (each weight vector times its input channel's factor);
  /// depthwise and Winograd kernels refuse it.
  bool input_scale = false;
  /// Computes conv(activation(input * scale[c] + shift[c])) with constant scale and shift
  /// per input channel (a batch norm and its activation moved into the conv), given after the
  /// bias in the bias operand: out_channels biases (with epilogue.bias), then in_channels
  /// scales, then in_channels shifts. Unpadded 1x1 groups-1 convs only (validate); the
  /// direct conv2d kernel takes it, the others refuse it.
  std::optional<Activation> prologue;

  [[nodiscard]] int64_t out_h() const;
  [[nodiscard]] int64_t out_w() const;
  [[nodiscard]] int64_t in_channels_per_group() const { return in_channels / groups; }
  [[nodiscard]] int64_t out_channels_per_group() const { return out_channels / groups; }
  /// Floats of the OIHW weights: out_channels x in_channels / groups x kernel_h x kernel_w.
  [[nodiscard]] int64_t weight_floats() const { return out_channels * in_channels_per_group() * kernel_h * kernel_w; }
  /// True for groups == in_channels == out_channels (one filter per channel).
  [[nodiscard]] bool is_depthwise() const;
  /// Multiply-adds times two: the FLOP count used for GFLOPS reporting.
  [[nodiscard]] double flops() const;
  /// Floats of the bias operand: the biases, then the prologue's scales and shifts.
  [[nodiscard]] int64_t bias_floats() const;
  /// Throws KernelError naming the first invalid field (non-positive sizes, groups not
  /// dividing the channels, an empty output, ...).
  void validate() const;
  /// Stable text used as cache key and in benchmark names.
  [[nodiscard]] std::string str() const;

  bool operator==(const Conv2dDesc&) const = default;
};

}  // namespace layoutopt::kernels
