#include "layoutopt/kernels/network/compiled_network.h"

#include <chrono>
#include <optional>
#include <cstring>

#include <omp.h>
#include <unistd.h>

#include "layoutopt/kernels/error.h"
#include "network/arena_plan.h"
#include "network/constant_pool.h"
#include "network/program_builder.h"

namespace layoutopt::kernels {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr int64_t kAlignment = 64;
// Steps the memory of a tensor that fits in a core's L2 rests before another tensor gets it
// (see arena_plan.h). With 2, an inverted-residual block's depthwise conv writes where the
// expand conv of the block before wrote (lines its own core holds), not over what the
// project conv just read on both cores. Evidence: docs/design/step-outputs.md.
constexpr int kRestSteps = 2;
constexpr int64_t kAssumedL2Bytes = int64_t{1} << 20;  // where the OS does not say

int64_t l2_bytes() {
  const long bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return bytes > 0 ? bytes : kAssumedL2Bytes;
}

}  // namespace

const char* to_string(StepKind kind) {
  switch (kind) {
    case StepKind::kernel: return "kernel";
    case StepKind::transform: return "transform";
    case StepKind::fallback: return "fallback";
  }
  return "unknown";
}

struct CompiledNetwork::Impl {
  const graph::Graph* graph = nullptr;
  network::Program program;
  std::optional<PageBlock> arena;
  network::SlotAddresses addresses;  // by slot
  std::vector<NetworkStep> steps;
  CompileSummary summary;
  int sized_for_threads = 0;  // the thread count of the last complete run (see run_steps)
};

