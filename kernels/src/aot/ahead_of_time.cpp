#include "layoutopt/kernels/network/ahead_of_time.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "aot/shared_object_linker.h"
#include "aot/staged_artifact.h"
#include "jit/jit_engine.h"
#include "jit/retained_ir.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/parallel_compile.h"
#include "layoutopt/runtime/artifact_error.h"
#include "layoutopt/runtime/artifact_program.h"
#include "layoutopt/runtime/session.h"
#include "layoutopt/runtime/weights_file.h"
#include "network/built_network.h"

namespace layoutopt::kernels {

namespace {

void refuse_reference_steps(const runtime::NetworkSpec& spec) {
  for (const runtime::StepSpec& step : spec.steps)
    if (const auto* reference = std::get_if<runtime::ReferenceStep>(&step.action))
      throw KernelError("node '" + step.name + "' (" + reference->op +
                        ") has no blocked kernel in its schedule and runs the reference implementation, which needs "
                        "the graph at run time; an ahead-of-time artifact cannot hold it");
}

void add_symbols(const runtime::KernelSpec& kernel, std::set<std::string>& symbols) {
  for (const runtime::StageSpec& stage : kernel.stages) symbols.insert(stage.symbol);
}

std::set<std::string> kernel_symbols(const runtime::NetworkSpec& spec) {
  std::set<std::string> symbols;
  for (const runtime::StepSpec& step : spec.steps) {
    if (const auto* k = std::get_if<runtime::KernelStep>(&step.action)) add_symbols(k->kernel, symbols);
    if (const auto* c = std::get_if<runtime::ConcatStep>(&step.action))
      for (const runtime::KernelSpec& kernel : c->kernels) add_symbols(kernel, symbols);
  }
  return symbols;
}

/// The features LLVM enabled for the host ("+avx2,-amx-tile,..." -> avx2, ...).
std::vector<std::string> enabled_features(const std::string& features) {
  std::vector<std::string> enabled;
  size_t start = 0;
  while (start < features.size()) {
    const size_t end = std::min(features.find(',', start), features.size());
    if (features[start] == '+') enabled.push_back(features.substr(start + 1, end - start - 1));
    start = end + 1;
  }
  return enabled;
}

/// Writes every symbol's object into `folder`, generated on every core; returns the files.
std::vector<std::filesystem::path> write_objects(const std::set<std::string>& symbols,
                                                 const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  const std::vector<std::string> names(symbols.begin(), symbols.end());
  std::vector<std::filesystem::path> files;
  for (const std::string& name : names) files.push_back(folder / (name + ".o"));
  parallel_compile(names.size(), compile_threads(), [&](size_t i) {
    const std::string object = jit::JitEngine::instance().emit_object(names[i]);
    std::ofstream file(files[i], std::ios::binary);
    file.write(object.data(), static_cast<std::streamsize>(object.size()));
    if (!file) throw KernelError("cannot write " + files[i].string());
  });
  return files;
}

void tell(const AheadOfTimeOptions& options, const std::string& what) {
  if (options.progress) options.progress(what);
}

}  // namespace

AheadOfTimeResult compile_ahead_of_time(const graph::Graph& graph, const NetworkSchedule& schedule,
                                        const AheadOfTimeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const jit::RetainedIr retained;
  tell(options, "compiling the kernels of '" + graph.name() + "'");
  network::BuiltNetwork built = network::build_network(graph, schedule, options.forks);
  refuse_reference_steps(built.spec);
  const std::set<std::string> symbols = kernel_symbols(built.spec);

  // Written beside the destination and moved into place at the end: a failed or killed
  // compile leaves the old artifact as it was.
  aot::StagedArtifact staged(options.directory);
  tell(options, "emitting " + std::to_string(symbols.size()) + " kernel objects");
  const std::filesystem::path objects = staged.folder() / "objects";
  aot::link_shared_object(options.linker, write_objects(symbols, objects), staged.folder() / runtime::kSharedObjectFile);
  std::filesystem::remove_all(objects);  // inside our own staging folder

  tell(options, "writing the weights and the program");
  const jit::HostTarget& host = jit::JitEngine::instance().host();
  runtime::ArtifactProgram program;
  program.target = {host.triple, host.cpu, enabled_features(host.features)};
  program.threads = options.threads;
  try {
    program.weights = runtime::write_weights_file(staged.folder() / runtime::kWeightsFile, built.weights);
    program.network = std::move(built.spec);
    runtime::write_program_file(staged.folder() / runtime::kProgramFile, program);
  } catch (const runtime::ArtifactError& e) {
    throw KernelError(e.what());
  }
  staged.publish();

  AheadOfTimeResult result;
  result.steps = program.network.steps.size();
  result.transforms = built.summary.transforms;
  result.symbols = symbols.size();
  result.forks = program.network.forks.size();
  result.weight_bytes = static_cast<int64_t>(built.weights.size() * sizeof(float));
  result.cpu = host.cpu;
  result.cpu_features = program.target.features;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace layoutopt::kernels
