#pragma once
// Resolves the MODEL argument every subcommand takes: a zoo name ("resnet-50"), an ONNX
// file or the project's own JSON graph format.

#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/onnx/onnx_import.h"

namespace layoutopt::apps {

struct ModelOptions {
  int64_t batch = 1;
  uint64_t seed = 0;
};

struct LoadedModel {
  graph::Graph graph;
  std::string source;   ///< "built-in zoo", "ONNX opset 13 (pytorch 1.13.1)", "layoutopt JSON"
  std::string weights;  ///< where the weights came from, flagged when they were generated
  /// ONNX files: symbolic input dimensions and the extents they were bound to.
  std::vector<graph::onnx::BoundDimension> bound_dimensions;
  /// ONNX files: what the importer evaluated or removed before conversion; empty otherwise.
  std::string import_summary;
};

[[nodiscard]] LoadedModel load_model(const std::string& spec, const ModelOptions& options = {});

}  // namespace layoutopt::apps
