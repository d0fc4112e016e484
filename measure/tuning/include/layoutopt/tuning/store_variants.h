#pragma once
// Store variants: a conv's fastest tuned config, storing its output in a channel block that
// a reader of the output computes in (Conv2dSchedule::store_bn), each timed like a tuning
// trial and kept in the record log. The planner then sees three ways across a block change:
// a consumer computing in the producer's block, a separate transform, or the change fused
// into the producer's stores, each at its measured price.
//
// Why variants rather than search: which block to store in depends on the layer that reads
// the output, which a task (a workload, not a node) does not know, so the search leaves the
// store block at "as computed" and this step derives the few variants a plan can use.

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

/// Channel blocks that some task may read, by the channel count of the tensor read.
using ReadBlocks = std::map<int64_t, std::set<int64_t>>;

/// One variant to time: config `index` of task `task` (a position in the task list).
struct StoreVariant {
  size_t task = 0;
  int64_t index = 0;
};

/// The variants of each task with a store knob (direct, grouped and depthwise conv2d): its
/// fastest searched config in `known` (summarize_history of the same tasks), storing in each
/// block that `read_blocks` lists for its output channels, other than the block it computes
/// in. Tasks with a 1x1 output are left out: there every blocking has the same memory order.
/// Variants with a timing in `known` are left out too.
[[nodiscard]] std::vector<StoreVariant> store_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                                       const ReadBlocks& read_blocks);

/// Times the store_variants of `known` (the summary of the log's records), handing each new
/// record to `sink` (append it to the log). Returns the new records.
std::vector<MeasureRecord> measure_store_variants(const std::vector<TuningTask>& tasks, const SessionResult& known,
                                                  const ReadBlocks& read_blocks, Measurer& measurer,
                                                  const std::string& target, const RecordSink& sink);

}  // namespace layoutopt::tuning
