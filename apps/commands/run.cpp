// `layoutopt run MODEL [--plan plan.json] --input in.npy -o out.npy [--threads N]`: compiles
// the model for its plan (or the default schedule) and runs it once on a NumPy array,
// writing the first output as a NumPy array. `--check` also runs the reference executor and
// prints the largest difference, for people who want to see that the plan changed nothing.

#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "output_file.h"
#include "scheduled_model.h"
#include "layoutopt/kernels/network/compiled_network.h"
#include "layoutopt/kernels/reference/graph_executor.h"
#include "layoutopt/kernels/reference/npy_io.h"
#include "layoutopt/pipeline/threads.h"
#include "layoutopt/timing/thread_scope.h"

namespace layoutopt::apps {

namespace {

struct RunFlags {
  ScheduledModelArgument scheduled;
  std::string input;
  OutputFile output;
  int threads = 0;
  bool check = false;
};

void run(const RunFlags& flags) {
  flags.output.check_writable();
  const kernels::reference::HostTensor input = kernels::reference::load_npy(flags.input);
  const ScheduledModel scheduled = load_scheduled_model(flags.scheduled);
  const graph::Graph& graph = scheduled.model.graph;
  if (graph.inputs().size() != 1)
    throw std::runtime_error("model '" + graph.name() + "' has " + std::to_string(graph.inputs().size()) +
                             " inputs; `run` feeds exactly one");
  const graph::Value& wanted = graph.value(graph.inputs().front());
  if (input.shape != wanted.type.shape)  // before compiling: a wrong file fails at once
    throw std::runtime_error("'" + flags.input + "' has shape " + graph::to_string(input.shape) + ", input '" +
                             wanted.name + "' of '" + graph.name() + "' needs " + graph::to_string(wanted.type.shape));
  const timing::ThreadScope threads(pipeline::resolve_threads(flags.threads));
  kernels::CompiledNetwork network = kernels::CompiledNetwork::compile(graph, scheduled.schedule);
  const std::vector<kernels::reference::HostTensor> outputs = network.run({input});
  kernels::reference::save_npy(outputs.front(), flags.output.path);
  std::cout << "schedule:  " << scheduled.schedule_source << "\n"
            << "output:    " << graph.value(graph.outputs().front()).name << " " << graph::to_string(outputs.front().shape)
            << " -> " << flags.output.path.string() << "\n";
  if (graph.outputs().size() > 1)
    std::cout << "note:      " << graph.outputs().size() - 1 << " further outputs not written\n";
  if (flags.check) {
    const auto expected = kernels::reference::run_graph(graph, {input});
    std::cout << "check:     largest difference to the reference executor " << std::scientific << std::setprecision(2)
              << kernels::reference::max_relative_difference(expected.front(), outputs.front()) << " of the output's largest magnitude\n";
  }
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* command = app.add_subcommand("run", "Compile a model for its plan and run it on a NumPy array");
  add_scheduled_model_arguments(*command, flags->scheduled);
  command->add_option("--input", flags->input, "input tensor (.npy, float32 or float64, the model's input shape)")
      ->required()
      ->check(CLI::ExistingFile);
  add_output_option(*command, flags->output, "output tensor (.npy)");
  add_threads_option(*command, flags->threads, "OpenMP threads");
  command->add_flag("--check", flags->check, "also run the reference executor and print the largest difference");
  command->callback([flags] { run(*flags); });
}

}  // namespace layoutopt::apps
