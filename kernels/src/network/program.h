#pragma once
// The compiled network before memory is laid out: tensors in the layouts steps read and
// write them ("slots"), the memory each slot lives in ("storage": views and in-place steps
// share one), and the steps in run order, each a runtime::StepSpec (data). program_builder
// fills it in from a graph and a schedule; built_network lays the storages out in one arena
// and turns it into a runtime::NetworkSpec.

#include <map>
#include <memory>
#include <string>
#include <optional>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/kernels/kernel.h"
#include "layoutopt/layout/layout.h"
#include "layoutopt/runtime/materialize.h"
#include "layoutopt/runtime/network_spec.h"
#include "network/weight_image.h"

namespace layoutopt::kernels::network {

using runtime::SlotId;
using runtime::StorageId;
using SlotAddresses = runtime::SlotAddresses;
using StepBody = runtime::StepBody;

/// One tensor in one layout.
struct Slot {
  graph::ValueId value = -1;
  layout::Layout layout;
  StorageId storage = -1;
  int64_t floats = 0;
  int64_t offset = 0;  ///< floats from the start of its storage (a concat input placed in its slice)
};

struct Step {
  runtime::StepSpec spec;
  std::vector<SlotId> reads;
  SlotId write = -1;
  /// Index into `reads` of an operand the kernel may overwrite with its output (a residual);
  /// -1 when the output must have memory of its own.
  int in_place_operand = -1;
  /// Per read, where a step that copies its reads into its output (concat) wants that read
  /// placed in the output's storage, in floats from the output's start; -1 where it cannot
  /// be placed. Empty for every other step.
  std::vector<int64_t> slice_offsets;
  /// A layout change the schedule inserted between nodes, not a node's own step (a node may
  /// run as a transform too: a Transpose is one).
  bool inserted_transform = false;
  /// The node the step runs; none for an inserted transform.
  std::optional<graph::NodeId> node;
};

/// The JIT-compiled functions the steps' kernels name, by symbol.
using FunctionTable = std::map<std::string, std::shared_ptr<const CompiledFunction>>;

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
  WeightImage weights;                  ///< the constants the steps read
  FunctionTable functions;              ///< the code of every kernel symbol the steps name
  runtime::ReferenceBodies reference;   ///< code of the reference steps, by step index
  std::map<std::string, double> compile_ms;  ///< JIT time per distinct kernel
};

}  // namespace layoutopt::kernels::network
