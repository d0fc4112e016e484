// `layoutopt export MODEL -o out.json`: the model in layoutopt's own JSON format.

#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "output_file.h"
#include "layoutopt/graph/json_io.h"
#include "layoutopt/graph/passes/pipeline.h"

namespace layoutopt::apps {

namespace {

struct ExportFlags {
  ModelArgument model;
  OutputFile output;
  bool prepare = false;
};

}  // namespace

void add_export_command(CLI::App& app) {
  auto flags = std::make_shared<ExportFlags>();
  CLI::App* command = app.add_subcommand("export", "Write a model as a layoutopt JSON graph (round-trips exactly)");
  add_model_argument(*command, flags->model);
  add_output_option(*command, flags->output, "JSON file to write");
  command->add_flag("--prepare", flags->prepare,
                    "remove identities, fold batch norms and fuse epilogues before writing");
  command->callback([flags] {
    LoadedModel model = load_and_warn(flags->model);
    if (flags->prepare) std::cerr << graph::prepare_for_inference(model.graph).summary() << "\n";
    flags->output.check_writable();
    graph::save_json(model.graph, flags->output.path);
    std::cout << "wrote " << flags->output.path.string() << " (" << model.graph.nodes().size() << " nodes)\n";
  });
}

}  // namespace layoutopt::apps
