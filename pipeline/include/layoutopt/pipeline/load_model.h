#pragma once
// Resolves the MODEL every command and the Python module take: a zoo name ("resnet-50"), an
// ONNX file or the project's own JSON graph format. In the pipeline library (not the CLI) so
// that every program starting from a model name resolves it the same way.

#include <optional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/pipeline/model_options.h"

namespace layoutopt::pipeline {

struct LoadedModel {
  graph::Graph graph;
  std::string source;   ///< "built-in zoo", "ONNX opset 13 (pytorch 1.13.1)", "layoutopt JSON"
  std::string weights;  ///< where the weights came from, flagged when they were generated
  /// ONNX files: symbolic input dimensions and the extents they were bound to.
  std::vector<graph::onnx::BoundDimension> bound_dimensions;
  /// ONNX files: what the importer evaluated or removed before conversion; empty otherwise.
  std::string import_summary;
  /// Given options that had no effect on this model (check_model_options), for the front end
  /// to show: the CLI on stderr, Python as warnings.
  std::vector<std::string> warnings;
  /// What preparing the graph for inference did (load_prepared_model); unset: as loaded.
  std::optional<graph::PipelineReport> preparation;
};

/// Throws graph::GraphError for an unknown name or a folder, for a batch the file fixes
/// otherwise (check_model_options), and what the readers throw.
[[nodiscard]] LoadedModel load_model(const std::string& spec, const ModelOptions& options = {});

/// load_model, then the graph prepared for inference (graph::prepare_for_inference), as every
/// step that plans, compiles or runs a model expects it.
[[nodiscard]] LoadedModel load_prepared_model(const std::string& spec, const ModelOptions& options = {});

}  // namespace layoutopt::pipeline
