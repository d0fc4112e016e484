#include "layoutopt/graph/zoo/zoo.h"

#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "layoutopt/graph/error.h"
#include "layoutopt/graph/json_io.h"
#include "layoutopt/graph/passes/pipeline.h"
#include "layoutopt/graph/workloads.h"
#include "layoutopt/graph/validate.h"

using namespace layoutopt::graph;

namespace {

/// Published figures: torchvision's parameter counts and its docs' "GFLOPS" column (which
/// counts multiply-accumulates), the paper's mult-adds for MobileNet v1, Keras's trainable
/// parameters for MobileNet v1.
void check_published(const std::string& name, int64_t parameters, double gmacs) {
  CAPTURE(name);
  const Graph g = zoo::build(name);
  CHECK(parameter_count(g) == parameters);
  CHECK(static_cast<double>(mac_count(g)) / 1e9 == doctest::Approx(gmacs).epsilon(0.015));
}

int count_op(const Graph& g, const std::string& op) {
  int count = 0;
  for (const Node& node : g.nodes()) count += op_name(node.op) == op;
  return count;
}

const Shape& output_shape(const Graph& g, size_t index) { return g.value(g.outputs().at(index)).type.shape; }

const Shape& parameter_shape(const Graph& g, const std::string& name) {
  const auto id = g.find_value(name);
  REQUIRE_MESSAGE(id.has_value(), "no parameter " << name);
  return g.value(*id).type.shape;
}

}  // namespace

TEST_CASE("resnets match torchvision's parameter and MAC counts") {
  check_published("resnet-18", 11'689'512, 1.81);
  check_published("resnet-34", 21'797'672, 3.66);
  check_published("resnet-50", 25'557'032, 4.09);
  check_published("resnet-101", 44'549'160, 7.80);
  check_published("resnet-152", 60'192'808, 11.51);
}

TEST_CASE("vggs match torchvision's parameter and MAC counts") {
  check_published("vgg-11", 132'863'336, 7.61);
  check_published("vgg-13", 133'047'848, 11.31);
  check_published("vgg-16", 138'357'544, 15.47);
  check_published("vgg-19", 143'667'240, 19.63);
  check_published("vgg-11-bn", 132'868'840, 7.61);
  check_published("vgg-13-bn", 133'053'736, 11.31);
  check_published("vgg-16-bn", 138'365'992, 15.47);
  check_published("vgg-19-bn", 143'678'248, 19.63);
}

TEST_CASE("mobilenets match Keras (v1) and torchvision (v2)") {
  check_published("mobilenet-v1", 4'231'976, 0.569);
  check_published("mobilenet-v2", 3'504'872, 0.30);
}

TEST_CASE("inception-v3 matches torchvision without the auxiliary classifier") {
  // torchvision's 27,161,264 parameters include AuxLogits' 3,326,696.
  check_published("inception-v3", 27'161'264 - 3'326'696, 5.71);
  CHECK(output_shape(zoo::build("inception-v3"), 0) == Shape{1, 1000});
}

TEST_CASE("densenets match torchvision's parameter and MAC counts") {
  check_published("densenet-121", 7'978'856, 2.83);
  check_published("densenet-169", 14'149'480, 3.36);
  check_published("densenet-201", 20'013'928, 4.29);
}

TEST_CASE("squeezenets match torchvision's parameter and MAC counts") {
  check_published("squeezenet-1.0", 1'248'424, 0.82);
  check_published("squeezenet-1.1", 1'235'496, 0.35);
}

TEST_CASE("ssd-resnet50-512 has the GluonCV layer shapes and prediction outputs") {
  const Graph g = zoo::build("ssd-resnet50-512");
  auto conv = [](int64_t in, int64_t out, int64_t k, bool bias) { return in * out * k * k + (bias ? out : 0); };
  auto bn = [](int64_t c) { return 2 * c; };                // scale and shift; running statistics are not parameters
  const int64_t trunk = 25'557'032 - (2048 * 1000 + 1000);  // resnet-50 without its fc
  const int64_t extras = conv(2048, 512, 1, false) + bn(512) + conv(512, 512, 3, false) + bn(512) +  //
                         conv(512, 512, 1, false) + bn(512) + conv(512, 512, 3, false) + bn(512) +   //
                         conv(512, 256, 1, false) + bn(256) + conv(256, 256, 3, false) + bn(256) +   //
                         conv(256, 256, 1, false) + bn(256) + conv(256, 256, 3, false) + bn(256);
  const int64_t map_channels[] = {1024, 2048, 512, 512, 256, 256};
  const int64_t anchors[] = {4, 6, 6, 6, 4, 4};
  const int64_t map_sides[] = {32, 16, 8, 4, 2, 1};
  int64_t heads = 0, total_anchors = 0;
  for (int i = 0; i < 6; ++i) {
    heads += conv(map_channels[i], anchors[i] * 21, 3, true) + conv(map_channels[i], anchors[i] * 4, 3, true);
    total_anchors += map_sides[i] * map_sides[i] * anchors[i];
  }
  CHECK(total_anchors == 6132);
  CHECK(parameter_count(g) == trunk + extras + heads);
  REQUIRE(g.outputs().size() == 2);
  CHECK(output_shape(g, 0) == Shape{1, total_anchors, 21});
  CHECK(output_shape(g, 1) == Shape{1, total_anchors, 4});
  CHECK(g.value(*g.find_value("expand_conv3")).type.shape == Shape{1, 256, 1, 1});
}

