// The zoo's registry: public names, descriptions and default resolutions, each mapped to
// its family builder.

#include "layoutopt/graph/zoo/zoo.h"

#include <functional>

#include "families.h"
#include "layoutopt/graph/error.h"

namespace layoutopt::graph::zoo {

namespace {

struct Registration {
  ZooEntry entry;
  std::function<Graph(const NetworkSpec&)> build;
};

Registration resnet(int depth) {
  const std::string d = std::to_string(depth);
  return {{"resnet-" + d, "resnet", "ResNet-" + d + " (torchvision resnet" + d + ")", 224},
          [depth](const NetworkSpec& spec) { return build_resnet(depth, spec); }};
}

Registration vgg(int depth, bool batch_norm) {
  const std::string d = std::to_string(depth);
  const std::string torchvision_name = "vgg" + d + (batch_norm ? "_bn" : "");
  const std::string title = "VGG-" + d + (batch_norm ? " with batch norm" : "");
  return {{"vgg-" + d + (batch_norm ? "-bn" : ""), "vgg", title + " (torchvision " + torchvision_name + ")", 224},
          [depth, batch_norm](const NetworkSpec& spec) { return build_vgg(depth, batch_norm, spec); }};
}

Registration densenet(int depth) {
  const std::string d = std::to_string(depth);
  return {{"densenet-" + d, "densenet", "DenseNet-" + d + " (torchvision densenet" + d + ")", 224},
          [depth](const NetworkSpec& spec) { return build_densenet(depth, spec); }};
}

Registration squeezenet(const std::string& version) {
  std::string underscored = version;  // torchvision spells "1.0" as squeezenet1_0
  underscored[1] = '_';
  return {{"squeezenet-" + version, "squeezenet",
           "SqueezeNet " + version + " (torchvision squeezenet" + underscored + ")", 224},
          [version](const NetworkSpec& spec) { return build_squeezenet(version, spec); }};
}

std::vector<Registration> make_registry() {
  std::vector<Registration> registry;
  for (int depth : {18, 34, 50, 101, 152}) registry.push_back(resnet(depth));
  for (bool batch_norm : {false, true})
    for (int depth : {11, 13, 16, 19}) registry.push_back(vgg(depth, batch_norm));
  registry.push_back({{"mobilenet-v1", "mobilenet",
                       "MobileNet v1 1.0 (Keras layout: relu6, TF 'same' padding, 1x1-conv classifier)", 224},
                      build_mobilenet_v1});
  registry.push_back(
      {{"mobilenet-v2", "mobilenet", "MobileNetV2 1.0 (torchvision mobilenet_v2)", 224}, build_mobilenet_v2});
  registry.push_back({{"inception-v3", "inception",
                       "Inception v3 (torchvision inception_v3, inference graph without the aux classifier)", 299},
                      build_inception_v3});
  for (int depth : {121, 169, 201}) registry.push_back(densenet(depth));
  for (const char* version : {"1.0", "1.1"}) registry.push_back(squeezenet(version));
  registry.push_back({{"ssd-resnet50-512", "ssd",
                       "SSD-512 on ResNet-50 for VOC (GluonCV ssd_512_resnet50_v1_voc); outputs raw class scores "
                       "and box offsets, anchors/decoding/NMS are outside the graph",
                       512},
                      build_ssd_resnet50});
  return registry;
}

const std::vector<Registration>& registry() {
  static const std::vector<Registration> table = make_registry();
  return table;
}

const Registration* find(const std::string& name) {
  for (const Registration& r : registry())
    if (r.entry.name == name) return &r;
  return nullptr;
}

std::string known_names() {
  std::string names;
  for (const Registration& r : registry()) names += (names.empty() ? "" : ", ") + r.entry.name;
  return names;
}

}  // namespace

const std::vector<ZooEntry>& entries() {
  static const std::vector<ZooEntry> list = [] {
    std::vector<ZooEntry> result;
    for (const Registration& r : registry()) result.push_back(r.entry);
    return result;
  }();
  return list;
}

bool contains(const std::string& name) { return find(name) != nullptr; }

Graph build(const std::string& name, const ZooOptions& options) {
  const Registration* r = find(name);
  if (!r) throw GraphError("unknown zoo network '" + name + "'; known networks: " + known_names());
  return r->build({.name = name,
                   .batch = options.batch,
                   .seed = options.seed,
                   .image_size = options.image_size.value_or(r->entry.image_size)});
}

}  // namespace layoutopt::graph::zoo
