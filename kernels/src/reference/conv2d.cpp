#include "layoutopt/kernels/reference/conv2d.h"

#include <vector>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::reference {

namespace {

// Sum over one output element's receptive field; taps in the padding contribute zero.
double convolve_at(const Conv2dDesc& d, const float* input, const float* weight, int64_t n, int64_t o,
                   int64_t oh, int64_t ow) {
  const int64_t icg = d.in_channels_per_group();
  const int64_t group = o / d.out_channels_per_group();
  double sum = 0.0;
  for (int64_t ci = 0; ci < icg; ++ci) {
    const int64_t c = group * icg + ci;
    for (int64_t kh = 0; kh < d.kernel_h; ++kh) {
      const int64_t ih = oh * d.stride_h - d.pad_top + kh * d.dilation_h;
      if (ih < 0 || ih >= d.in_h) continue;
      for (int64_t kw = 0; kw < d.kernel_w; ++kw) {
        const int64_t iw = ow * d.stride_w - d.pad_left + kw * d.dilation_w;
        if (iw < 0 || iw >= d.in_w) continue;
        const double x = input[((n * d.in_channels + c) * d.in_h + ih) * d.in_w + iw];
        const double w = weight[((o * icg + ci) * d.kernel_h + kh) * d.kernel_w + kw];
        sum += x * w;
      }
    }
  }
  return sum;
}

// activation(x * scale[c] + shift[c]) of every input element, the prologue's constants
// where the bias operand holds them (Conv2dDesc::prologue).
std::vector<float> apply_prologue(const Conv2dDesc& d, const float* input, const float* bias) {
  const float* scale = bias + (d.epilogue.bias ? d.out_channels : 0);
  const float* shift = scale + d.in_channels;
  const int64_t plane = d.in_h * d.in_w;
  std::vector<float> transformed(static_cast<size_t>(d.batch * d.in_channels * plane));
  for (int64_t n = 0; n < d.batch; ++n)
    for (int64_t c = 0; c < d.in_channels; ++c)
      for (int64_t i = 0; i < plane; ++i) {
        const int64_t at = (n * d.in_channels + c) * plane + i;
        const double x = static_cast<double>(input[at]) * scale[c] + shift[c];
        transformed[static_cast<size_t>(at)] = static_cast<float>(apply_activation(*d.prologue, x));
      }
  return transformed;
}

}  // namespace

void conv2d(const Conv2dDesc& desc, const float* input, const float* weight, const float* bias,
            const float* residual, float* output) {
  desc.validate();
  if (desc.input_scale) throw KernelError("reference conv2d: " + desc.str() + " scales its input: use conv2d_scaled");
  if (desc.prologue) {
    const std::vector<float> transformed = apply_prologue(desc, input, bias);
    Conv2dDesc plain = desc;
    plain.prologue.reset();
    conv2d(plain, transformed.data(), weight, bias, residual, output);
    return;
  }
  const Epilogue& e = desc.epilogue;
  const int64_t oh_n = desc.out_h();
  const int64_t ow_n = desc.out_w();
  for (int64_t n = 0; n < desc.batch; ++n)
    for (int64_t o = 0; o < desc.out_channels; ++o)
      for (int64_t oh = 0; oh < oh_n; ++oh)
        for (int64_t ow = 0; ow < ow_n; ++ow) {
          const int64_t at = ((n * desc.out_channels + o) * oh_n + oh) * ow_n + ow;
          double value = convolve_at(desc, input, weight, n, o, oh, ow);
          if (e.bias) value += bias[o];
          value = apply_activation(e.activation, value);
          if (e.residual) value = apply_activation(e.post_residual_activation, value + residual[at]);
          output[at] = static_cast<float>(value);
        }
}

void conv2d_scaled(const Conv2dDesc& desc, const float* input, const float* scale, const float* weight,
                   const float* bias, const float* residual, float* output) {
  if (!desc.input_scale) throw KernelError("reference conv2d_scaled: " + desc.str() + " has no input scale");
  const int64_t plane = desc.in_h * desc.in_w;
  std::vector<float> scaled(static_cast<size_t>(desc.batch * desc.in_channels * plane));
  for (int64_t image_channel = 0; image_channel < desc.batch * desc.in_channels; ++image_channel)
    for (int64_t i = 0; i < plane; ++i)
      scaled[static_cast<size_t>(image_channel * plane + i)] = input[image_channel * plane + i] * scale[image_channel];
  Conv2dDesc unscaled = desc;
  unscaled.input_scale = false;
  conv2d(unscaled, scaled.data(), weight, bias, residual, output);
}

}  // namespace layoutopt::kernels::reference
