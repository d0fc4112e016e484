#include "layoutopt/pipeline/jit_session.h"

#include <algorithm>
#include <mutex>
#include <optional>

#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/pipeline/load_model.h"
#include "layoutopt/pipeline/load_schedule.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/timing/thread_scope.h"

namespace layoutopt::pipeline {

struct JitSession::Impl {
  // The graph lives here, before the network: fallback steps read it while the network runs.
  graph::Graph graph;
  std::string schedule_source;
  std::vector<std::string> warnings;
  int threads = 1;
  std::optional<kernels::CompiledNetwork> network;
  std::mutex run_mutex;  // one arena: runs from several threads take turns
};

JitSession::JitSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JitSession::JitSession(JitSession&&) noexcept = default;
JitSession& JitSession::operator=(JitSession&&) noexcept = default;
JitSession::~JitSession() = default;

JitSession JitSession::compile(const std::string& model, const JitSessionOptions& options) {
  if (options.threads < 0) throw kernels::KernelError("thread count " + std::to_string(options.threads) + " is negative");
  auto impl = std::make_unique<Impl>();
  LoadedModel loaded = load_model(model, options.model);
  impl->graph = std::move(loaded.graph);
  impl->warnings = std::move(loaded.warnings);
  (void)graph::prepare_for_inference(impl->graph);
  LoadedSchedule schedule = load_schedule(impl->graph, options.plan);
  impl->schedule_source = std::move(schedule.source);
  impl->threads = resolve_threads(options.threads);
  // Kernels size their per-thread scratch for the thread count they will run at.
  const timing::ThreadScope threads(impl->threads);
  impl->network.emplace(kernels::CompiledNetwork::compile(impl->graph, schedule.schedule));
  return JitSession(std::move(impl));
}

const std::vector<runtime::TensorSpec>& JitSession::inputs() const { return impl_->network->network().spec().inputs; }
const std::vector<runtime::TensorSpec>& JitSession::outputs() const { return impl_->network->network().spec().outputs; }
int JitSession::threads() const { return impl_->threads; }
const graph::Graph& JitSession::graph() const { return impl_->graph; }
const std::string& JitSession::schedule_source() const { return impl_->schedule_source; }
const std::vector<std::string>& JitSession::warnings() const { return impl_->warnings; }
const kernels::CompiledNetwork& JitSession::network() const { return *impl_->network; }

void JitSession::run(std::span<const runtime::TensorView> inputs, std::span<const runtime::MutableTensorView> outputs) {
  if (auto wrong = runtime::views_mismatch(impl_->graph.name(), this->inputs(), this->outputs(), inputs, outputs))
    throw kernels::KernelError(*wrong);
  const std::lock_guard lock(impl_->run_mutex);
  runtime::Network& network = impl_->network->network();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto floats = static_cast<size_t>(network.spec().slots[static_cast<size_t>(this->inputs()[i].slot)].floats);
    network.set_input(i, {inputs[i].data, floats});
  }
  {
    const timing::ThreadScope threads(impl_->threads);
    network.execute();
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    const std::span<const float> values = network.output(o);
    std::copy(values.begin(), values.end(), outputs[o].data);
  }
}

}  // namespace layoutopt::pipeline
