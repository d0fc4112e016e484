#include "network/built_network.h"

#include <algorithm>

#include "layoutopt/kernels/host.h"
#include "network/arena_plan.h"
#include "network/checked_size.h"
#include "network/program_builder.h"

namespace layoutopt::kernels::network {

namespace {

constexpr int64_t kAlignment = 64;
// Steps the memory of a tensor that fits in a core's L2 rests before another tensor gets it
// (see arena_plan.h). With 2, an inverted-residual block's depthwise conv writes where the
// expand conv of the block before wrote (lines its own core holds), not over what the
// project conv just read on both cores. Evidence: docs/design/step-outputs.md.
constexpr int kRestSteps = 2;

/// Widens the lifetime of every storage a fork's steps touch to the whole fork: its lanes
/// run at once, so what one lane holds must not be memory the other lane reuses.
void span_forks(const Program& program, std::span<const runtime::Fork> forks, std::vector<StorageLifetime>& lifetimes) {
  for (const runtime::Fork& fork : forks) {
    if (fork.begin < 0 || fork.end > static_cast<int32_t>(program.steps.size()) || fork.begin >= fork.end)
      throw KernelError("a fork of steps " + std::to_string(fork.begin) + " to " + std::to_string(fork.end) +
                        " does not fit the network's " + std::to_string(program.steps.size()) + " steps");
    const auto widen = [&](SlotId slot) {
      StorageLifetime& l = lifetimes[static_cast<size_t>(program.slots[static_cast<size_t>(slot)].storage)];
      l.first = std::min(l.first, static_cast<int>(fork.begin));
      l.last = std::max(l.last, static_cast<int>(fork.end) - 1);
    };
    for (int32_t s = fork.begin; s < fork.end; ++s) {
      const Step& step = program.steps[static_cast<size_t>(s)];
      for (SlotId read : step.reads) widen(read);
      widen(step.write);
    }
  }
}

/// One buffer per storage, alive from its first to its last step (widened over forks).
/// Throws KernelError naming the tensor whose byte size overflows int64.
std::vector<BufferLifetime> storage_buffers(const graph::Graph& graph, const Program& program,
                                            std::span<const runtime::Fork> forks) {
  std::vector<StorageLifetime> lifetimes = storage_lifetimes(program);
  span_forks(program, forks, lifetimes);
  std::vector<BufferLifetime> buffers(lifetimes.size());
  for (size_t s = 0; s < lifetimes.size(); ++s) buffers[s] = {0, lifetimes[s].first, lifetimes[s].last};
  for (const Slot& slot : program.slots) {
    const graph::Value& value = graph.value(slot.value);
    const std::string what = "the byte size of tensor '" + value.name + "' " + graph::to_string(value.type.shape);
    const int64_t end = checked_add(slot.offset, slot.floats, what);
    int64_t& bytes = buffers[static_cast<size_t>(slot.storage)].bytes;
    bytes = std::max(bytes, checked_mul(end, int64_t{sizeof(float)}, what));
  }
  return buffers;
}

std::vector<runtime::TensorSpec> tensors(const graph::Graph& graph, const Program& program,
                                         const std::vector<SlotId>& slots) {
  std::vector<runtime::TensorSpec> specs;
  for (SlotId slot : slots) {
    const graph::Value& value = graph.value(program.slots[static_cast<size_t>(slot)].value);
    specs.push_back({value.name, value.type.shape, slot});
  }
  return specs;
}

}  // namespace

/// The step's kind, as CompiledNetwork reports it: a node run as a layout copy (a Transpose)
/// is the node's kernel, not a transform.
StepKind step_kind(const Step& step) {
  if (step.inserted_transform) return StepKind::transform;
  if (std::holds_alternative<runtime::ReferenceStep>(step.spec.action)) return StepKind::fallback;
  return StepKind::kernel;
}

BuiltNetwork build_network(const graph::Graph& graph, const NetworkSchedule& schedule,
                           std::span<const runtime::Fork> forks) {
  Program program = build_program(graph, schedule);
  const std::vector<BufferLifetime> buffers = storage_buffers(graph, program, forks);
  const ArenaPlan plan = plan_arena(buffers, kAlignment, {kRestSteps, host_info().l2_bytes});

  BuiltNetwork built;
  runtime::NetworkSpec& spec = built.spec;
  spec.name = graph.name();
  for (const Slot& slot : program.slots) spec.slots.push_back({slot.storage, slot.floats, slot.offset});
  for (int64_t bytes : plan.offsets) spec.storage_offsets.push_back(bytes / int64_t{sizeof(float)});
  spec.arena_floats = plan.bytes / int64_t{sizeof(float)};
  spec.constants = program.weights.ranges();
  spec.weight_floats = static_cast<int64_t>(program.weights.floats().size());
  for (Step& step : program.steps) {
    built.step_kinds.push_back(step_kind(step));
    built.step_nodes.push_back(step.node);
    spec.steps.push_back(std::move(step.spec));
  }
  spec.inputs = tensors(graph, program, program.inputs);
  spec.outputs = tensors(graph, program, program.outputs);
  spec.forks.assign(forks.begin(), forks.end());  // checked with the rest of the spec (runtime::validate)

  CompileSummary& summary = built.summary;
  for (const StepKind kind : built.step_kinds) {
    if (kind == StepKind::kernel) ++summary.kernels;
    if (kind == StepKind::transform) ++summary.transforms;
    if (kind == StepKind::fallback) ++summary.fallbacks;
  }
  for (const BufferLifetime& buffer : buffers)
    summary.tensor_bytes = checked_add(summary.tensor_bytes, buffer.bytes, "the network's tensor bytes");
  summary.views = program.views;
  summary.in_place = program.in_place;
  summary.concat_inputs_placed = program.placed_in_slices;
  summary.arena_bytes = plan.bytes;
  summary.constant_bytes = program.constant_bytes;
  for (const auto& [kernel, ms] : program.compile_ms) summary.kernel_compile_ms += ms;

  built.weights = program.weights.floats();
  built.functions = std::move(program.functions);
  built.reference = std::move(program.reference);
  return built;
}

}  // namespace layoutopt::kernels::network
