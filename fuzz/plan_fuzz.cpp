// Fuzz target: a plan file (measure/planning plan.h) as load_plan reads it, validated against
// one fixed graph (data/onnx/tiny-convnet.onnx prepared for inference, the graph the seed
// plans were made for), then the readers of each transform looked up as the compiler does.
// Rejections are PlanError.
#include "fuzz_input.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/planning/plan.h"

namespace {

const layoutopt::graph::Graph& planned_graph() {
  static const layoutopt::graph::Graph graph = [] {
    layoutopt::graph::Graph g =
        layoutopt::graph::onnx::import_onnx(LAYOUTOPT_SOURCE_DIR "/data/onnx/tiny-convnet.onnx").graph;
    (void)layoutopt::graph::prepare_for_inference(g);
    return g;
  }();
  return graph;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace layoutopt;
  const graph::Graph& graph = planned_graph();
  const std::optional<nlohmann::json> document = fuzz::parse_json(data, size);
  if (!document) return 0;
  fuzz::rejecting_only<planning::PlanError>([&] {
    const planning::Plan plan = planning::plan_from_json(*document);
    (void)planning::to_json(plan);
    planning::validate_plan(plan, graph);
    for (const planning::PlanTransform& transform : plan.transforms)
      (void)planning::transform_readers(plan, graph, transform);
  });
  return 0;
}
