#pragma once
// Which layout transforms the graph solver may need: for every activation tensor that a
// layout-sensitive operator (conv2d, dense) reads or writes, the layouts it may be stored
// in are the plain one (NCHW / NC) and the channel blocks of the kernels that touch it:
// the blocks of the tuned candidates when records exist (blocks_of: the fastest, at most 3 a
// side), otherwise every vector-friendly divisor of the channel count, and always the blocks
// of the task's untuned default config. Every ordered pair of distinct layouts of a tensor
// shape is one transform: NCHW <-> NCHW[x]c and NCHW[x]c <-> NCHW[y]c (and NC <-> NC[x]c
// for dense).
// A block of 1 is written as the plain layout: NCHW1c and NCHW share their memory order.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "layoutopt/costs/transform_key.h"
#include "layoutopt/costs/transform_table.h"
#include "layoutopt/graph/graph.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/tuning/layout_candidates.h"
#include "layoutopt/tuning/measure_record.h"
#include "layoutopt/tuning/layout_variants.h"
#include "layoutopt/tuning/task_key.h"
#include "layoutopt/tuning/tuning_session.h"
#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::costs {

/// Channel blocks a task's kernels may read (input) and write (output).
struct TensorBlocks {
  std::set<int64_t> input;
  std::set<int64_t> output;
};

/// Blocks of each task's tuned candidates, by the task's identity.
using TunedBlocks = std::map<tuning::TaskKey, TensorBlocks>;

/// Divisors of `channels` among 4, 8, 16, 32 and 64: blocks that fill SIMD lanes.
[[nodiscard]] std::vector<int64_t> vector_friendly_blocks(int64_t channels);

/// Blocks of the candidates whose time is within `slack` x the best candidate's, at most
/// `max_blocks` per side, those of the fastest candidates first: layouts a solver would
/// realistically pick for the task.
///
/// Why a cap: a 1x1 conv's speed hardly depends on its input block, so every divisor of the
/// channels the tuner tried lands within the slack, and the table needs every pair of them.
/// 3 blocks a side keep the plans' predicted latency within timing noise of the uncapped
/// ones for several times fewer transforms to time; 2 cost some plans more. Evidence:
/// docs/design/transform-enumeration.md.
[[nodiscard]] TensorBlocks blocks_of(const std::vector<tuning::LayoutCandidate>& candidates, double slack = 2.0,
                                     size_t max_blocks = 3);

/// The input blocks of `tuned` (tuned_blocks of `tasks`), by the channel count each task
/// reads: the blocks a conv's store variants may store in (tuning/layout_variants.h).
[[nodiscard]] tuning::ChannelBlocks read_blocks(const std::vector<tuning::TuningTask>& tasks,
                                                const TunedBlocks& tuned);

/// blocks_of the tuned candidates of every task that `records` of `target` cover, by
/// TuningTask::task_key(); tasks without records are left out (enumerate_transforms then uses
/// their vector-friendly blocks).
[[nodiscard]] TunedBlocks tuned_blocks(const std::vector<tuning::TuningTask>& tasks,
                                       const std::vector<tuning::MeasureRecord>& records, const std::string& target);
/// The same from the records' summary (summarize_history of `tasks`), for a caller that has
/// one already.
[[nodiscard]] TunedBlocks tuned_blocks(const std::vector<tuning::TuningTask>& tasks, const tuning::SessionResult& known);

/// Layouts per logical shape, each layout::Layout::channel_blocked of the shape's rank.
using ShapeLayouts = std::map<std::vector<int64_t>, std::set<layout::Layout>>;

/// The layouts of the graph's conv/dense tensors, per shape: plain, and the blocks of the
/// kernels that touch them. `tuned` maps TuningTask::task_key() to the blocks of its tuned
/// candidates; other tasks use vector_friendly_blocks.
[[nodiscard]] ShapeLayouts enumerate_layouts(const graph::Graph& graph, const TunedBlocks& tuned = {});

/// Every transform among enumerate_layouts: each ordered pair of distinct layouts of a
/// shape, sorted, without duplicates.
[[nodiscard]] std::vector<TransformKey> enumerate_transforms(const graph::Graph& graph, const TunedBlocks& tuned = {});

/// The layouts a cost source may offer for each shape of `layouts` (an enumeration): a set
/// in which `table` (entries of `target` and `threads`) prices every ordered pair, so the
/// solver can ask for any of them. The plain layout always belongs; each other layout of
/// `layouts` joins, smallest block first, when the table prices its transforms to and from
/// every layout already in (pairs with the same memory order need no entry).
///
/// Why from the enumeration and not from the table: the table only grows and keeps the
/// layouts of every earlier run's tuned candidates. Offering them all would need every pair
/// among them timed, on every run, for layouts the current records no longer rank within
/// reach.
/// The channel blocks of the 4-D layouts in `layouts`, by channel count: the blocks a plan
/// may hold such a tensor in, which a conv's load variants may read in (block 1: NCHW).
[[nodiscard]] tuning::ChannelBlocks held_blocks(const ShapeLayouts& layouts);

[[nodiscard]] ShapeLayouts priceable_layouts(const ShapeLayouts& layouts, const TransformTable& table,
                                             const std::string& target, int threads);

}  // namespace layoutopt::costs
