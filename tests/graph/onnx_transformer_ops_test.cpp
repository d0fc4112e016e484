// The operators of ConvNeXt-style blocks (LayerNormalization and its decomposition, GELU in
// both of torch's spellings, MatMul on a channels-last view) and MaxViT's Einsum products
// import as single IR nodes, and
// the permutes around them as no node: checked on torch's exports in data/onnx/ops (their
// outputs against torch are checked in tests/kernels/onnx_files_test.cpp) and on small
// models built here for the refusals.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "layoutopt/graph/onnx/onnx_import.h"
#include "onnx_test_models.h"

using namespace layoutopt::graph;
using namespace onnx_test;

namespace {

const std::filesystem::path kOps = std::filesystem::path(LAYOUTOPT_SOURCE_DIR) / "data" / "onnx" / "ops";

Graph imported(const std::string& file) { return import::import_onnx(kOps / file).graph; }

const Node& only_node(const Graph& g, OpKind kind) {
  const Node* found = nullptr;
  for (const Node& node : g.nodes())
    if (op_kind(node.op) == kind) {
      REQUIRE_MESSAGE(found == nullptr, "more than one " << to_string(kind) << " node");
      found = &node;
    }
  REQUIRE_MESSAGE(found != nullptr, "no " << to_string(kind) << " node");
  return *found;
}

}  // namespace

TEST_CASE("torch's GELU spellings import as one gelu node of their form") {
  for (const auto& file_and_form : {std::pair{"gelu-opset14.onnx", GeluForm::exact}, std::pair{"gelu_tanh-opset14.onnx", GeluForm::tanh}}) {
    const std::string file = file_and_form.first;
    CAPTURE(file);
    const Graph g = imported(file);
    CHECK(std::get<Gelu>(only_node(g, OpKind::gelu).op).form == file_and_form.second);
    CHECK(g.nodes().size() == 3);  // conv, gelu, conv: none of the arithmetic is left
  }
}

TEST_CASE("a LayerNorm between permutes imports as a LayerNorm over the channels, at opsets 14 and 17") {
  for (const char* file : {"layer_norm-opset14.onnx", "layer_norm-opset17.onnx"}) {
    CAPTURE(file);
    const Graph g = imported(file);
    const Node& norm = only_node(g, OpKind::layer_norm);
    CHECK(std::get<LayerNorm>(norm.op).axis == 1);
    CHECK(std::get<LayerNorm>(norm.op).epsilon == doctest::Approx(1e-6).epsilon(1e-3));
    CHECK(g.value(norm.inputs[0]).type.shape == Shape{1, 8, 8, 8});
    CHECK(count_nodes(g, "transpose") == 0);
    CHECK(g.nodes().size() == 3);  // conv, layer_norm, conv
  }
}

TEST_CASE("a ConvNeXt block imports in NCHW: its Linear layers are 1x1 convs and no permute is a node") {
  for (const char* file : {"convnext_block-opset14.onnx", "convnext_block-opset17.onnx"}) {
    CAPTURE(file);
    const Graph g = imported(file);
    CHECK(count_nodes(g, "transpose") == 0);
    CHECK(count_nodes(g, "layer_norm") == 1);
    CHECK(count_nodes(g, "gelu") == 1);
    int pointwise = 0;
    for (const Node& node : g.nodes())
      if (const auto* conv = std::get_if<Conv2d>(&node.op); conv && conv->kernel == Hw{1, 1}) {
        ++pointwise;
        CHECK(conv->epilogue.bias);  // the Linear's bias Add, fused
      }
    CHECK(pointwise == 2);
    CHECK(g.value(only_node(g, OpKind::gelu).output).type.shape == Shape{1, 32, 8, 8});  // 4 * dim channels
  }
}

TEST_CASE("a reader that needs the permuted data gets a Transpose node named after the permute") {
  ModelBuilder model(17);
  model.input("x", {1, 4, 3, 5}).output("y");
  set_ints(model.node("Transpose", "to_nhwc", {"x"}, "t"), "perm", {0, 2, 3, 1});
  model.node("Relu", "relu", {"t"}, "y");
  const Graph g = model.import().graph;
  CHECK(std::get<Transpose>(node_named(g, "to_nhwc").op).perm == std::vector<int64_t>{0, 2, 3, 1});
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 3, 5, 4});
}

TEST_CASE("permutes that cancel leave the value as it was, also as a graph output") {
  ModelBuilder model(17);
  model.input("x", {1, 4, 3, 5}).output("y");
  set_ints(model.node("Transpose", "to_nhwc", {"x"}, "t"), "perm", {0, 2, 3, 1});
  set_ints(model.node("Transpose", "to_nchw", {"t"}, "u"), "perm", {0, 3, 1, 2});
  model.node("Relu", "relu", {"u"}, "y");
  const Graph g = model.import().graph;
  CHECK(count_nodes(g, "transpose") == 0);
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 4, 3, 5});
}

