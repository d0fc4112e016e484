#pragma once
// ONNX import: reads a .onnx file (opset 7 and newer) into the layoutopt graph IR.
//
//   auto result = layoutopt::graph::onnx::import_onnx("resnet-50.onnx", {.batch = 8});
//   if (result.generated_parameters > 0) { /* structure-only file: weights are seeded */ }
//
// The file is taken as exporters write it: before anything is converted, readers of
// Identity nodes read through them, older opsets' attribute forms become inputs, and nodes
// no output depends on are dropped; while converting, every node whose inputs are known
// (constants, or only the shape of an activation) is evaluated at import, so shape
// subgraphs and arithmetic on initializers become plain constants (constant_folding.h).
//
// Converted operators: Conv, ConvTranspose, BatchNormalization, Relu, Clip, Sigmoid, Tanh,
// HardSigmoid, HardSwish, LeakyRelu, PRelu, Add, Sub, Mul, Div, Sum, Max, Min, Concat,
// MaxPool, AveragePool, GlobalAveragePool, ReduceMean (over H and W: global pooling),
// LRN, Resize / Upsample (nearest, bilinear), Slice, Split, Squeeze, Unsqueeze, Transpose,
// Flatten, Reshape, Gemm, MatMul (a following Add of a bias becomes the dense bias),
// Softmax, Dropout, Identity, Cast (to float), Pad (constant, spatial). Shape, Gather,
// Constant, ConstantOfShape, Range, Expand, Where, comparisons and integer arithmetic are
// evaluated at import only.
//
// Files exported without weights (torch.onnx.export(..., export_params=False)) list their
// weights as graph inputs without initializers. Inputs read as weights by some operator
// become parameters with seeded values (see weight_init.h); the other inputs are the
// graph's inputs.
//
// Every problem is reported as a GraphError prefixed with the file name: files that are not
// ONNX, other opsets, all unsupported operators at once, unsupported attribute values,
// missing constants and shapes that do not fit (naming the node).

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph::onnx {

struct ImportOptions {
  /// Used for a symbolic (dynamic) leading dimension of a graph input; dimensions fixed in
  /// the file are kept as they are.
  int64_t batch = 1;
  /// Model-wide seed for generated weights (combined with each parameter's name).
  uint64_t seed = 0;
  /// Largest constant, in elements, that import-time evaluation may build beyond the size
  /// of its inputs (ConstantOfShape, Expand, Range, Concat, broadcasting). A file asking
  /// for more fails naming the node rather than exhausting memory; 2^26 elements are
  /// 512 MB as doubles, more than any activation-shaped constant of a CNN at batch 8.
  int64_t max_folded_elements = int64_t{1} << 26;
};

/// A symbolic dimension of a graph input (torch's dynamic_axes) and the extent it was
/// planned for.
struct BoundDimension {
  std::string input;
  size_t axis = 0;
  std::string symbol;  ///< the file's name for it ("batch", "s0"); empty when unnamed
  int64_t extent = 1;
};

struct ImportResult {
  Graph graph;
  /// Version of the default (ai.onnx) operator set the file imports.
  int64_t opset = 0;
  /// Producer name and version from the file, e.g. "pytorch 1.13.0".
  std::string producer;
  /// Parameters that had no values in the file and were seeded, and their element count.
  int generated_parameters = 0;
  int64_t generated_values = 0;
  /// Symbolic input dimensions and what they were bound to (ImportOptions::batch).
  std::vector<BoundDimension> bound_dimensions;
  /// Identity nodes whose readers now read their input (exporters put one between a
  /// deduplicated initializer and each user), other nodes removed before conversion because
  /// no graph output depends on them, and nodes evaluated at import (shape arithmetic,
  /// constants, arithmetic on initializers).
  int identities_bypassed = 0;
  int dead_nodes_removed = 0;
  int nodes_folded = 0;
};

/// Imports the file at `path`; errors name the path.
[[nodiscard]] ImportResult import_onnx(const std::filesystem::path& path, const ImportOptions& options = {});

/// Imports a serialized ModelProto; `name` identifies it in errors and names the graph.
[[nodiscard]] ImportResult import_onnx_bytes(std::string_view bytes, const std::string& name,
                                             const ImportOptions& options = {});

}  // namespace layoutopt::graph::onnx
