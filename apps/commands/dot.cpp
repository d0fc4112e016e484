// `layoutopt dot MODEL -o out.dot`: Graphviz drawing of a model (rendered to SVG when
// the output ends in .svg and Graphviz is installed).

#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "output_file.h"
#include "layoutopt/graph/dot_export.h"
#include "layoutopt/graph/passes/pipeline.h"

namespace layoutopt::apps {

namespace {

struct DotFlags {
  ModelArgument model;
  OutputFile output;
  bool prepare = false;
};

}  // namespace

void add_dot_command(CLI::App& app) {
  auto flags = std::make_shared<DotFlags>();
  CLI::App* command = app.add_subcommand("dot", "Draw a model as a Graphviz graph (.dot, or .svg via Graphviz)");
  add_model_argument(*command, flags->model);
  add_output_option(*command, flags->output, ".dot file, or .svg/.png to render with Graphviz");
  command->add_flag("--prepare", flags->prepare, "draw the graph after batch-norm folding and epilogue fusion");
  command->callback([flags] {
    LoadedModel model = load_model(flags->model.spec, flags->model.options);
    if (flags->prepare) (void)graph::prepare_for_inference(model.graph);
    flags->output.check_writable();
    write_rendered_dot(graph::to_dot(model.graph), flags->output.path);
    std::cout << "wrote " << flags->output.path.string() << "\n";
  });
}

}  // namespace layoutopt::apps