TEST_CASE("unsupported LayerNorm and MatMul forms are refused naming the node") {
  SUBCASE("LayerNormalization over several axes") {
    ModelBuilder model(17);
    model.input("x", {1, 4, 3, 5}).weight("s", {4, 3, 5}).weight("b", {4, 3, 5}).output("y");
    set_int(model.node("LayerNormalization", "ln", {"x", "s", "b"}, "y"), "axis", 1);
    CHECK(error_of([&] { (void)model.import(); }) ==
          "'test.onnx': node 'ln' (LayerNormalization): normalizes over axes 1 to 3; only a normalization over the "
          "last axis alone is supported");
  }
  SUBCASE("LayerNormalization scale of the wrong extent") {
    ModelBuilder model(17);
    model.input("x", {1, 4, 3, 5}).weight("s", {4}).weight("b", {4}).output("y");
    model.node("LayerNormalization", "ln", {"x", "s", "b"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("node 'ln' (layer_norm): input 1 's' has shape [4], expected [5]") !=
          std::string::npos);
  }
  SUBCASE("MatMul of activations whose leading axes do not broadcast") {
    ModelBuilder model(17);
    model.input("a", {2, 6, 4}).input("x", {3, 4, 5}).output("y").node("Relu", "relu", {"x"}, "b");  // b is computed
    model.node("MatMul", "mm", {"a", "b"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("node 'mm' (batch_matmul): leading axes of [2, 6, 4] and [3, 4, 5] do not broadcast") !=
          std::string::npos);
  }
  SUBCASE("MatMul of activations whose inner extents differ") {
    ModelBuilder model(17);
    model.input("a", {2, 6, 4}).input("x", {2, 5, 3}).output("y").node("Relu", "relu", {"x"}, "b");
    model.node("MatMul", "mm", {"a", "b"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("node 'mm' (batch_matmul): inner extents differ") != std::string::npos);
  }
  SUBCASE("Gelu with an unknown approximation") {
    ModelBuilder model(20);
    model.input("x", {1, 4}).output("y");
    set_string(model.node("Gelu", "g", {"x"}, "y"), "approximate", "erf");
    CHECK(error_of([&] { (void)model.import(); }) ==
          "'test.onnx': node 'g' (Gelu): approximate='erf' is not one of 'none' and 'tanh'");
  }
}

TEST_CASE("ScatterND on constants folds at import (swin's shifted-window mask)") {
  ModelBuilder model(17);
  model.input("x", {2, 3}).weight("data", {2, 3}).ints("row", {1}).weight("rows", {3}, {7.0f, 8.0f, 9.0f}).output("y");
  model.node("ScatterND", "scatter", {"data", "row", "rows"}, "mask");
  model.node("Add", "add", {"x", "mask"}, "y");
  const Graph g = model.import().graph;
  REQUIRE(g.nodes().size() == 1);
  const Value& mask = g.value(g.nodes().front().inputs[1]);
  const auto values = mask.weights->values();
  CHECK(std::vector<float>(values.begin(), values.end()) == std::vector<float>{0.0f, 0.01f, 0.02f, 7.0f, 8.0f, 9.0f});
}

TEST_CASE("Dropout in training mode imports when its ratio is 0 and is refused otherwise") {
  for (const float ratio : {0.0f, 0.5f}) {
    CAPTURE(ratio);
    ModelBuilder model(17);
    model.input("x", {1, 4}).output("y").constant("ratio", ratio);
    auto* training = model.node("Constant", "training", {}, "training").add_attribute();
    training->set_name("value");
    training->set_type(::onnx::AttributeProto::TENSOR);
    training->mutable_t()->set_data_type(::onnx::TensorProto::BOOL);
    training->mutable_t()->add_int32_data(1);
    model.node("Dropout", "drop", {"x", "ratio", "training"}, "y");
    const std::string message = error_of([&] { (void)model.import(); });
    if (ratio == 0.0f) CHECK(message == "<no error>");
    else CHECK(message.find("node 'drop' (Dropout): training_mode=true with ratio 0.5") != std::string::npos);
  }
}

TEST_CASE("MaxViT's Einsums import as batched products, with a Transpose only where an operand needs one") {
  for (const char* file : {"einsum-opset14.onnx", "einsum-opset17.onnx"}) {
    CAPTURE(file);
    const Graph g = imported(file);
    CHECK(count_nodes(g, "batch_matmul") == 3);
    // A.B^T moves B's last two axes, bhki,bhkj moves q's; A.B and the transposed output
    // ("bhji") move nothing: the output's order is a deferred transpose of its graph output.
    CHECK(count_nodes(g, "transpose") == 3);
    CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 2, 64, 64});
  }
}

TEST_CASE("an Einsum that is not a batched matrix product is refused naming the node and why") {
  const auto einsum_error = [](const std::string& equation, const Shape& a, const Shape& b) {
    ModelBuilder model(17);
    model.input("a", a).input("x", b).output("y").node("Relu", "relu", {"x"}, "b");
    set_string(model.node("Einsum", "e", {"a", "b"}, "y"), "equation", equation);
    return error_of([&] { (void)model.import(); });
  };
  CHECK(einsum_error("ij,jk", {2, 3}, {3, 4}).find("only two operands with an explicit output") != std::string::npos);
  CHECK(einsum_error("...ij,...jk->...ik", {2, 3}, {3, 4}).find("ellipses are not supported") != std::string::npos);
  CHECK(einsum_error("ii,ij->ij", {3, 3}, {3, 4}).find("label 'i' repeats within a term") != std::string::npos);
  CHECK(einsum_error("ij,jk->i", {2, 3}, {3, 4}).find("label 'k' is summed over in one operand alone") != std::string::npos);
  CHECK(einsum_error("ijl,jkl->ik", {2, 3, 5}, {3, 4, 5}).find("more than one contracted axis") != std::string::npos);
  CHECK(einsum_error("ij,jk->ik", {2, 3, 1}, {3, 4}).find("input 0 has shape [2, 3, 1] but its term 'ij' has 2 labels") !=
        std::string::npos);
  CHECK(einsum_error("bij,bjk->bik", {2, 2, 3}, {5, 3, 4}).find("batch label 'b' has extent 2 in input 0 and 5 in input 1") !=
        std::string::npos);
  CHECK(einsum_error("ij,jk->ik", {2, 3}, {3, 4}) == "<no error>");  // the plain product imports
}
