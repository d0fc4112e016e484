#include "network/lower_slice.h"

#include <algorithm>

#include "layoutopt/kernels/lowering.h"
#include "layoutopt/layout/index_map.h"

namespace layoutopt::kernels::network {

std::optional<ChannelSliceDesc> layout_slice_desc(const graph::Graph& graph, graph::NodeId id,
                                                  const layout::Layout& layout) {
  const graph::Node& node = graph.node(id);
  const auto* slice = std::get_if<graph::Slice>(&node.op);
  if (slice == nullptr) return std::nullopt;
  const graph::Shape& in = graph.value(node.inputs.at(0)).type.shape;
  const graph::Shape& out = graph.value(node.output).type.shape;
  const auto rank = static_cast<int64_t>(in.size());
  const int64_t axis = slice->axis < 0 ? slice->axis + rank : slice->axis;
  if (rank < 2 || rank > 6 || axis < 0 || axis >= rank || slice->step < 1 || slice->start < 0) return std::nullopt;
  const auto a = static_cast<size_t>(axis);
  const int64_t extent = in[a], kept = out[a], step = slice->step;
  if (kept < 1 || slice->start + (kept - 1) * step >= extent) return std::nullopt;
  const layout::IndexMap map(in, layout::canonical_data_layout(in.size()), layout);
  const std::vector<layout::IndexMap::PhysicalAxis>& physical = map.physical_axes();
  const auto along = [&](const layout::IndexMap::PhysicalAxis& p) { return p.logical_axis == a; };
  if (std::count_if(physical.begin(), physical.end(), along) != 1) return std::nullopt;  // split into blocks
  const int64_t inner = std::find_if(physical.begin(), physical.end(), along)->stride;
  const int64_t outer = map.size() / (extent * inner);
  if (step == 1) return row_range_slice_desc(outer, extent * inner, slice->start * inner, (slice->start + kept) * inner);
  if (extent % step != 0 || kept != extent / step || slice->start >= step) return std::nullopt;
  return row_range_slice_desc(outer * kept, step * inner, slice->start * inner, (slice->start + 1) * inner);
}

}  // namespace layoutopt::kernels::network