CompiledNetwork::CompiledNetwork(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledNetwork::CompiledNetwork(CompiledNetwork&&) noexcept = default;
CompiledNetwork& CompiledNetwork::operator=(CompiledNetwork&&) noexcept = default;
CompiledNetwork::~CompiledNetwork() = default;

CompiledNetwork CompiledNetwork::compile(const graph::Graph& graph, const NetworkSchedule& schedule) {
  const Clock::time_point start = Clock::now();
  auto impl = std::make_unique<Impl>();
  impl->graph = &graph;
  impl->program = network::build_program(graph, schedule);
  const network::Program& program = impl->program;

  // One buffer per storage, alive from its first to its last step.
  const std::vector<network::StorageLifetime> lifetimes = network::storage_lifetimes(program);
  std::vector<network::BufferLifetime> buffers(lifetimes.size());
  for (size_t s = 0; s < lifetimes.size(); ++s) buffers[s] = {0, lifetimes[s].first, lifetimes[s].last};
  for (const network::Slot& slot : program.slots) {
    int64_t& bytes = buffers[static_cast<size_t>(slot.storage)].bytes;
    bytes = std::max(bytes, (slot.offset + slot.floats) * int64_t{sizeof(float)});
  }
  const network::ArenaPlan plan = network::plan_arena(buffers, kAlignment, {kRestSteps, l2_bytes()});
  impl->arena.emplace(static_cast<size_t>(plan.bytes) / sizeof(float));
  for (const network::Slot& slot : program.slots)
    impl->addresses.push_back(impl->arena->data() + plan.offsets[static_cast<size_t>(slot.storage)] / int64_t{sizeof(float)} +
                              slot.offset);

  CompileSummary& summary = impl->summary;
  for (const network::Step& step : program.steps) {
    impl->steps.push_back(step.info);
    if (step.info.kind == StepKind::kernel) ++summary.kernels;
    if (step.info.kind == StepKind::transform) ++summary.transforms;
    if (step.info.kind == StepKind::fallback) ++summary.fallbacks;
  }
  for (const network::BufferLifetime& buffer : buffers) summary.tensor_bytes += buffer.bytes;
  summary.views = program.views;
  summary.in_place = program.in_place;
  summary.concat_inputs_placed = program.placed_in_slices;
  summary.arena_bytes = plan.bytes;
  summary.constant_bytes = program.constant_bytes;
  summary.scratch_bytes = program.scratch->bytes();
  for (const auto& [kernel, ms] : program.compile_ms) summary.kernel_compile_ms += ms;
  summary.seconds = ms_since(start) / 1e3;
  return CompiledNetwork(std::move(impl));
}

void CompiledNetwork::set_inputs(const std::vector<reference::HostTensor>& inputs) {
  const graph::Graph& graph = *impl_->graph;
  if (inputs.size() != graph.inputs().size())
    throw KernelError("network '" + graph.name() + "' takes " + std::to_string(graph.inputs().size()) + " inputs, got " +
                      std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const graph::Value& value = graph.value(graph.inputs()[i]);
    if (inputs[i].shape != value.type.shape)
      throw KernelError("input '" + value.name + "' must have shape " + graph::to_string(value.type.shape) + ", got " +
                        graph::to_string(inputs[i].shape));
    std::memcpy(impl_->addresses[static_cast<size_t>(impl_->program.inputs[i])], inputs[i].data.data(),
                inputs[i].data.size() * sizeof(float));
  }
}

void CompiledNetwork::execute() { run_steps({}); }

std::vector<double> CompiledNetwork::execute_profiled() {
  std::vector<double> ms;
  ms.reserve(impl_->program.steps.size());
  Clock::time_point start = Clock::now();
  run_steps([&](size_t /*step*/) {
    ms.push_back(ms_since(start));
    start = Clock::now();
  });
  return ms;
}

void CompiledNetwork::run_steps(const StepDone& step_done) {
  const std::vector<network::Step>& steps = impl_->program.steps;
  const network::SlotAddresses& addresses = impl_->addresses;
  // A team must not size kernels' per-thread scratch while it runs (Team::calling), so the
  // first run at a thread count runs step by step, each kernel forking its own team.
  const int threads = omp_get_max_threads();
  const bool teams = impl_->sized_for_threads == threads;
  impl_->sized_for_threads = 0;  // until this run has finished every step
  size_t next = 0;
  while (next < steps.size()) {
    if (!teams || !steps[next].shares_team) {
      steps[next].run(addresses, Team::own);
      if (step_done) step_done(next);
      ++next;
      continue;
    }
    // A stretch of steps that share a team runs in one: forking and joining a team costs
    // over a microsecond, a barrier under half of one, and a small step takes a few.
    // Nothing in it throws for a compiled program (its steps were checked when lowered);
    // an exception cannot leave a parallel region, so one there would end the process.
    size_t end = next;
    while (end < steps.size() && steps[end].shares_team) ++end;
#pragma omp parallel
    for (size_t s = next; s < end; ++s) {
      steps[s].run(addresses, Team::calling);  // returns once the whole team has finished it
      if (step_done && omp_get_thread_num() == 0) step_done(s);
    }
    next = end;
  }
  impl_->sized_for_threads = threads;
}

std::vector<reference::HostTensor> CompiledNetwork::outputs() const {
  std::vector<reference::HostTensor> outputs;
  for (network::SlotId slot : impl_->program.outputs) {
    const network::Slot& s = impl_->program.slots[static_cast<size_t>(slot)];
    reference::HostTensor tensor(impl_->graph->value(s.value).type.shape);
    std::memcpy(tensor.data.data(), impl_->addresses[static_cast<size_t>(slot)], tensor.data.size() * sizeof(float));
    outputs.push_back(std::move(tensor));
  }
  return outputs;
}

std::vector<reference::HostTensor> CompiledNetwork::run(const std::vector<reference::HostTensor>& inputs) {
  set_inputs(inputs);
  execute();
  return outputs();
}

const std::vector<NetworkStep>& CompiledNetwork::steps() const { return impl_->steps; }
const CompileSummary& CompiledNetwork::summary() const { return impl_->summary; }

}  // namespace layoutopt::kernels
