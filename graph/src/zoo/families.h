#pragma once
// Entry points of the family files, one per reference model definition; the registry in
// zoo.cpp maps public names onto them. Each builds the whole network, classifier included.

#include "layoutopt/graph/graph.h"
#include "network_builder.h"

namespace layoutopt::graph::zoo {

/// torchvision ResNet; depth 18, 34, 50, 101 or 152.
[[nodiscard]] Graph build_resnet(int depth, const NetworkSpec& spec);
/// torchvision VGG; depth 11, 13, 16 or 19, with or without batch norm.
[[nodiscard]] Graph build_vgg(int depth, bool batch_norm, const NetworkSpec& spec);
/// Keras MobileNet (v1), width 1.0.
[[nodiscard]] Graph build_mobilenet_v1(const NetworkSpec& spec);
/// torchvision MobileNetV2, width 1.0.
[[nodiscard]] Graph build_mobilenet_v2(const NetworkSpec& spec);
/// torchvision Inception3 without the training-only auxiliary classifier.
[[nodiscard]] Graph build_inception_v3(const NetworkSpec& spec);
/// torchvision DenseNet; depth 121, 169 or 201.
[[nodiscard]] Graph build_densenet(int depth, const NetworkSpec& spec);
/// torchvision SqueezeNet; version "1.0" or "1.1".
[[nodiscard]] Graph build_squeezenet(const std::string& version, const NetworkSpec& spec);
/// GluonCV ssd_512_resnet50_v1_voc's network up to the raw class and box predictions.
[[nodiscard]] Graph build_ssd_resnet50(const NetworkSpec& spec);

}  // namespace layoutopt::graph::zoo
