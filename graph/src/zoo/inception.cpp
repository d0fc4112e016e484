// Inception v3 as torchvision defines it (torchvision/models/inception.py, Inception3) for
// inference: the AuxLogits branch only runs in training, so it is not part of the graph
// (it holds 3,326,696 of torchvision's 27,161,264 parameters). transform_input is a
// per-channel affine rescale of the input that changes no layer shape; it is left out too.

#include <string>
#include <vector>

#include "families.h"

namespace layoutopt::graph::zoo {

namespace {

/// torchvision's BasicConv2d uses this batch norm epsilon, unlike the 1e-5 default.
constexpr float kEpsilon = 1e-3f;

/// BasicConv2d: bias-free conv, batch norm, relu; `kernel` and `pads` are (height, width).
ValueId basic_conv(NetworkBuilder& net, ValueId x, const std::string& name, int64_t out_channels, Hw kernel,
                   Hw pads = {0, 0}, int64_t stride = 1) {
  const ConvSpec spec{.out_channels = out_channels,
                      .kernel = kernel,
                      .stride = {stride, stride},
                      .pads = {.top = pads.h, .left = pads.w, .bottom = pads.h, .right = pads.w}};
  x = net.conv(x, name + ".conv", spec);
  return net.relu(net.batch_norm(x, name + ".bn", kEpsilon), name + ".relu");
}

constexpr Hw k1{1, 1}, k3{3, 3}, k5{5, 5}, k1x7{1, 7}, k7x1{7, 1}, k1x3{1, 3}, k3x1{3, 1};
constexpr Hw same1x7{0, 3}, same7x1{3, 0}, same1x3{0, 1}, same3x1{1, 0};

/// The average-pool branch shared by modules A, C and E: 3x3 pool, then a 1x1 conv.
ValueId pool_branch(NetworkBuilder& net, ValueId x, const std::string& p, int64_t out_channels) {
  return basic_conv(net, net.avg_pool(x, p + "avg_pool", 3, 1, 1), p + "branch_pool", out_channels, k1);
}

ValueId inception_a(NetworkBuilder& net, ValueId x, const std::string& p, int64_t pool_features) {
  const ValueId b1 = basic_conv(net, x, p + "branch1x1", 64, k1);
  ValueId b5 = basic_conv(net, x, p + "branch5x5_1", 48, k1);
  b5 = basic_conv(net, b5, p + "branch5x5_2", 64, k5, {2, 2});
  ValueId b3 = basic_conv(net, x, p + "branch3x3dbl_1", 64, k1);
  b3 = basic_conv(net, b3, p + "branch3x3dbl_2", 96, k3, {1, 1});
  b3 = basic_conv(net, b3, p + "branch3x3dbl_3", 96, k3, {1, 1});
  return net.concat({b1, b5, b3, pool_branch(net, x, p, pool_features)}, p + "concat");
}

ValueId inception_b(NetworkBuilder& net, ValueId x, const std::string& p) {
  const ValueId b3 = basic_conv(net, x, p + "branch3x3", 384, k3, {0, 0}, 2);
  ValueId dbl = basic_conv(net, x, p + "branch3x3dbl_1", 64, k1);
  dbl = basic_conv(net, dbl, p + "branch3x3dbl_2", 96, k3, {1, 1});
  dbl = basic_conv(net, dbl, p + "branch3x3dbl_3", 96, k3, {0, 0}, 2);
  return net.concat({b3, dbl, net.max_pool(x, p + "max_pool", 3, 2)}, p + "concat");
}

ValueId inception_c(NetworkBuilder& net, ValueId x, const std::string& p, int64_t c7) {
  const ValueId b1 = basic_conv(net, x, p + "branch1x1", 192, k1);
  ValueId b7 = basic_conv(net, x, p + "branch7x7_1", c7, k1);
  b7 = basic_conv(net, b7, p + "branch7x7_2", c7, k1x7, same1x7);
  b7 = basic_conv(net, b7, p + "branch7x7_3", 192, k7x1, same7x1);
  ValueId dbl = basic_conv(net, x, p + "branch7x7dbl_1", c7, k1);
  dbl = basic_conv(net, dbl, p + "branch7x7dbl_2", c7, k7x1, same7x1);
  dbl = basic_conv(net, dbl, p + "branch7x7dbl_3", c7, k1x7, same1x7);
  dbl = basic_conv(net, dbl, p + "branch7x7dbl_4", c7, k7x1, same7x1);
  dbl = basic_conv(net, dbl, p + "branch7x7dbl_5", 192, k1x7, same1x7);
  return net.concat({b1, b7, dbl, pool_branch(net, x, p, 192)}, p + "concat");
}

ValueId inception_d(NetworkBuilder& net, ValueId x, const std::string& p) {
  ValueId b3 = basic_conv(net, x, p + "branch3x3_1", 192, k1);
  b3 = basic_conv(net, b3, p + "branch3x3_2", 320, k3, {0, 0}, 2);
  ValueId b7 = basic_conv(net, x, p + "branch7x7x3_1", 192, k1);
  b7 = basic_conv(net, b7, p + "branch7x7x3_2", 192, k1x7, same1x7);
  b7 = basic_conv(net, b7, p + "branch7x7x3_3", 192, k7x1, same7x1);
  b7 = basic_conv(net, b7, p + "branch7x7x3_4", 192, k3, {0, 0}, 2);
  return net.concat({b3, b7, net.max_pool(x, p + "max_pool", 3, 2)}, p + "concat");
}

/// Module E splits its 3x3 branches into parallel 1x3 and 3x1 convs joined by a concat.
ValueId split_1x3_3x1(NetworkBuilder& net, ValueId x, const std::string& name_a, const std::string& name_b,
                      const std::string& concat_name) {
  const ValueId a = basic_conv(net, x, name_a, 384, k1x3, same1x3);
  const ValueId b = basic_conv(net, x, name_b, 384, k3x1, same3x1);
  return net.concat({a, b}, concat_name);
}

ValueId inception_e(NetworkBuilder& net, ValueId x, const std::string& p) {
  const ValueId b1 = basic_conv(net, x, p + "branch1x1", 320, k1);
  ValueId b3 = basic_conv(net, x, p + "branch3x3_1", 384, k1);
  b3 = split_1x3_3x1(net, b3, p + "branch3x3_2a", p + "branch3x3_2b", p + "branch3x3_concat");
  ValueId dbl = basic_conv(net, x, p + "branch3x3dbl_1", 448, k1);
  dbl = basic_conv(net, dbl, p + "branch3x3dbl_2", 384, k3, {1, 1});
  dbl = split_1x3_3x1(net, dbl, p + "branch3x3dbl_3a", p + "branch3x3dbl_3b", p + "branch3x3dbl_concat");
  return net.concat({b1, b3, dbl, pool_branch(net, x, p, 192)}, p + "concat");
}

ValueId stem(NetworkBuilder& net, ValueId x) {
  x = basic_conv(net, x, "Conv2d_1a_3x3", 32, k3, {0, 0}, 2);
  x = basic_conv(net, x, "Conv2d_2a_3x3", 32, k3);
  x = basic_conv(net, x, "Conv2d_2b_3x3", 64, k3, {1, 1});
  x = net.max_pool(x, "maxpool1", 3, 2);
  x = basic_conv(net, x, "Conv2d_3b_1x1", 80, k1);
  x = basic_conv(net, x, "Conv2d_4a_3x3", 192, k3);
  return net.max_pool(x, "maxpool2", 3, 2);
}

}  // namespace

Graph build_inception_v3(const NetworkSpec& spec) {
  NetworkBuilder net(spec);
  ValueId x = stem(net, net.data());
  x = inception_a(net, x, "Mixed_5b.", 32);
  x = inception_a(net, x, "Mixed_5c.", 64);
  x = inception_a(net, x, "Mixed_5d.", 64);
  x = inception_b(net, x, "Mixed_6a.");
  x = inception_c(net, x, "Mixed_6b.", 128);
  x = inception_c(net, x, "Mixed_6c.", 160);
  x = inception_c(net, x, "Mixed_6d.", 160);
  x = inception_c(net, x, "Mixed_6e.", 192);
  x = inception_d(net, x, "Mixed_7a.");
  x = inception_e(net, x, "Mixed_7b.");
  x = inception_e(net, x, "Mixed_7c.");
  x = net.dropout(net.global_avg_pool(x, "avgpool"), "dropout", 0.5f);
  net.output(net.dense(net.flatten(x, "flatten"), "fc", 1000));
  return std::move(net).finish();
}

}  // namespace layoutopt::graph::zoo
