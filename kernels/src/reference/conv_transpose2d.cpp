#include "layoutopt/kernels/reference/conv_transpose2d.h"

#include "layoutopt/graph/op_type_inference.h"
#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::reference {

namespace {

struct Extents {
  int64_t batch = 0, in_channels = 0, in_h = 0, in_w = 0;
  int64_t out_channels = 0, out_h = 0, out_w = 0;
  int64_t in_per_group = 0, out_per_group = 0;
};

Extents extents_of(const HostTensor& x, const HostTensor& weight, const graph::ConvTranspose2d& a) {
  if (x.shape.size() != 4 || weight.shape.size() != 4 || weight.shape[0] != x.shape[1] || a.groups < 1 ||
      x.shape[1] % a.groups != 0)
    throw KernelError("reference conv_transpose2d: weight must be [in, out/groups, kh, kw] for an NCHW input");
  Extents e{.batch = x.shape[0], .in_channels = x.shape[1], .in_h = x.shape[2], .in_w = x.shape[3]};
  e.out_per_group = weight.shape[1];
  e.out_channels = e.out_per_group * a.groups;
  e.in_per_group = e.in_channels / a.groups;
  e.out_h = graph::transposed_window_output_extent(e.in_h, a.kernel.h, a.stride.h, a.dilation.h, a.pads.top,
                                                   a.pads.bottom, a.output_padding.h);
  e.out_w = graph::transposed_window_output_extent(e.in_w, a.kernel.w, a.stride.w, a.dilation.w, a.pads.left,
                                                   a.pads.right, a.output_padding.w);
  return e;
}

// Adds input element (n, ci, ih, iw) times every tap of its group's filters to the outputs
// it reaches; taps landing in the removed padding contribute nothing.
void scatter(const Extents& e, const graph::ConvTranspose2d& a, const float* weight, double value, int64_t n,
             int64_t ci, int64_t ih, int64_t iw, std::vector<double>& acc) {
  const int64_t group = ci / e.in_per_group;
  for (int64_t oc = 0; oc < e.out_per_group; ++oc) {
    const int64_t o = group * e.out_per_group + oc;
    for (int64_t kh = 0; kh < a.kernel.h; ++kh) {
      const int64_t oh = ih * a.stride.h - a.pads.top + kh * a.dilation.h;
      if (oh < 0 || oh >= e.out_h) continue;
      for (int64_t kw = 0; kw < a.kernel.w; ++kw) {
        const int64_t ow = iw * a.stride.w - a.pads.left + kw * a.dilation.w;
        if (ow < 0 || ow >= e.out_w) continue;
        const double w = weight[((ci * e.out_per_group + oc) * a.kernel.h + kh) * a.kernel.w + kw];
        acc[static_cast<size_t>(((n * e.out_channels + o) * e.out_h + oh) * e.out_w + ow)] += value * w;
      }
    }
  }
}

}  // namespace

HostTensor conv_transpose2d(const HostTensor& x, const HostTensor& weight, const HostTensor* bias,
                            const graph::ConvTranspose2d& attrs) {
  const Extents e = extents_of(x, weight, attrs);
  std::vector<double> acc(static_cast<size_t>(e.batch * e.out_channels * e.out_h * e.out_w), 0.0);
  for (int64_t n = 0; n < e.batch; ++n)
    for (int64_t ci = 0; ci < e.in_channels; ++ci)
      for (int64_t ih = 0; ih < e.in_h; ++ih)
        for (int64_t iw = 0; iw < e.in_w; ++iw) {
          const double value = x.data[static_cast<size_t>(((n * e.in_channels + ci) * e.in_h + ih) * e.in_w + iw)];
          scatter(e, attrs, weight.data.data(), value, n, ci, ih, iw, acc);
        }
  HostTensor out({e.batch, e.out_channels, e.out_h, e.out_w});
  const int64_t plane = e.out_h * e.out_w;
  for (size_t i = 0; i < acc.size(); ++i) {
    const auto o = static_cast<size_t>((static_cast<int64_t>(i) / plane) % e.out_channels);
    out.data[i] = static_cast<float>(acc[i] + (bias != nullptr ? double{bias->data[o]} : 0.0));
  }
  return out;
}

}  // namespace layoutopt::kernels::reference
