#include "layoutopt/kernels/reference/resize.h"

#include <algorithm>
#include <cmath>

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels::reference {

namespace {

using graph::NearestRounding;
using graph::ResizeCoordinates;

/// The input coordinate of output coordinate `out` along one axis (ONNX
/// coordinate_transformation_mode); `scale` is the attribute's divisor, not recomputed.
double source_coordinate(ResizeCoordinates mode, int64_t out, int64_t in_extent, int64_t out_extent, double scale) {
  const auto o = static_cast<double>(out);
  switch (mode) {
    case ResizeCoordinates::half_pixel: return (o + 0.5) / scale - 0.5;
    case ResizeCoordinates::pytorch_half_pixel: return out_extent > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
    // A single output has no spacing to align; ONNX's reference maps it to 0.
    case ResizeCoordinates::align_corners:
      return out_extent > 1 ? o * static_cast<double>(in_extent - 1) / static_cast<double>(out_extent - 1) : 0.0;
    case ResizeCoordinates::asymmetric: return o / scale;
  }
  return 0.0;
}

/// The input index nearest mode reads: `x` rounded per nearest_mode, clamped to the edges.
int64_t nearest_index(double x, NearestRounding rounding, int64_t extent) {
  const double below = std::floor(x);
  const double fraction = x - below;
  double chosen = below;
  switch (rounding) {
    case NearestRounding::round_prefer_floor: chosen = fraction <= 0.5 ? below : below + 1.0; break;
    case NearestRounding::round_prefer_ceil: chosen = fraction < 0.5 ? below : below + 1.0; break;
    case NearestRounding::floor: chosen = below; break;
    case NearestRounding::ceil: chosen = std::ceil(x); break;
  }
  return std::clamp(static_cast<int64_t>(chosen), int64_t{0}, extent - 1);
}

/// Linear taps: a coordinate past an edge reads the edge pixel alone (ONNX pads by edge).
ResizeTap linear_tap(double x, int64_t extent) {
  const double clamped = std::clamp(x, 0.0, static_cast<double>(extent - 1));
  const auto low = static_cast<int64_t>(std::floor(clamped));
  return {low, std::min(low + 1, extent - 1), clamped - static_cast<double>(low)};
}

// A zero weight reads `low` alone, so nearest mode copies values exactly (inf and NaN too).
double blend(double low, double high, double weight) {
  return weight == 0.0 ? low : (1.0 - weight) * low + weight * high;
}

}  // namespace

std::vector<ResizeTap> resize_taps(const graph::Resize& r, int64_t in_extent, int64_t out_extent, double scale) {
  std::vector<ResizeTap> taps;
  for (int64_t out = 0; out < out_extent; ++out) {
    const double x = source_coordinate(r.coordinates, out, in_extent, out_extent, scale);
    if (r.mode == graph::ResizeMode::linear) taps.push_back(linear_tap(x, in_extent));
    else {
      const int64_t index = nearest_index(x, r.rounding, in_extent);
      taps.push_back({index, index, 0.0});
    }
  }
  return taps;
}

HostTensor resize(const HostTensor& x, const graph::Resize& attrs) {
  if (x.shape.size() != 4 || attrs.size.h < 1 || attrs.size.w < 1)
    throw KernelError("reference resize: needs an NCHW input and a positive output size");
  const int64_t planes = x.shape[0] * x.shape[1], h = x.shape[2], w = x.shape[3];
  const std::vector<ResizeTap> rows = resize_taps(attrs, h, attrs.size.h, attrs.scale_h);
  const std::vector<ResizeTap> cols = resize_taps(attrs, w, attrs.size.w, attrs.scale_w);
  HostTensor out({x.shape[0], x.shape[1], attrs.size.h, attrs.size.w});
  size_t at = 0;
  for (int64_t p = 0; p < planes; ++p) {
    const float* plane = x.data.data() + p * h * w;
    auto pixel = [&](int64_t y, int64_t xx) { return double{plane[y * w + xx]}; };
    for (const ResizeTap& r : rows)
      for (const ResizeTap& c : cols) {
        const double top = blend(pixel(r.low, c.low), pixel(r.low, c.high), c.weight);
        const double bottom = blend(pixel(r.high, c.low), pixel(r.high, c.high), c.weight);
        out.data[at++] = static_cast<float>(blend(top, bottom, r.weight));
      }
  }
  return out;
}

}  // namespace layoutopt::kernels::reference