TEST_CASE("parameters and nodes carry torchvision's names and shapes") {
  const Graph resnet = zoo::build("resnet-50");
  CHECK(parameter_shape(resnet, "layer1.0.downsample.0.weight") == Shape{256, 64, 1, 1});
  CHECK(parameter_shape(resnet, "layer2.0.conv2.weight") == Shape{128, 128, 3, 3});
  CHECK(parameter_shape(resnet, "layer4.2.bn3.running_var") == Shape{2048});
  CHECK(parameter_shape(resnet, "fc.weight") == Shape{1000, 2048});
  // torchvision's ResNet v1.5 strides the bottleneck's 3x3, not its first 1x1.
  CHECK(std::get<Conv2d>(resnet.node(*resnet.find_node("layer2.0.conv2")).op).stride == Hw{2, 2});
  CHECK(std::get<Conv2d>(resnet.node(*resnet.find_node("layer2.0.conv1")).op).stride == Hw{1, 1});

  const Graph vgg = zoo::build("vgg-11-bn");
  CHECK(parameter_shape(vgg, "features.4.weight") == Shape{128, 64, 3, 3});  // indices shift with batch norm
  CHECK(parameter_shape(vgg, "classifier.0.weight") == Shape{4096, 25088});

  const Graph mobilenet = zoo::build("mobilenet-v2");
  CHECK(parameter_shape(mobilenet, "features.1.conv.0.0.weight") == Shape{32, 1, 3, 3});  // depthwise, t = 1
  CHECK(parameter_shape(mobilenet, "features.2.conv.0.0.weight") == Shape{96, 16, 1, 1});
  CHECK(parameter_shape(mobilenet, "features.18.0.weight") == Shape{1280, 320, 1, 1});

  const Graph inception = zoo::build("inception-v3");
  CHECK(parameter_shape(inception, "Mixed_6b.branch7x7_2.conv.weight") == Shape{128, 128, 1, 7});
  CHECK(!inception.find_value("AuxLogits.fc.weight"));

  const Graph densenet = zoo::build("densenet-121");
  CHECK(parameter_shape(densenet, "features.denseblock4.denselayer16.conv1.weight") == Shape{128, 992, 1, 1});
  CHECK(parameter_shape(densenet, "classifier.weight") == Shape{1000, 1024});
}

TEST_CASE("mobilenet-v1 keeps Keras's asymmetric 'same' padding for stride 2") {
  const Graph g = zoo::build("mobilenet-v1");
  const auto& conv1 = std::get<Conv2d>(g.node(*g.find_node("conv1")).op);
  CHECK(conv1.pads == Pads2d{.top = 0, .left = 0, .bottom = 1, .right = 1});
  const auto& dw = std::get<Conv2d>(g.node(*g.find_node("conv_dw_1")).op);
  CHECK(dw.pads == Pads2d{.top = 1, .left = 1, .bottom = 1, .right = 1});
  CHECK(dw.groups == 32);
  CHECK(count_op(g, "clip") == 27);  // relu6 after conv1 and both convs of 13 blocks
}

TEST_CASE("squeezenet's ceil-mode pools give torchvision's 13x13 final map") {
  for (const std::string name : {"squeezenet-1.0", "squeezenet-1.1"}) {
    CAPTURE(name);
    const Graph g = zoo::build(name);
    CHECK(g.value(*g.find_value("classifier.2")).type.shape == Shape{1, 1000, 13, 13});
  }
}

TEST_CASE("every zoo network validates and scales with the batch") {
  for (const zoo::ZooEntry& entry : zoo::entries()) {
    CAPTURE(entry.name);
    const Graph one = zoo::build(entry.name);
    const Graph three = zoo::build(entry.name, {.batch = 3});
    CHECK_NOTHROW(validate(one));
    CHECK_NOTHROW(validate(three));
    CHECK(one.value(one.inputs().at(0)).type.shape == Shape{1, 3, entry.image_size, entry.image_size});
    CHECK(mac_count(three) == 3 * mac_count(one));
    CHECK(parameter_count(three) == parameter_count(one));
    for (size_t i = 0; i < one.outputs().size(); ++i) {
      Shape expected = output_shape(one, i);
      expected[0] = 3;
      CHECK(output_shape(three, i) == expected);
    }
  }
}

