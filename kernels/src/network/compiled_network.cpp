#include "layoutopt/kernels/network/compiled_network.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <optional>
#include <span>

#include "layoutopt/kernels/error.h"
#include "layoutopt/runtime/network.h"
#include "jit/kernel_module.h"
#include "network/built_network.h"

namespace layoutopt::kernels {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The kind of the step's (first) kernel, its operator for a fallback; empty for a transform.
/// From the kernel's name, not its first stage's: a Winograd conv's first stage is its input
/// transform.
std::string kernel_of(const runtime::StepAction& action) {
  if (const auto* k = std::get_if<runtime::KernelStep>(&action)) return jit::kernel_kind(k->kernel.name);
  if (const auto* c = std::get_if<runtime::ConcatStep>(&action); c && !c->kernels.empty())
    return jit::kernel_kind(c->kernels.front().name);
  if (const auto* r = std::get_if<runtime::ReferenceStep>(&action)) return r->op;
  return {};
}

NetworkStep step_info(const graph::Graph& graph, const runtime::StepSpec& step, StepKind kind,
                      std::optional<graph::NodeId> node) {
  NetworkStep info{step.name, kind, step.detail, std::nullopt, node, std::nullopt, {}};
  if (node) info.op = graph::op_kind(graph.node(*node).op);
  if (kind != StepKind::transform) info.kernel = kernel_of(step.action);
  if (const auto* t = std::get_if<runtime::TransformStep>(&step.action); t && kind == StepKind::transform)
    info.transform = TransformedTensor{t->shape, t->from, t->to};
  return info;
}

/// The weight image in huge-page memory, as the kernels read it.
std::shared_ptr<const runtime::PageBlock> page_weights(const std::vector<float>& weights) {
  auto block = std::make_shared<runtime::PageBlock>(weights.size());
  std::copy(weights.begin(), weights.end(), block->data());
  return block;
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
  std::optional<runtime::Network> network;
  std::vector<NetworkStep> steps;
  CompileSummary summary;
};

CompiledNetwork::CompiledNetwork(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledNetwork::CompiledNetwork(CompiledNetwork&&) noexcept = default;
CompiledNetwork& CompiledNetwork::operator=(CompiledNetwork&&) noexcept = default;
CompiledNetwork::~CompiledNetwork() = default;

CompiledNetwork CompiledNetwork::compile(const graph::Graph& graph, const NetworkSchedule& schedule,
                                         std::span<const runtime::Fork> forks) {
  const Clock::time_point start = Clock::now();
  auto impl = std::make_unique<Impl>();
  impl->graph = &graph;
  network::BuiltNetwork built = network::build_network(graph, schedule, forks);
  for (size_t s = 0; s < built.spec.steps.size(); ++s)
    impl->steps.push_back(step_info(graph, built.spec.steps[s], built.step_kinds[s], built.step_nodes[s]));
  // The same materialization as an ahead-of-time artifact's, with symbols from the JIT.
  const network::FunctionTable& functions = built.functions;
  const runtime::FunctionResolver resolve = [&functions](const std::string& symbol) -> KernelFunction {
    const auto found = functions.find(symbol);
    return found == functions.end() ? nullptr : found->second->function;
  };
  impl->network.emplace(std::move(built.spec), page_weights(built.weights), resolve, built.reference);
  impl->summary = built.summary;
  impl->summary.scratch_bytes = impl->network->scratch_bytes();
  impl->summary.seconds = ms_since(start) / 1e3;
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
    impl_->network->set_input(i, inputs[i].data);
  }
}

void CompiledNetwork::execute() { impl_->network->execute(); }

ProfiledRun CompiledNetwork::execute_profiled() {
  const size_t steps = impl_->steps.size();
  const auto threads = static_cast<size_t>(omp_get_max_threads());
  std::vector<double> busy_ms(steps * threads, std::numeric_limits<double>::quiet_NaN());
  ProfiledRun run;
  run.step_ms.reserve(steps);
  Clock::time_point start = Clock::now();
  impl_->network->execute(
      [&](size_t /*step*/) {
        run.step_ms.push_back(ms_since(start));
        start = Clock::now();
      },
      busy_ms);
  run.wait_ms.assign(steps, std::numeric_limits<double>::quiet_NaN());
  for (size_t s = 0; s < run.step_ms.size(); ++s) {
    const std::span<const double> busy(&busy_ms[s * threads], threads);
    // A thread that recorded nothing (NaN) makes the step's figure NaN: unknown, not idle.
    double waiting = 0;
    for (double thread_busy : busy) waiting += run.step_ms[s] - thread_busy;
    run.wait_ms[s] = waiting / static_cast<double>(threads);
  }
  return run;
}

std::vector<reference::HostTensor> CompiledNetwork::outputs() const {
  std::vector<reference::HostTensor> outputs;
  for (size_t o = 0; o < impl_->network->spec().outputs.size(); ++o) {
    reference::HostTensor tensor(impl_->network->spec().outputs[o].shape);
    const std::span<const float> values = impl_->network->output(o);
    std::copy(values.begin(), values.end(), tensor.data.begin());
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
runtime::Network& CompiledNetwork::network() { return *impl_->network; }
const runtime::Network& CompiledNetwork::network() const { return *impl_->network; }

}  // namespace layoutopt::kernels
