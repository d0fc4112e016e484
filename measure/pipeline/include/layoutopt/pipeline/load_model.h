#pragma once
// Resolves the MODEL every command and the Python module take: a zoo name ("resnet-50"), an
// ONNX file or the project's own JSON graph format. In the pipeline library (not the CLI) so
// that every program starting from a model name resolves it the same way.

#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/onnx/onnx_import.h"

namespace layoutopt::pipeline {

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

/// Throws graph::GraphError for an unknown name or a folder, and what the readers throw.
[[nodiscard]] LoadedModel load_model(const std::string& spec, const ModelOptions& options = {});

}  // namespace layoutopt::pipeline
