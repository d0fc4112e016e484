#include "layoutopt/pipeline/compile_model.h"

#include <stdexcept>

#include "layoutopt/costs/side_by_side.h"
#include "layoutopt/pipeline/output_path.h"
#include "layoutopt/pipeline/progress.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/tuning/target.h"

namespace layoutopt::pipeline {

namespace {

/// The CPU name of a target string ("llvm -mcpu=znver4 -num-cores=2" -> "znver4").
std::string target_cpu(const std::string& target) {
  const size_t start = target.find("-mcpu=");
  if (start == std::string::npos) return {};
  const size_t from = start + 6;
  return target.substr(from, target.find(' ', from) - from);
}

}  // namespace

kernels::AheadOfTimeResult compile_model(const CompileRequest& request) {
  check_artifact_writable(request.directory, request.force, request.force_hint);
  const int threads = resolve_threads(request.threads);
  const std::string host = target_cpu(tuning::host_target(threads));
  if (!request.plan_target.empty() && target_cpu(request.plan_target) != host)
    throw std::runtime_error("the plan was made for CPU '" + target_cpu(request.plan_target) + "', this host is '" + host +
                             "': compile on the CPU the plan was made for");
  timing::ProgressReporter progress = progress_reporter(request.quiet);
  kernels::AheadOfTimeOptions options{.directory = request.directory,
                                      .threads = threads,
                                      .progress = [&progress](const std::string& what) { progress.note(what); }};
  if (request.side_by_side) {
    progress.note("timing every step with " + std::to_string(threads) + " threads and with one, to plan forks");
    kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(request.graph, request.schedule);
    options.forks = costs::plan_side_by_side(network, request.graph, threads, costs::kSideBySideProfiledRuns);
  }
  kernels::AheadOfTimeResult result = kernels::compile_ahead_of_time(request.graph, request.schedule, options);
  progress.finish();
  return result;
}

}  // namespace layoutopt::pipeline
