#include "layoutopt/kernels/reference/lrn.h"

#include <algorithm>
#include <cmath>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::reference {

HostTensor lrn(const HostTensor& x, const graph::Lrn& attrs) {
  if (x.shape.size() < 2 || attrs.size < 1) throw KernelError("reference lrn: needs an N, C, ... input and size >= 1");
  const int64_t batch = x.shape[0], channels = x.shape[1];
  const int64_t inner = element_count(x.shape) / std::max<int64_t>(batch * channels, 1);
  const int64_t before = (attrs.size - 1) / 2;  // floor((size - 1) / 2)
  const int64_t after = attrs.size - 1 - before;  // ceil((size - 1) / 2)
  auto at = [&](int64_t n, int64_t c, int64_t i) { return static_cast<size_t>((n * channels + c) * inner + i); };
  HostTensor out(x.shape);
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t i = 0; i < inner; ++i) {
        double square_sum = 0.0;
        for (int64_t k = std::max<int64_t>(c - before, 0); k <= std::min(c + after, channels - 1); ++k) {
          const double v = x.data[at(n, k, i)];
          square_sum += v * v;
        }
        const double scale = attrs.bias + attrs.alpha / static_cast<double>(attrs.size) * square_sum;
        out.data[at(n, c, i)] = static_cast<float>(x.data[at(n, c, i)] / std::pow(scale, double{attrs.beta}));
      }
  return out;
}

}  // namespace layoutopt::kernels::reference
