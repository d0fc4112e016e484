#include "layoutopt/costs/transform_enumeration.h"

#include <algorithm>
#include <cmath>

#include "layoutopt/layout/transform.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/tuning/tuning_session.h"

namespace layoutopt::costs {

namespace {

void add_tensor(ShapeLayouts& layouts, const graph::Shape& shape, const std::set<int64_t>& blocks) {
  std::set<layout::Layout>& held = layouts[shape];
  held.insert(layout::Layout::channel_blocked(shape.size(), 1));
  for (int64_t block : blocks)
    if (shape[1] % block == 0) held.insert(layout::Layout::channel_blocked(shape.size(), block));
}

/// Every ordered pair of distinct layouts of each shape, sorted.
std::vector<TransformKey> ordered_pairs(const ShapeLayouts& layouts) {
  std::vector<TransformKey> keys;
  for (const auto& [shape, held] : layouts)
    for (const layout::Layout& src : held)
      for (const layout::Layout& dst : held)
        if (src != dst) keys.push_back({shape, src, dst});
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::set<int64_t> friendly(const graph::Shape& shape) {
  const std::vector<int64_t> blocks = vector_friendly_blocks(shape[1]);
  return {blocks.begin(), blocks.end()};
}

// The task's tuned blocks (or every friendly one), plus those of its untuned default config,
// which the "default" baseline of `optimize` runs.
void add_task(ShapeLayouts& layouts, const graph::Graph& graph, const tuning::TuningTask& task,
              const TunedBlocks& tuned) {
  const auto found = tuned.find(task.task_key());
  const kernels::OpLayouts fixed = task.op.layouts(task.op.default_index());
  for (graph::NodeId id : task.nodes) {
    const graph::Node& node = graph.node(id);
    const graph::Shape& in = graph.value(node.inputs.front()).type.shape;
    const graph::Shape& out = graph.value(node.output).type.shape;
    std::set<int64_t> in_blocks = found == tuned.end() ? friendly(in) : found->second.input;
    std::set<int64_t> out_blocks = found == tuned.end() ? friendly(out) : found->second.output;
    in_blocks.insert(fixed.input.block_of('C'));
    out_blocks.insert(fixed.output.block_of('C'));
    add_tensor(layouts, in, in_blocks);
    add_tensor(layouts, out, out_blocks);
  }
}

}  // namespace

std::vector<int64_t> vector_friendly_blocks(int64_t channels) {
  std::vector<int64_t> blocks;
  for (int64_t block : {4, 8, 16, 32, 64})
    if (channels % block == 0) blocks.push_back(block);
  return blocks;
}

TensorBlocks blocks_of(const std::vector<tuning::LayoutCandidate>& candidates, double slack, size_t max_blocks) {
  std::vector<const tuning::LayoutCandidate*> fastest_first;
  for (const tuning::LayoutCandidate& c : candidates) fastest_first.push_back(&c);
  std::stable_sort(fastest_first.begin(), fastest_first.end(),
                   [](const tuning::LayoutCandidate* a, const tuning::LayoutCandidate* b) { return a->seconds < b->seconds; });
  TensorBlocks blocks;
  for (const tuning::LayoutCandidate* c : fastest_first) {
    if (c->seconds > slack * fastest_first.front()->seconds) break;
    if (blocks.input.size() < max_blocks) blocks.input.insert(c->layouts.input.block_of('C'));
    if (blocks.output.size() < max_blocks) blocks.output.insert(c->layouts.output.block_of('C'));
  }
  return blocks;
}

TunedBlocks tuned_blocks(const std::vector<tuning::TuningTask>& tasks, const std::vector<tuning::MeasureRecord>& records,
                         const std::string& target) {
  return tuned_blocks(tasks, tuning::summarize_history(tasks, records, target));
}

TunedBlocks tuned_blocks(const std::vector<tuning::TuningTask>& tasks, const tuning::SessionResult& known) {
  TunedBlocks blocks;
  for (size_t i = 0; i < tasks.size(); ++i)
    if (known.tasks[i].candidates.pair_count() > 0) blocks[tasks[i].task_key()] = blocks_of(known.tasks[i].candidates.all());
  return blocks;
}

tuning::ChannelBlocks read_blocks(const std::vector<tuning::TuningTask>& tasks, const TunedBlocks& tuned) {
  tuning::ChannelBlocks blocks;
  for (const tuning::TuningTask& task : tasks)
    if (const auto found = tuned.find(task.task_key()); found != tuned.end())
      blocks[task.op.input_shape()[1]].insert(found->second.input.begin(), found->second.input.end());
  return blocks;
}

ShapeLayouts enumerate_layouts(const graph::Graph& graph, const TunedBlocks& tuned) {
  ShapeLayouts layouts;
  for (const tuning::TuningTask& task : tuning::extract_tasks(graph)) add_task(layouts, graph, task, tuned);
  return layouts;
}

std::vector<TransformKey> enumerate_transforms(const graph::Graph& graph, const TunedBlocks& tuned) {
  return ordered_pairs(enumerate_layouts(graph, tuned));
}

tuning::ChannelBlocks held_blocks(const ShapeLayouts& layouts) {
  tuning::ChannelBlocks blocks;
  for (const auto& [shape, held] : layouts) {
    if (shape.size() != 4) continue;
    for (const layout::Layout& l : held) blocks[shape[1]].insert(l.block_of('C'));
  }
  return blocks;
}

ShapeLayouts priceable_layouts(const ShapeLayouts& layouts, const TransformTable& table, const std::string& target,
                               int threads) {
  ShapeLayouts offered;
  for (const auto& entry : layouts) {
    // Not a structured binding: clang 14 (the sanitized build) cannot capture one in a lambda.
    const auto& shape = entry.first;
    std::set<int64_t> shape_blocks;  // ordered: smallest first
    for (const layout::Layout& l : entry.second) shape_blocks.insert(l.block_of('C'));
    std::vector<layout::Layout> in{layout::canonical_data_layout(shape.size())};
    const auto priced = [&](const layout::Layout& a, const layout::Layout& b) {
      return layout::same_memory_order(shape, a, b) || table.find(target, threads, table_key(shape, a, b)) != nullptr;
    };
    for (int64_t block : shape_blocks) {
      if (block <= 1) continue;  // the plain layout, already in
      const layout::Layout candidate = layout::Layout::channel_blocked(shape.size(), block);
      if (std::all_of(in.begin(), in.end(),
                      [&](const layout::Layout& l) { return priced(l, candidate) && priced(candidate, l); }))
        in.push_back(candidate);
    }
    offered[shape].insert(in.begin(), in.end());
  }
  return offered;
}

}  // namespace layoutopt::costs
