#include "layoutopt/tuning/store_variants.h"

#include <algorithm>
#include <optional>

#include "layoutopt/kernels/store_knob.h"

namespace layoutopt::tuning {

namespace {

bool has_store_knob(const TuningTask& task) {
  const auto& knobs = task.op.space().knobs();
  return std::ranges::any_of(knobs, [](const kernels::Knob& knob) { return knob.name == kernels::kStoreKnob; });
}

bool has_single_pixel_output(const TuningTask& task) {
  const std::vector<int64_t> out = task.op.output_shape();
  return out.size() == 4 && out[2] * out[3] == 1;
}

// The fastest config the search found: variants of earlier runs are left out, so its output
// block is the block it computes in.
std::optional<LayoutCandidate> fastest_searched(const TuningTask& task, const LayoutCandidates& candidates) {
  std::optional<LayoutCandidate> best;
  for (const LayoutCandidate& candidate : candidates.all())
    if (task.op.space().searched(candidate.index) && (!best || candidate.seconds < best->seconds)) best = candidate;
  return best;
}

}  // namespace

std::vector<StoreVariant> store_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                         const ReadBlocks& read_blocks) {
  std::vector<StoreVariant> variants;
  for (size_t t = 0; t < tasks.size(); ++t) {
    const TuningTask& task = tasks[t];
    if (!has_store_knob(task) || has_single_pixel_output(task)) continue;
    const auto readers = read_blocks.find(task.op.output_shape()[1]);
    const std::optional<LayoutCandidate> best = fastest_searched(task, known.tasks[t].candidates);
    if (readers == read_blocks.end() || !best) continue;
    std::map<std::string, int64_t> knobs = task.op.knobs(best->index);
    const int64_t computed = best->layouts.output.block_of('C');
    for (const int64_t block : readers->second) {
      if (block == computed) continue;
      knobs[kernels::kStoreKnob] = block;
      const std::optional<int64_t> index = task.op.index_of(knobs);
      if (index && !known.tasks[t].candidates.estimated_seconds(*index)) variants.push_back({t, *index});
    }
  }
  return variants;
}

std::vector<MeasureRecord> measure_store_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                                  const ReadBlocks& read_blocks, Measurer& measurer,
                                                  const std::string& target, const RecordSink& sink) {
  std::vector<MeasureRecord> measured;
  for (const StoreVariant& variant : store_variants(tasks, known, read_blocks)) {
    const TuningTask& task = tasks[variant.task];
    measured.push_back(make_record(target, task, variant.index, measurer.measure(task, variant.index)));
    sink(measured.back());
  }
  return measured;
}

}  // namespace layoutopt::tuning
