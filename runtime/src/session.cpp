#include "layoutopt/runtime/session.h"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>

#include "layoutopt/runtime/artifact_error.h"
#include "layoutopt/cpu/features.h"
#include "layoutopt/runtime/error.h"
#include "layoutopt/runtime/network_pool.h"
#include "layoutopt/runtime/weights_file.h"
#include "shared_object.h"

namespace layoutopt::runtime {

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

/// Refuses code for another architecture or for instruction sets this CPU lacks.
void check_target(const TargetSpec& target, const std::filesystem::path& directory) {
#if defined(__x86_64__)
  if (target.triple.rfind("x86_64", 0) != 0)
    throw ArtifactError(directory.string() + " was compiled for " + target.triple + ", this runtime runs on x86_64");
#endif
  const std::vector<std::string> missing = cpu::missing_features(target.features);
  if (!missing.empty())
    throw ArtifactError(directory.string() + " was compiled for a CPU with " + joined(missing) + " (" + target.cpu +
                        "), which this CPU lacks; compile the model on this CPU");
}

/// Sets OpenMP's thread count for a scope (0: leaves it).
class ThreadCount {
 public:
  explicit ThreadCount(int threads) : saved_(omp_get_max_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ThreadCount() { omp_set_num_threads(saved_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int saved_;
};

}  // namespace

struct Session::Impl {
  ArtifactProgram program;
  int threads = 0;
  detail::SharedObject code;  // declared before the networks: it outlives the kernels' pointers
  std::shared_ptr<const PageBlock> weights;
  NetworkPool networks{[this] { return make_network(); }};

  /// A network over the shared weights and code. Throws ArtifactError for a symbol the code
  /// lacks or a spec that does not fit (KernelError from materialization).
  std::unique_ptr<Network> make_network() const {
    try {
      return std::make_unique<Network>(program.network, weights,
                                       [this](const std::string& symbol) { return code.function(symbol); });
    } catch (const KernelError& e) {
      throw ArtifactError(program.network.name + ": " + e.what());
    }
  }
};

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

Session Session::load(const std::filesystem::path& directory, const SessionOptions& options) {
  if (options.threads < 0) throw ArtifactError("thread count " + std::to_string(options.threads) + " is negative");
  ArtifactProgram program = read_program_file(directory / kProgramFile);
  check_target(program.target, directory);
  auto weights = std::make_shared<const PageBlock>(read_weights_file(directory / kWeightsFile, program.weights));
  auto impl = std::unique_ptr<Impl>(new Impl{std::move(program), 0, detail::SharedObject(directory / kSharedObjectFile),
                                             std::move(weights)});
  impl->threads = options.threads > 0 ? options.threads : impl->program.threads;
  try {
    // The first network is made now, so that a broken artifact fails to load, not to run; and
    // at the run's thread count: kernels of units size their per-thread scratch for it.
    const ThreadCount thread_count(impl->threads);
    const NetworkPool::Lease first = impl->networks.acquire();
  } catch (const ArtifactError& e) {
    throw ArtifactError(directory.string() + ": " + e.what());
  }
  return Session(std::move(impl));
}

const std::vector<TensorSpec>& Session::inputs() const { return impl_->program.network.inputs; }
const std::vector<TensorSpec>& Session::outputs() const { return impl_->program.network.outputs; }
const ArtifactProgram& Session::program() const { return impl_->program; }
int Session::threads() const { return impl_->threads; }

void Session::run(std::span<const TensorView> inputs, std::span<const MutableTensorView> outputs) const {
  if (auto wrong = views_mismatch(impl_->program.network.name, this->inputs(), this->outputs(), inputs, outputs))
    throw ArtifactError(*wrong);
  // OpenMP's thread count is per calling thread: concurrent runs do not see each other's.
  const ThreadCount thread_count(impl_->threads);
  const NetworkPool::Lease network = impl_->networks.acquire();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto floats = static_cast<size_t>(network->spec().slots[static_cast<size_t>(this->inputs()[i].slot)].floats);
    network->set_input(i, {inputs[i].data, floats});
  }
  network->execute();
  for (size_t o = 0; o < outputs.size(); ++o) {
    const std::span<const float> values = network->output(o);
    std::copy(values.begin(), values.end(), outputs[o].data);
  }
}

size_t Session::networks_made() const { return impl_->networks.size(); }

}  // namespace layoutopt::runtime
