#include "layoutopt/costs/offered_layouts.h"

#include "layoutopt/layout/transform.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::costs {

ShapeLayouts offered_layouts(const graph::Graph& graph, const std::vector<tuning::MeasureRecord>& records,
                             const TransformTable& table, const std::string& target, int threads) {
  const std::vector<tuning::TuningTask> tasks = tuning::extract_tasks(graph);
  // A layout pair's best config gives the blocks of its top 3, which tuned_blocks reads.
  tuning::TunerOptions best_per_pair;
  best_per_pair.top_k = 1;
  const tuning::SessionResult known = tuning::summarize_history(tasks, records, target, best_per_pair);
  return priceable_layouts(enumerate_layouts(graph, tuned_blocks(tasks, known)), table, target, threads);
}

bool offers(const ShapeLayouts& offered, const graph::Shape& shape, const layout::Layout& layout) {
  const layout::Layout plain = layout::canonical_data_layout(shape.size());
  if (layout == plain) return true;
  const auto known = offered.find(shape);
  if (known != offered.end() && known->second.contains(layout)) return true;
  return layout::same_memory_order(shape, layout, plain);
}

}  // namespace layoutopt::costs