TEST_CASE("the registry lists each network once and reports unknown names") {
  std::set<std::string> names;
  for (const zoo::ZooEntry& entry : zoo::entries()) {
    CHECK(names.insert(entry.name).second);
    CHECK(zoo::contains(entry.name));
    CHECK_FALSE(entry.description.empty());
  }
  CHECK(names.size() == 22);
  CHECK_FALSE(zoo::contains("resnet-17"));
  try {
    (void)zoo::build("resnet-17");
    FAIL("expected GraphError");
  } catch (const GraphError& error) {
    const std::string message = error.what();
    CHECK(message.find("'resnet-17'") != std::string::npos);
    for (const std::string& name : names) CHECK_MESSAGE(message.find(name) != std::string::npos, name);
  }
  CHECK_THROWS_AS((void)zoo::build("resnet-18", {.batch = 0}), GraphError);
}

TEST_CASE("an image size override changes the resolution and the work") {
  const Graph large = zoo::build("resnet-50", {.image_size = 448});
  CHECK(large.value(large.inputs().at(0)).type.shape == Shape{1, 3, 448, 448});
  CHECK(output_shape(large, 0) == Shape{1, 1000});
  CHECK(mac_count(large) > 3.9 * static_cast<double>(mac_count(zoo::build("resnet-50"))));

  // VGG's AdaptiveAvgPool(7x7) becomes a real pool on a 14x14 map...
  const Graph vgg = zoo::build("vgg-11", {.image_size = 448});
  CHECK(count_op(vgg, "avg_pool2d") == 1);
  CHECK(parameter_count(vgg) == 132'863'336);
  CHECK(count_op(zoo::build("vgg-11"), "avg_pool2d") == 0);
  // ...and is rejected where it would need uneven windows.
  CHECK_THROWS_WITH_AS((void)zoo::build("vgg-11", {.image_size = 300}), doctest::Contains("adaptive"), GraphError);
}

TEST_CASE("weights are deterministic per seed") {
  const nlohmann::json a = to_json(zoo::build("squeezenet-1.1", {.seed = 5}));
  CHECK(a == to_json(zoo::build("squeezenet-1.1", {.seed = 5})));
  CHECK(a != to_json(zoo::build("squeezenet-1.1", {.seed = 6})));
}

TEST_CASE("zoo graphs survive a JSON round trip unchanged") {
  for (const std::string name : {"resnet-18", "inception-v3", "mobilenet-v1", "squeezenet-1.0", "ssd-resnet50-512"}) {
    CAPTURE(name);
    const nlohmann::json document = to_json(zoo::build(name));
    CHECK(to_json(graph_from_json(document)) == document);
  }
}

/// What the transitions' 1x1 convs stop computing once their 2x2 average pools run first:
/// three quarters of their multiply-adds.
int64_t transition_macs_saved(const Graph& g) {
  int64_t saved = 0;
  for (const Node& node : g.nodes())
    if (std::holds_alternative<Conv2d>(node.op) && node.name.find("transition") != std::string::npos)
      saved += mac_count(g, node) * 3 / 4;
  return saved;
}

TEST_CASE("prepare_for_inference folds every batch norm that follows a conv") {
  // DenseNet's pre-activation norms read concats, so no conv before them absorbs them: norm1
  // of every dense layer moves into the layer's 1x1 conv as its prologue, and the three
  // transitions' norms (whose pools move before their convs) and norm5 stay. Every other
  // network keeps its multiply-adds.
  const std::map<std::string, int> kept_norms{{"densenet-121", 3 + 1}, {"densenet-169", 3 + 1}, {"densenet-201", 3 + 1}};
  const std::map<std::string, int> dense_layers{{"densenet-121", 6 + 12 + 24 + 16},
                                                {"densenet-169", 6 + 12 + 32 + 32},
                                                {"densenet-201", 6 + 12 + 48 + 32}};
  for (const zoo::ZooEntry& entry : zoo::entries()) {
    CAPTURE(entry.name);
    Graph g = zoo::build(entry.name);
    const int64_t macs = mac_count(g) - transition_macs_saved(g);
    const PipelineReport report = prepare_for_inference(g);
    const auto kept = kept_norms.find(entry.name);
    CHECK(count_op(g, "batch_norm") == (kept == kept_norms.end() ? 0 : kept->second));
    CHECK(count_op(g, "dropout") == 0);
    CHECK(report.epilogue_nodes_fused > 0);
    CHECK(report.pools_moved_before_convs == (kept == kept_norms.end() ? 0 : 3));
    CHECK(report.input_prologues_fused == (kept == kept_norms.end() ? 0 : dense_layers.at(entry.name)));
    CHECK(mac_count(g) == macs);
  }
}
