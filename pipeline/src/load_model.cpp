#include "layoutopt/pipeline/load_model.h"

#include <filesystem>
#include <optional>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/json_io.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/zoo/zoo.h"

namespace layoutopt::pipeline {

namespace {

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return ext;
}

int64_t seeded_parameter_values(const graph::Graph& graph) {
  int64_t count = 0;
  for (const graph::Value& value : graph.values())
    if (value.weights && value.weights->is_seeded()) count += value.weights->size();
  return count;
}

/// The leading extent of the first input: the batch a file fixes.
std::optional<int64_t> input_batch(const graph::Graph& graph) {
  for (const graph::ValueId input : graph.inputs())
    if (!graph.value(input).type.shape.empty()) return graph.value(input).type.shape.front();
  return std::nullopt;
}

}  // namespace

LoadedModel load_model(const std::string& spec, const ModelOptions& options) {
  const int64_t batch = options.batch.value_or(1);
  const uint64_t seed = options.seed.value_or(0);
  if (graph::zoo::contains(spec)) {
    return {graph::zoo::build(spec, {.batch = batch, .seed = seed}), "built-in zoo",
            "seeded random (seed " + std::to_string(seed) + ")"};
  }
  const std::filesystem::path path(spec);
  const std::string ext = lower_extension(path);
  // Readers open a folder and fail on the first read, with a message naming no file.
  if ((ext == ".onnx" || ext == ".json") && std::filesystem::is_directory(path))
    throw graph::GraphError("model '" + spec + "' is a folder, not a file");
  if (ext == ".onnx") {
    auto imported = graph::onnx::import_onnx(path, {.batch = batch, .seed = seed});
    std::string weights = imported.generated_parameters == 0
                              ? "from the file"
                              : std::to_string(imported.generated_parameters) +
                                    " parameter tensors missing from the file were filled with seeded random values";
    std::string summary = "evaluated " + std::to_string(imported.nodes_folded) +
                          " nodes at import (constants, shape arithmetic), read through " +
                          std::to_string(imported.identities_bypassed) + " Identity nodes, removed " +
                          std::to_string(imported.dead_nodes_removed) + " nodes no output depends on";
    // A symbolic batch is bound to the option; otherwise the file fixes it.
    const std::optional<int64_t> fixed_batch =
        imported.bound_dimensions.empty() ? input_batch(imported.graph) : std::nullopt;
    std::vector<std::string> warnings = check_model_options(
        options, {.description = "'" + spec + "'",
                  .fixed_batch = fixed_batch,
                  .seed_used = imported.generated_parameters > 0,
                  .seed_unused_reason = "its weights are all in the file"});
    return {std::move(imported.graph), "ONNX opset " + std::to_string(imported.opset) + " (" + imported.producer + ")",
            std::move(weights), std::move(imported.bound_dimensions), std::move(summary), std::move(warnings)};
  }
  if (ext == ".json") {
    graph::Graph graph = graph::load_json(path);
    const bool seeded = seeded_parameter_values(graph) > 0;
    // A JSON graph stores its shapes and its weights (or the seed that generates them).
    std::vector<std::string> warnings = check_model_options(
        options, {.description = "'" + spec + "'",
                  .fixed_batch = input_batch(graph),
                  .seed_used = false,
                  .seed_unused_reason = seeded ? "its generated weights use the seed stored in the file"
                                               : "its weights are in the file"});
    return {std::move(graph), "layoutopt JSON", seeded ? "seeded random (recipe stored in the file)" : "from the file",
            {}, {}, std::move(warnings)};
  }
  throw graph::GraphError("unknown model '" + spec +
                          "': not a built-in network (see `layoutopt zoo`) and not a .onnx or .json file");
}

LoadedModel load_prepared_model(const std::string& spec, const ModelOptions& options) {
  LoadedModel model = load_model(spec, options);
  model.preparation = graph::prepare_for_inference(model.graph);
  return model;
}

}  // namespace layoutopt::pipeline
