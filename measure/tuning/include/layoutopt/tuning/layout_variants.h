#pragma once
// Layout variants: a conv's fastest tuned config with a layout change fused into it, each
// timed like a tuning trial and kept in the record log. Store variants keep the output in a
// channel block that a reader of it computes in (Conv2dSchedule::store_bn); load variants
// read the input in a block the planner may hold it in (Conv2dSchedule::load_bn). The planner
// then sees three ways across a block change: the two sides agreeing on a block, a separate
// transform, or the change fused into the producer's stores or the consumer's loads, each at
// its measured price.
//
// Why variants rather than search: which block to store or read in depends on the layers
// around the conv, which a task (a workload, not a node) does not know, so the search leaves
// both at "as computed" and this step derives the few variants a plan can use.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/measurer.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

/// Channel blocks by the channel count of the tensors they block.
using ChannelBlocks = std::map<int64_t, std::set<int64_t>>;

/// One variant to time: config `index` of task `task` (a position in the task list).
struct LayoutVariant {
  size_t task = 0;
  int64_t index = 0;
};

/// The store variants of each task with a store knob (direct, grouped and depthwise conv2d;
/// Winograd has the knob, but its variants are not derived yet, see the source):
/// its fastest searched config in `known` (summarize_history of the same tasks), storing in
/// each block that `read_blocks` lists for its output channels (the blocks readers compute
/// in), other than the block it computes in. Tasks with a 1x1 output are left out: there
/// every blocking has the same memory order. Variants with a timing in `known` are left out too.
[[nodiscard]] std::vector<LayoutVariant> store_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                                        const ChannelBlocks& read_blocks);

/// The load variants, alike: each task with a load knob (direct and grouped conv2d) reading
/// its input in each block that `held_blocks` lists for its input channels (the blocks the
/// planner may hold such a tensor in). Left out: tasks with a 1x1 input; blocks that a
/// searched config reads as computed within 10% of the fastest; plain NCHW for a reduction
/// block of 8 channels or more (slower every time it was timed).
[[nodiscard]] std::vector<LayoutVariant> load_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                                       const ChannelBlocks& held_blocks);

/// Times `variants`, handing each new record to `sink` (append it to the log). Returns the
/// new records.
std::vector<MeasureRecord> measure_variants(const std::vector<TuningTask>& tasks,
                                            const std::vector<LayoutVariant>& variants, Measurer& measurer,
                                            const std::string& target, const RecordSink& sink);

}  // namespace layoutopt::tuning
