#include "network/lower_slice.h"

#include "layoutopt/kernels/lowering.h"
#include "network/lower_whole_axis.h"

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
  const std::optional<WholeAxisView> view = whole_axis_view(in, layout, a);
  if (!view) return std::nullopt;
  const int64_t inner = view->inner, outer = view->outer;
  if (step == 1) return row_range_slice_desc(outer, extent * inner, slice->start * inner, (slice->start + kept) * inner);
  if (extent % step != 0 || kept != extent / step || slice->start >= step) return std::nullopt;
  return row_range_slice_desc(outer * kept, step * inner, slice->start * inner, (slice->start + 1) * inner);
}

}  // namespace layoutopt::kernels::network
