#pragma once
// The built-in model zoo: reference CNNs constructed in code with deterministic seeded
// random weights. Layer shapes follow the reference definitions exactly (torchvision for
// the classifiers, Keras for MobileNet v1, GluonCV for SSD), so parameter and
// multiply-accumulate counts match the published figures; the weights are random, so
// outputs are meaningful only for comparing executors and layouts, not for predictions.
//
//   Graph g = zoo::build("resnet-50", {.batch = 4, .seed = 7});
//
// Graphs are in training-free inference form but not yet optimized: batch norms, dropout
// and standalone activations are explicit nodes, for `prepare_for_inference` to fold.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"

namespace layoutopt::graph::zoo {

struct ZooOptions {
  int64_t batch = 1;
  /// Model-wide seed; each parameter's values derive from it and the parameter's name.
  uint64_t seed = 0;
  /// Square input resolution; the network's own (ZooEntry::image_size) when empty.
  std::optional<int64_t> image_size;
};

struct ZooEntry {
  std::string name;         ///< e.g. "resnet-50": what `build` accepts
  std::string family;       ///< e.g. "resnet"
  std::string description;  ///< one line: the reference definition and anything left out
  int64_t image_size = 0;   ///< default square input resolution
};

/// Every built-in network, grouped by family and ordered by size within a family.
[[nodiscard]] const std::vector<ZooEntry>& entries();

/// True when `name` is a built-in network.
[[nodiscard]] bool contains(const std::string& name);

/// Builds the named network with input "data" of shape [batch, 3, size, size]. Throws
/// GraphError listing the known names for an unknown name, and for a non-positive batch
/// or an image size the network cannot take.
[[nodiscard]] Graph build(const std::string& name, const ZooOptions& options = {});

}  // namespace layoutopt::graph::zoo
