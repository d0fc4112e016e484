#pragma once
// The ResNet trunk (stem and four residual stages, no classifier), shared by the ResNet
// classifiers and by SSD's backbone.

#include <vector>

#include "network_builder.h"

namespace layoutopt::graph::zoo {

/// Adds torchvision's ResNet-`depth` stem and layer1..layer4 on `x`, with torchvision's
/// node and parameter names ("conv1", "layer1.0.conv1", ...). Returns the output of each
/// stage: strides 4, 8, 16 and 32.
std::vector<ValueId> resnet_trunk(NetworkBuilder& net, int depth, ValueId x);

}  // namespace layoutopt::graph::zoo
