#pragma once
// NetworkBuilder: the vocabulary every zoo family is written in. Each call adds one node
// (and its parameters, with seeded weights named after torchvision's state_dict
// convention: "<node>.weight", "<node>.bias", "<node>.running_mean", ...), so a family
// file reads like the reference model's forward().

#include <cstdint>
#include <string>
#include <vector>

#include "layoutopt/graph/graph.h"
#include "layoutopt/graph/weight_init.h"

namespace layoutopt::graph::zoo {

/// What a family builder needs to know about the requested network.
struct NetworkSpec {
  std::string name;  ///< graph name
  int64_t batch = 1;
  uint64_t seed = 0;
  int64_t image_size = 224;
};

/// A convolution's attributes (Inception needs non-square kernels, Keras asymmetric pads).
struct ConvSpec {
  int64_t out_channels = 0;
  Hw kernel{1, 1};
  Hw stride{1, 1};
  Pads2d pads;
  int64_t groups = 1;
  bool bias = false;
};

/// Square kernel `k` with stride `s` and symmetric padding `p` (the common case).
[[nodiscard]] ConvSpec square_conv(int64_t out_channels, int64_t k, int64_t s = 1, int64_t p = 0);
/// `spec` with a bias added.
[[nodiscard]] ConvSpec with_bias(ConvSpec spec);
/// Symmetric padding of `p` on every side.
[[nodiscard]] Pads2d uniform_pads(int64_t p);

class NetworkBuilder {
 public:
  /// Starts a graph with one input "data" of shape [batch, 3, image_size, image_size].
  explicit NetworkBuilder(const NetworkSpec& spec);

  [[nodiscard]] ValueId data() const { return data_; }
  [[nodiscard]] const Shape& shape(ValueId x) const { return graph_.value(x).type.shape; }
  [[nodiscard]] int64_t channels(ValueId x) const { return shape(x).at(1); }

  ValueId conv(ValueId x, const std::string& name, const ConvSpec& spec);
  /// Inference batch norm with parameters scale ("weight"), shift ("bias") and running stats.
  ValueId batch_norm(ValueId x, const std::string& name, float epsilon = 1e-5f);
  ValueId relu(ValueId x, const std::string& name);
  /// relu6, expressed as Clip{0, 6} as ONNX exports it.
  ValueId relu6(ValueId x, const std::string& name);
  ValueId max_pool(ValueId x, const std::string& name, int64_t k, int64_t s, int64_t p = 0, bool ceil_mode = false);
  /// Average pooling; `count_include_pad` is PyTorch's F.avg_pool2d default.
  ValueId avg_pool(ValueId x, const std::string& name, int64_t k, int64_t s, int64_t p = 0,
                   bool count_include_pad = true);
  /// AdaptiveAvgPool2d to `size` x `size`: nothing when the map already has that size, a
  /// plain average pool when the map is a multiple of it; other sizes throw GraphError.
  ValueId adaptive_avg_pool(ValueId x, const std::string& name, int64_t size);
  ValueId global_avg_pool(ValueId x, const std::string& name);
  ValueId flatten(ValueId x, const std::string& name, int64_t axis = 1);
  ValueId dense(ValueId x, const std::string& name, int64_t out_features);
  ValueId dropout(ValueId x, const std::string& name, float ratio);
  ValueId concat(const std::vector<ValueId>& xs, const std::string& name, int64_t axis = 1);
  ValueId add(ValueId a, ValueId b, const std::string& name);
  ValueId transpose(ValueId x, const std::string& name, std::vector<int64_t> perm);
  ValueId reshape(ValueId x, const std::string& name, std::vector<int64_t> shape);

  void output(ValueId x) { graph_.add_output(x); }
  /// The finished graph; the builder is spent afterwards.
  [[nodiscard]] Graph finish() &&;

 private:
  ValueId parameter(const std::string& name, ParameterRole role, const Shape& shape);

  Graph graph_;
  uint64_t seed_;
  ValueId data_;
};

}  // namespace layoutopt::graph::zoo
