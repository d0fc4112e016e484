// `layoutopt compile MODEL [--plan plan.json] -o DIR [--threads N] [--side-by-side]`: compiles the model for
// its plan (or the default schedule) ahead of time into an artifact folder that the runtime
// library loads without LLVM (network.so, program.bin, weights.bin).

#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "layoutopt/pipeline/compile_model.h"
#include "scheduled_model.h"

namespace layoutopt::apps {

namespace {

struct CompileFlags {
  ScheduledModelArgument scheduled;
  std::string directory;
  int threads = 0;
  bool quiet = false;
  bool side_by_side = false;
  bool force = false;
};

void compile(const CompileFlags& flags) {
  const ScheduledModel scheduled = load_scheduled_model(flags.scheduled);
  const kernels::AheadOfTimeResult result = pipeline::compile_model(
      {.graph = scheduled.model.graph,
       .schedule = scheduled.schedule,
       .plan_target = scheduled.plan ? scheduled.plan->target : std::string(),
       .directory = flags.directory,
       .threads = flags.threads,
       .quiet = flags.quiet,
       .side_by_side = flags.side_by_side,
       .force = flags.force});
  std::cout << "schedule:  " << scheduled.schedule_source << "\n"
            << "artifact:  " << flags.directory << " (" << result.steps << " steps, " << result.transforms
            << " transforms, " << result.symbols << " kernel functions, " << result.weight_bytes / (1 << 20)
            << " MiB of weights" << (flags.side_by_side ? ", " + std::to_string(result.forks) + " forks side by side" : "")
            << ")\n"
            << "cpu:       " << result.cpu << ", " << result.cpu_features.size() << " CPU features recorded (checked at load)\n"
            << "time:      " << result.seconds << " s\n";
}

}  // namespace

void add_compile_command(CLI::App& app) {
  auto flags = std::make_shared<CompileFlags>();
  CLI::App* command = app.add_subcommand("compile", "Compile a model for its plan ahead of time into a loadable artifact");
  add_scheduled_model_arguments(*command, flags->scheduled);
  command->add_option("-o,--output", flags->directory, "artifact folder (network.so, program.bin, weights.bin)")
      ->required();
  add_threads_option(*command, flags->threads, "the artifact's default thread count");
  command->add_flag("--force", flags->force, "replace an artifact already in the folder (its three files only)");
  command->add_flag("--side-by-side", flags->side_by_side,
                    "run independent steps side by side in the artifact, one thread each, where this host's step "
                    "times (profiled with all threads and with one) say it pays");
  add_quiet_flag(*command, flags->quiet);
  command->callback([flags] { compile(*flags); });
}

}  // namespace layoutopt::apps
