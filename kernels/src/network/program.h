#pragma once
// The compiled network before memory is laid out: tensors in the layouts steps read and
// write them ("slots"), the memory each slot lives in ("storage": views and in-place steps
// share one), and the steps in run order. program_builder fills it in from a graph and a
// schedule; CompiledNetwork lays the storages out in one arena and runs the steps.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/layout/layout.h"
#include "network/constant_pool.h"

namespace layoutopt::kernels::network {

using SlotId = int;
using StorageId = int;

/// One tensor in one layout.
struct Slot {
  graph::ValueId value = -1;
  layout::Layout layout;
  StorageId storage = -1;
  int64_t floats = 0;
  int64_t offset = 0;  ///< floats from the start of its storage (a concat input placed in its slice)
};

/// Address of every slot, by SlotId, once the arena exists.
using SlotAddresses = std::vector<float*>;
/// Runs a step on the slots; called as `team` says (see Team): by one thread, or, for a step
/// that shares_team, by every thread of a team.
using StepBody = std::function<void(const SlotAddresses&, Team team)>;

struct Step {
  NetworkStep info;
  std::vector<SlotId> reads;
  SlotId write = -1;
  StepBody run;
  /// Whether `run` may be called with Team::calling: the step's work is JIT kernels alone,
  /// which split it over the calling team. Transforms and reference fallbacks fork their own.
  bool shares_team = false;
  /// Index into `reads` of an operand the kernel may overwrite with its output (a residual);
  /// -1 when the output must have memory of its own.
  int in_place_operand = -1;
  /// Per read, where a step that copies its reads into its output (concat) wants that read
  /// placed in the output's storage, in floats from the output's start; -1 where it cannot
  /// be placed. Empty for every other step.
  std::vector<int64_t> slice_offsets;
};

struct Program {
  std::vector<Slot> slots;
  std::vector<Step> steps;
  int storages = 0;
  std::vector<SlotId> inputs;   ///< per graph input, canonical layout
  std::vector<SlotId> outputs;  ///< per graph output, canonical layout
  size_t views = 0;
  size_t in_place = 0;
  size_t placed_in_slices = 0;  ///< concat inputs written straight into their concat's output
  int64_t constant_bytes = 0;
  std::unique_ptr<ConstantPool> constants = std::make_unique<ConstantPool>();  ///< read by the steps
  std::shared_ptr<KernelScratch> scratch = std::make_shared<KernelScratch>();  ///< multi-stage kernels' intermediates
  std::map<std::string, double> compile_ms;  ///< JIT time per distinct kernel
};

}  // namespace layoutopt::kernels::network
