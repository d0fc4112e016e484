#pragma once
// The layouts a measured cost source offers per tensor shape, fixed once per graph and record
// log before any source is built: the layout-flexible ops are timed in exactly these
// (flexible_op_timing.h), and a source rebuilt after confirmation added timings offers the
// same ones, so every lookup it makes was timed.
//
// The solver asks for the transform time of every pair of layouts a tensor's producer and
// readers may use, not only the pairs it will pick, so the layouts offered for a shape are
// those bench-transforms times for the same records (enumerate_transforms: the tuned
// candidates' within 2x of the best, the default configs', plain NCHW), as far as the table
// prices every pair of them (priceable_layouts).

#include <string>
#include <vector>

#include "layoutopt/costs/transform_enumeration.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/tuning/measure_record.h"

namespace layoutopt::costs {

/// The layouts to offer for `graph`'s tensors, from the tuned candidates of `records` (of
/// `target`) and the entries of `table` for `target` and `threads`.
[[nodiscard]] ShapeLayouts offered_layouts(const graph::Graph& graph, const std::vector<tuning::MeasureRecord>& records,
                                           const TransformTable& table, const std::string& target, int threads);

/// Whether `offered` offers `layout` for `shape`: the plain layout always, and any layout
/// with the plain layout's memory order (e.g. NCHW16c of [1, C, 1, 1]), which is priced as plain.
[[nodiscard]] bool offers(const ShapeLayouts& offered, const graph::Shape& shape, const layout::Layout& layout);

}  // namespace layoutopt::costs
