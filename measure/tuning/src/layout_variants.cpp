#include "layoutopt/tuning/layout_variants.h"

#include <algorithm>
#include <optional>

#include "layoutopt/kernels/layout_knobs.h"

namespace layoutopt::tuning {

namespace {

bool has_knob(const TuningTask& task, const kernels::LayoutKnob& layout_knob) {
  const auto& knobs = task.op.space().knobs();
  return std::ranges::any_of(knobs, [&](const kernels::Knob& knob) { return knob.name == layout_knob.name; });
}

bool single_pixel(const std::vector<int64_t>& shape) { return shape.size() == 4 && shape[2] * shape[3] == 1; }

// The fastest config the search found: variants of earlier runs are left out, so its blocks
// are the ones it computes in.
std::optional<LayoutCandidate> fastest_searched(const TuningTask& task, const LayoutCandidates& candidates) {
  std::optional<LayoutCandidate> best;
  for (const LayoutCandidate& candidate : candidates.all())
    if (task.op.space().searched(candidate.index) && (!best || candidate.seconds < best->seconds)) best = candidate;
  return best;
}

/// Whether a variant of `task` keeping a tensor in `block` is worth timing, given its
/// candidates and the fastest searched one.
using WorthTiming = bool (*)(const TuningTask& task, const LayoutCandidates& candidates, const LayoutCandidate& best,
                             int64_t block);

/// Which side of a task a variant changes.
struct Side {
  const kernels::LayoutKnob& knob;
  bool input;  ///< the input (load) or the output (store)
  WorthTiming worth;
};

// Reading in `block` is not worth timing where a searched config already reads it as computed
// within 10% of the fastest (the planner has that block nearly as cheap), nor in plain NCHW
// for a reduction block of 8 or more channels (one channel per unrolled stretch: slower than
// the fastest config by 5-55% on every resnet-50 layer, docs/design/fused-layout-changes.md).
bool load_worth_timing(const TuningTask& task, const LayoutCandidates& candidates, const LayoutCandidate& best,
                       int64_t block) {
  if (block == 1 && best.layouts.input.block_of('C') >= 8) return false;
  return std::ranges::none_of(candidates.all(), [&](const LayoutCandidate& c) {
    return task.op.space().searched(c.index) && c.layouts.input.block_of('C') == block && c.seconds <= 1.1 * best.seconds;
  });
}

// The variants of one side: the fastest searched config with the side's knob at each block of
// `blocks` for the side's channel count other than the block it computes in, where worth it.
std::vector<LayoutVariant> variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                    const ChannelBlocks& blocks, const Side& side) {
  std::vector<LayoutVariant> found;
  for (size_t t = 0; t < tasks.size(); ++t) {
    const TuningTask& task = tasks[t];
    const std::vector<int64_t> shape = side.input ? task.op.input_shape() : task.op.output_shape();
    if (!has_knob(task, side.knob) || single_pixel(shape)) continue;
    const auto listed = blocks.find(shape[1]);
    const std::optional<LayoutCandidate> best = fastest_searched(task, known.tasks[t].candidates);
    if (listed == blocks.end() || !best) continue;
    std::map<std::string, int64_t> knobs = task.op.knobs(best->index);
    const int64_t computed = (side.input ? best->layouts.input : best->layouts.output).block_of('C');
    for (const int64_t block : listed->second) {
      if (block == computed || !side.worth(task, known.tasks[t].candidates, *best, block)) continue;
      knobs[side.knob.name] = block;
      const std::optional<int64_t> index = task.op.index_of(knobs);
      if (index && !known.tasks[t].candidates.estimated_seconds(*index)) found.push_back({t, *index});
    }
  }
  return found;
}

// Winograd kernels can store in another block, but optimize does not derive those variants
// yet: densenet-201's plan with them measured 1.34-1.49x its prediction (its batch norms
// priced 1.2 ms ran 3.6 ms; docs/design/fused-layout-changes.md), against 1.06 without.
bool store_worth_timing(const TuningTask& task, const LayoutCandidates&, const LayoutCandidate&, int64_t) {
  return task.op.family() != kernels::OpFamily::winograd_conv2d;
}

}  // namespace

std::vector<LayoutVariant> store_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                          const ChannelBlocks& read_blocks) {
  return variants(tasks, known, read_blocks, {kernels::kStoreKnob, false, store_worth_timing});
}

std::vector<LayoutVariant> load_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                         const ChannelBlocks& held_blocks) {
  return variants(tasks, known, held_blocks, {kernels::kLoadKnob, true, load_worth_timing});
}

std::vector<MeasureRecord> measure_variants(const std::vector<TuningTask>& tasks,
                                            const std::vector<LayoutVariant>& variants, Measurer& measurer,
                                            const std::string& target, const RecordSink& sink) {
  std::vector<PlannedConfig> planned;
  for (const LayoutVariant& variant : variants) planned.push_back({variant.task, variant.index});
  return measure_configs(tasks, planned, measurer, target, sink);
}

}  // namespace layoutopt::tuning
