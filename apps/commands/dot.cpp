// `layoutopt dot MODEL -o out.dot [--prepare] [--plan plan.json]`: Graphviz drawing of a
// model (rendered to SVG when the output ends in .svg and Graphviz is installed). With a
// plan: the prepared graph the plan was made for, coloured by the chosen layouts, with the
// inserted transforms (measure/plan_dot.h).

#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "output_file.h"
#include "layoutopt/graph/dot_export.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/planning/plan_dot.h"

namespace layoutopt::apps {

namespace {

struct DotFlags {
  ModelArgument model;
  OutputFile output;
  bool prepare = false;
  std::string plan;
};

void run_dot(const DotFlags& flags) {
  LoadedModel model = load_and_warn(flags.model);
  // Plans are made for the prepared graph, so drawing one implies --prepare.
  if (flags.prepare || !flags.plan.empty()) (void)graph::prepare_for_inference(model.graph);
  flags.output.check_writable();
  if (flags.plan.empty()) {
    write_rendered_dot(graph::to_dot(model.graph), flags.output.path);
    return;
  }
  const planning::Plan plan = planning::load_plan(flags.plan);
  planning::validate_plan(plan, model.graph);
  write_rendered_dot(graph::to_dot(model.graph, planning::plan_dot_style(plan, model.graph)), flags.output.path);
}

}  // namespace

void add_dot_command(CLI::App& app) {
  auto flags = std::make_shared<DotFlags>();
  CLI::App* command = app.add_subcommand("dot", "Draw a model as a Graphviz graph (.dot, or .svg via Graphviz)");
  add_model_argument(*command, flags->model);
  add_output_option(*command, flags->output, ".dot file, or .svg/.png to render with Graphviz");
  command->add_flag("--prepare", flags->prepare, "draw the graph after batch-norm folding and epilogue fusion");
  command->add_option("--plan", flags->plan,
                      "draw a plan from `layoutopt plan`: layouts as colours, transforms as diamonds (implies --prepare)");
  command->callback([flags] {
    run_dot(*flags);
    std::cout << "wrote " << flags->output.path.string() << "\n";
  });
}

}  // namespace layoutopt::apps
