#include "layoutopt/kernels/conv2d_desc.h"

#include <sstream>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels {

namespace {

int64_t out_extent(int64_t in, int64_t pad_before, int64_t pad_after, int64_t kernel, int64_t stride,
                   int64_t dilation) {
  const int64_t span = dilation * (kernel - 1) + 1;
  return (in + pad_before + pad_after - span) / stride + 1;
}

void require(bool ok, const Conv2dDesc& desc, const std::string& what) {
  if (!ok) throw KernelError("invalid conv2d desc " + desc.str() + ": " + what);
}

}  // namespace

int64_t Conv2dDesc::out_h() const {
  return out_extent(in_h, pad_top, pad_bottom, kernel_h, stride_h, dilation_h);
}

int64_t Conv2dDesc::out_w() const {
  return out_extent(in_w, pad_left, pad_right, kernel_w, stride_w, dilation_w);
}

bool Conv2dDesc::is_depthwise() const {
  return groups > 1 && groups == in_channels && groups == out_channels;
}

double Conv2dDesc::flops() const {
  return 2.0 * static_cast<double>(batch * out_channels * out_h() * out_w()) *
         static_cast<double>(in_channels_per_group() * kernel_h * kernel_w);
}

void Conv2dDesc::validate() const {
  require(batch > 0 && in_channels > 0 && out_channels > 0, *this, "batch and channels must be positive");
  require(in_h > 0 && in_w > 0, *this, "input height and width must be positive");
  require(kernel_h > 0 && kernel_w > 0, *this, "kernel size must be positive");
  require(stride_h > 0 && stride_w > 0, *this, "stride must be positive");
  require(dilation_h > 0 && dilation_w > 0, *this, "dilation must be positive");
  require(pad_top >= 0 && pad_left >= 0 && pad_bottom >= 0 && pad_right >= 0, *this,
          "padding must be non-negative");
  require(groups > 0 && in_channels % groups == 0 && out_channels % groups == 0, *this,
          "groups must divide in_channels and out_channels");
  require(out_h() > 0 && out_w() > 0, *this, "output is empty (kernel larger than padded input)");
  require(!prologue || (kernel_h == 1 && kernel_w == 1 && pad_top == 0 && pad_left == 0 && pad_bottom == 0 &&
                        pad_right == 0 && groups == 1 && !input_scale),
          *this, "an input prologue needs an unpadded 1x1 conv with groups 1 and no input scale");
}

int64_t Conv2dDesc::bias_floats() const {
  return (epilogue.bias ? out_channels : 0) + (prologue ? 2 * in_channels : 0);
}

std::string Conv2dDesc::str() const {
  std::ostringstream out;
  out << "n" << batch << "_c" << in_channels << "_h" << in_h << "_w" << in_w << "_o" << out_channels
      << "_k" << kernel_h << "x" << kernel_w << "_s" << stride_h << "x" << stride_w << "_p" << pad_top
      << "." << pad_left << "." << pad_bottom << "." << pad_right << "_d" << dilation_h << "x"
      << dilation_w << "_g" << groups << "_" << epilogue.str() << (input_scale ? "_xscale" : "")
      << (prologue ? std::string("_pro-") + to_string(*prologue) : "");
  return out.str();
}

}  // namespace layoutopt::kernels
