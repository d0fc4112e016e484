#include "layoutopt/kernels/reference/pool2d.h"

#include <algorithm>
#include <limits>

namespace layoutopt::kernels::reference {

HostTensor pool2d(const HostTensor& x, const Pool2dDesc& p) {
  const bool max = p.kind == PoolKind::max;
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  HostTensor out({n, c, p.out_h, p.out_w});
  for (int64_t plane = 0; plane < n * c; ++plane) {
    const float* in = x.data.data() + plane * h * w;
    for (int64_t oy = 0; oy < p.out_h; ++oy)
      for (int64_t ox = 0; ox < p.out_w; ++ox) {
        const int64_t y0 = oy * p.stride_h - p.pad_top, x0 = ox * p.stride_w - p.pad_left;
        // The padded window (for count_include_pad) ends at the padded border.
        const int64_t y1p = std::min(y0 + p.kernel_h, h + p.pad_bottom);
        const int64_t x1p = std::min(x0 + p.kernel_w, w + p.pad_right);
        const int64_t ys = std::max<int64_t>(y0, 0), ye = std::min(y0 + p.kernel_h, h);
        const int64_t xs = std::max<int64_t>(x0, 0), xe = std::min(x0 + p.kernel_w, w);
        double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
        for (int64_t yy = ys; yy < ye; ++yy)
          for (int64_t xx = xs; xx < xe; ++xx) {
            const double v = in[yy * w + xx];
            acc = max ? std::max(acc, v) : acc + v;
          }
        if (!max) {
          const int64_t count = p.count_include_pad ? (y1p - y0) * (x1p - x0) : (ye - ys) * (xe - xs);
          acc /= static_cast<double>(std::max<int64_t>(count, 1));
        }
        out.data[static_cast<size_t>((plane * p.out_h + oy) * p.out_w + ox)] = static_cast<float>(acc);
      }
  }
  return out;
}

HostTensor global_avg_pool(const HostTensor& x) {
  const int64_t planes = x.shape[0] * x.shape[1], area = x.shape[2] * x.shape[3];
  HostTensor out({x.shape[0], x.shape[1], 1, 1});
  for (int64_t plane = 0; plane < planes; ++plane) {
    double sum = 0.0;
    for (int64_t i = 0; i < area; ++i) sum += x.data[static_cast<size_t>(plane * area + i)];
    out.data[static_cast<size_t>(plane)] = static_cast<float>(sum / static_cast<double>(area));
  }
  return out;
}

}  // namespace layoutopt::kernels::reference
