#include "layoutopt/pipeline/load_model.h"

#include <filesystem>

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

}  // namespace

LoadedModel load_model(const std::string& spec, const ModelOptions& options) {
  if (graph::zoo::contains(spec)) {
    return {graph::zoo::build(spec, {.batch = options.batch, .seed = options.seed}), "built-in zoo",
            "seeded random (seed " + std::to_string(options.seed) + ")"};
  }
  const std::filesystem::path path(spec);
  const std::string ext = lower_extension(path);
  // Readers open a folder and fail on the first read, with a message naming no file.
  if ((ext == ".onnx" || ext == ".json") && std::filesystem::is_directory(path))
    throw graph::GraphError("model '" + spec + "' is a folder, not a file");
  if (ext == ".onnx") {
    auto imported = graph::onnx::import_onnx(path, {.batch = options.batch, .seed = options.seed});
    std::string weights = imported.generated_parameters == 0
                              ? "from the file"
                              : std::to_string(imported.generated_parameters) +
                                    " parameter tensors missing from the file were filled with seeded random values";
    std::string summary = "evaluated " + std::to_string(imported.nodes_folded) +
                          " nodes at import (constants, shape arithmetic), read through " +
                          std::to_string(imported.identities_bypassed) + " Identity nodes, removed " +
                          std::to_string(imported.dead_nodes_removed) + " nodes no output depends on";
    return {std::move(imported.graph), "ONNX opset " + std::to_string(imported.opset) + " (" + imported.producer + ")",
            std::move(weights), std::move(imported.bound_dimensions), std::move(summary)};
  }
  if (ext == ".json") {
    graph::Graph graph = graph::load_json(path);
    const bool seeded = seeded_parameter_values(graph) > 0;
    return {std::move(graph), "layoutopt JSON", seeded ? "seeded random (recipe stored in the file)" : "from the file"};
  }
  throw graph::GraphError("unknown model '" + spec +
                          "': not a built-in network (see `layoutopt zoo`) and not a .onnx or .json file");
}

}  // namespace layoutopt::pipeline
