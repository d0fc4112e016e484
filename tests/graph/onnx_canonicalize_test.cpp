// The ONNX front end on the shapes of graph exporters actually write: deduplicated
// initializers behind Identity, shape arithmetic computed from Shape, run-time 'same'
// padding, older opsets' attribute forms, dead branches and symbolic batch dimensions.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "onnx_test_models.h"

using namespace onnx_test;

namespace {

::onnx::NodeProto& shape_of(ModelBuilder& model, const std::string& x, const std::string& out) {
  return model.node("Shape", "shape_" + out, {x}, out);
}

/// torch's flatten for a dynamic batch: Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])).
ModelBuilder dynamic_flatten_model(int64_t opset) {
  ModelBuilder model(opset);
  model.input("x", {-1, 4, 2, 2}).scalar("zero", 0).ints("minus_one", {-1}).output("y");
  shape_of(model, "x", "s");
  model.node("Gather", "batch_of", {"s", "zero"}, "n");
  auto& unsqueeze = opset < 13 ? model.node("Unsqueeze", "as_vector", {"n"}, "n1")
                               : model.node("Unsqueeze", "as_vector", {"n", "axis0"}, "n1");
  if (opset < 13) set_ints(unsqueeze, "axes", {0});
  else model.ints("axis0", {0});
  set_int(model.node("Concat", "target", {"n1", "minus_one"}, "t"), "axis", 0);
  model.node("Reshape", "flatten", {"x", "t"}, "y");
  return model;
}

}  // namespace

TEST_CASE("shape arithmetic computed from Shape folds into constants, for the bound batch") {
  for (int64_t opset : {9, 13}) {
    CAPTURE(opset);
    const import::ImportResult result = dynamic_flatten_model(opset).import({.batch = 3});
    const Graph& g = result.graph;
    CHECK(g.nodes().size() == 1);  // only the reshape is left
    CHECK(std::get<Reshape>(node_named(g, "flatten").op).shape == std::vector<int64_t>{3, -1});
    CHECK(g.value(g.outputs()[0]).type.shape == Shape{3, 16});
    CHECK(result.nodes_folded == 4);
    REQUIRE(result.bound_dimensions.size() == 1);
    CHECK(result.bound_dimensions[0].input == "x");
    CHECK(result.bound_dimensions[0].axis == 0);
    CHECK(result.bound_dimensions[0].symbol == "batch");
    CHECK(result.bound_dimensions[0].extent == 3);
  }
}

TEST_CASE("a weight behind Identity nodes (the exporter's deduplication) is still a weight") {
  ModelBuilder model;
  model.input("x", {1, 3, 8, 8}).weight("w", {4, 3, 3, 3}).weight("zeros", {4}, {0, 0, 0, 0}).output("y");
  model.node("Identity", "dedup_1", {"zeros"}, "bias_a");
  model.node("Identity", "dedup_2", {"bias_a"}, "bias_b");
  model.node("Conv", "conv", {"x", "w", "bias_b"}, "c");
  model.node("Conv", "conv_2", {"c", "w2", "bias_a"}, "y");
  model.weight("w2", {4, 4, 1, 1});
  const import::ImportResult result = model.import();
  CHECK(result.graph.nodes().size() == 2);
  CHECK(std::get<Conv2d>(node_named(result.graph, "conv").op).epilogue.bias);
  CHECK(std::get<Conv2d>(node_named(result.graph, "conv_2").op).epilogue.bias);
}

TEST_CASE("TF-style 'same' padding computed at run time folds to a constant Pad") {
  // timm's pad_same: pad = max((ceil(in / s) - 1) * s + (k - 1) * d + 1 - in, 0), split
  // begin = pad // 2, end = pad - begin; here in 7, k 3, s 2: pad 2 -> begin 1, end 1.
  ModelBuilder model;
  model.input("x", {1, 2, 7, 7}).output("y");
  model.ints("starts", {2}).ints("ends", {3}).ints("two", {2}).ints("k_minus_1_plus_1", {3});
  model.ints("zero", {0}).ints("one", {1}).ints("zeros_nc", {0, 0});
  shape_of(model, "x", "s");
  model.node("Slice", "h_of", {"s", "starts", "ends"}, "h");
  set_int(model.node("Cast", "h_float", {"h"}, "hf"), "to", ::onnx::TensorProto::FLOAT);
  model.weight("two_f", {1}, {2.0f}).weight("one_f", {1}, {1.0f});
  model.node("Div", "h_over_s", {"hf", "two_f"}, "q");
  model.node("Ceil", "ceil", {"q"}, "c");
  model.node("Sub", "minus1", {"c", "one_f"}, "c1");
  model.node("Mul", "times_s", {"c1", "two_f"}, "m");
  set_int(model.node("Cast", "m_int", {"m"}, "mi"), "to", ::onnx::TensorProto::INT64);
  model.node("Add", "plus_k", {"mi", "k_minus_1_plus_1"}, "e");
  model.node("Sub", "minus_in", {"e", "h"}, "p");
  model.node("Max", "at_least_0", {"p", "zero"}, "pad");
  model.node("Div", "half", {"pad", "two"}, "begin");
  model.node("Sub", "rest", {"pad", "begin"}, "end");
  // pads = [0, 0, begin, begin, 0, 0, end, end]
  set_int(model.node("Concat", "pads", {"zeros_nc", "begin", "begin", "zeros_nc", "end", "end"}, "pads_v"), "axis", 0);
  model.node("Pad", "pad_same", {"x", "pads_v"}, "y");
  const Graph g = model.import().graph;
  REQUIRE(g.nodes().size() == 1);
  CHECK(std::get<Pad>(node_named(g, "pad_same").op).pads == Pads2d{1, 1, 1, 1});
}

TEST_CASE("opset 7-10 attribute forms are read as their newer inputs") {
  ModelBuilder model(9);
  model.input("x", {1, 2, 4, 4}).output("y").weight("scales", {4}, {1, 1, 2, 2});
  auto& clip = model.node("Clip", "relu6", {"x"}, "c");
  set_float(clip, "min", 0.0f);
  set_float(clip, "max", 6.0f);
  set_string(model.node("Upsample", "up", {"c", "scales"}, "u"), "mode", "nearest");
  auto& slice = model.node("Slice", "half", {"u"}, "s");
  set_ints(slice, "starts", {0});
  set_ints(slice, "ends", {1});
  set_ints(slice, "axes", {1});
  auto& pad = model.node("Pad", "pad", {"s"}, "y");
  set_ints(pad, "pads", {0, 0, 1, 2, 0, 0, 3, 4});
  const Graph g = model.import().graph;
  const auto& c = std::get<Clip>(node_named(g, "relu6").op);
  CHECK(c.min == 0.0f);
  CHECK(c.max == 6.0f);
  const auto& up = std::get<Resize>(node_named(g, "up").op);
  CHECK(up.coordinates == ResizeCoordinates::asymmetric);
  CHECK(up.rounding == NearestRounding::floor);
  CHECK(up.size == Hw{8, 8});
  CHECK(std::get<Slice>(node_named(g, "half").op) == Slice{.axis = 1, .start = 0, .end = 1, .step = 1});
  CHECK(std::get<Pad>(node_named(g, "pad").op).pads == Pads2d{1, 2, 3, 4});
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 1, 12, 14});
}

TEST_CASE("nodes no output depends on are dropped before anything can fail on them") {
  ModelBuilder model;
  model.input("x", {1, 4}).output("y");
  model.node("Relu", "used", {"x"}, "y");
  model.node("LSTM", "dead_unsupported", {"x"}, "unused");
  const import::ImportResult result = model.import();
  CHECK(result.graph.nodes().size() == 1);
  CHECK(result.dead_nodes_removed == 1);
}

TEST_CASE("channel slices, splits and ReduceMean pooling convert to their IR forms") {
  ModelBuilder model(18);
  model.input("x", {2, 6, 4, 4}).ints("sizes", {2, 4}).ints("hw", {2, 3}).ints("open_start", {3})
      .ints("open_end", {std::numeric_limits<int64_t>::max()}).ints("axis1", {1}).output("pooled").output("rest");
  auto& split = model.node("Split", "chunk", {"x", "sizes"}, "a");
  split.add_output("b");
  set_int(split, "axis", 1);
  model.node("Slice", "tail", {"b", "open_start", "open_end", "axis1"}, "rest");
  set_int(model.node("ReduceMean", "mean", {"a", "hw"}, "pooled"), "keepdims", 0);
  const Graph g = model.import().graph;
  CHECK(count_nodes(g, "slice") == 3);
  CHECK(count_nodes(g, "global_avg_pool2d") == 1);
  CHECK(count_nodes(g, "flatten") == 1);
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{2, 2});
  CHECK(g.value(g.outputs()[1]).type.shape == Shape{2, 1, 4, 4});
  CHECK(std::get<Slice>(node_named(g, "tail").op) == Slice{.axis = 1, .start = 3, .end = 4, .step = 1});
}

TEST_CASE("what cannot be evaluated at import is reported with the node and the input") {
  SUBCASE("Gather of an activation at indices that are not a slice") {
    ModelBuilder model;
    model.input("x", {4, 3}).ints("idx", {2, 0}).output("y");
    model.node("Gather", "pick", {"x", "idx"}, "y");
    CHECK(error_of([&] { (void)model.import(); })
              .find("node 'pick' (Gather): indices of shape [2] that are not one index or an ascending run are not "
                    "supported") != std::string::npos);
  }
  SUBCASE("an input with an empty batch") {
    ModelBuilder model;
    model.input("x", {0, 3}).output("y").node("Relu", "r", {"x"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("graph input 'x': dimension 0 is 0") != std::string::npos);
  }
  SUBCASE("a file newer than the opsets we know names its opset with the failure") {
    ModelBuilder model(23);
    model.input("x", {1, 4}).output("y").node("Relu", "r", {"x", "x"}, "y");
    const std::string message = error_of([&] { (void)model.import(); });
    CHECK(message.find("node 'r' (Relu): expected 1 inputs, found 2") != std::string::npos);
    CHECK(message.find("(the file uses opset 23, newer than the newest this importer knows, 21)") != std::string::npos);
  }
  SUBCASE("shape arithmetic whose result does not fit 64 bits (found by fuzz/onnx_import_fuzz.cpp)") {
    ModelBuilder model;
    model.input("x", {1, 4}).ints("big", {4395513236313604097}).ints("factor", {4}).output("y");
    model.node("Mul", "overflow", {"big", "factor"}, "target");
    model.node("Reshape", "reshape", {"x", "target"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("node 'overflow' (Mul): integer overflow") != std::string::npos);
  }
  SUBCASE("a constant grown past ImportOptions::max_folded_elements (found by fuzz/onnx_import_fuzz.cpp)") {
    ModelBuilder model;
    model.input("x", {1, 4}).ints("shape", {3866628}).output("y");
    model.node("ConstantOfShape", "fill", {"shape"}, "zeros");
    model.node("Reshape", "reshape", {"x", "zeros"}, "y");
    const std::string message = error_of([&] { (void)model.import({.max_folded_elements = 1 << 16}); });
    CHECK(message.find("node 'fill' (ConstantOfShape): output shape [3866628] has 3866628 elements") != std::string::npos);
  }
  SUBCASE("Concat doubling a constant until it outgrows the limit") {
    ModelBuilder model;
    model.input("x", {1, 4}).ints("seed", std::vector<int64_t>(1024, 1)).output("y");
    std::string last = "seed";
    for (int i = 0; i < 8; ++i) {
      const std::string next = "twice" + std::to_string(i);
      set_int(model.node("Concat", next, {last, last}, next), "axis", 0);
      last = next;
    }
    model.node("Reshape", "reshape", {"x", last}, "y");
    // 1024 * 2^6 = 65536 is within the limit; the 7th doubling is not.
    CHECK(error_of([&] { (void)model.import({.max_folded_elements = 1 << 16}); })
              .find("node 'twice6' (Concat): output shape [131072]") != std::string::npos);
  }
  SUBCASE("a Resize scale whose output extent is not a number of pixels (found by fuzz/onnx_import_fuzz.cpp)") {
    for (const float scale : {3.0e32f, -2.0f, 0.0f}) {
      CAPTURE(scale);
      ModelBuilder model;
      model.input("x", {1, 2, 4, 4}).weight("scales", {4}, {1, 1, scale, 2}).output("y");
      model.node("Resize", "up", {"x", "", "scales"}, "y");
      CHECK(error_of([&] { (void)model.import(); }).find("node 'up' (Resize): scale") != std::string::npos);
    }
  }
  SUBCASE("an empty weight stored as empty raw_data (found by fuzz/onnx_import_fuzz.cpp: memcpy from null)") {
    ModelBuilder model;
    model.input("x", {1, 4}).weight("w", {1, 0}).output("y");
    model.node("Add", "add", {"x", "w"}, "y");
    ::onnx::ModelProto proto;
    REQUIRE(proto.ParseFromString(model.bytes()));
    proto.mutable_graph()->mutable_initializer(0)->set_raw_data("");
    CHECK_THROWS_AS((void)import::import_onnx_bytes(proto.SerializeAsString(), "test.onnx"), GraphError);
  }
  SUBCASE("a float read as integers beyond int64 (found by fuzz/onnx_import_fuzz.cpp: an undefined cast)") {
    ModelBuilder model;
    model.input("x", {1, 2, 4, 4}).weight("pads", {8}, {0, 0, 1.2e33f, 0, 0, 0, 0, 0}).output("y");
    model.node("Pad", "pad", {"x", "pads"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("tensor 'pads': 1") != std::string::npos);
    CHECK(error_of([&] { (void)model.import(); }).find("does not fit a 64-bit integer") != std::string::npos);
  }
  SUBCASE("Slice steps of INT64_MAX and INT64_MIN keep one element (fuzzing found overflows near them)") {
    for (const bool backwards : {false, true}) {
      CAPTURE(backwards);
      ModelBuilder model;
      model.input("x", {1, 4}).ints("dims", backwards ? std::vector<int64_t>{1, 4} : std::vector<int64_t>{4, 1});
      model.ints("start", {backwards ? -1 : 0}).ints("end", {backwards ? INT64_MIN : INT64_MAX}).ints("axis", {0});
      model.ints("step", {backwards ? INT64_MIN : INT64_MAX}).output("y");
      model.node("Slice", "pick", {"dims", "start", "end", "axis", "step"}, "target");
      model.node("Reshape", "reshape", {"x", "target"}, "y");
      CHECK(std::get<Reshape>(node_named(model.import().graph, "reshape").op).shape == std::vector<int64_t>{4});
    }
  }
  SUBCASE("a Reshape target with a product past 64 bits (found by fuzz/onnx_import_fuzz.cpp)") {
    ModelBuilder model;
    model.input("x", {1, 4}).ints("data", {1, 4}).ints("big", {8142508126285856767, 2}).output("y");
    model.node("Reshape", "fold", {"data", "big"}, "bad");
    model.node("Reshape", "reshape", {"x", "bad"}, "y");
    CHECK(error_of([&] { (void)model.import(); })
              .find("node 'fold' (Reshape): cannot reshape [2] to [8142508126285856767, 2]: more elements than 64 bits "
                    "can count") != std::string::npos);
  }
  SUBCASE("an Upsample without inputs (found by fuzz/onnx_import_fuzz.cpp: protobuf's CHECK aborted)") {
    ModelBuilder model(9);
    model.input("x", {1, 2, 4, 4}).output("y");
    model.node("Relu", "relu", {"x"}, "r");
    model.node("Upsample", "up", {}, "u");
    model.node("Add", "sum", {"r", "u"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("node 'up' (Resize): expected") != std::string::npos);
  }
  SUBCASE("a graph output that does not depend on the input") {
    ModelBuilder model;
    model.input("x", {1, 4}).ints("a", {1, 2}).ints("b", {3, 4}).output("y");
    model.node("Add", "sum", {"a", "b"}, "y");
    CHECK(error_of([&] { (void)model.import(); }).find("graph output 'y' is a constant") != std::string::npos);
  }
}

TEST_CASE("the rest of the shape vocabulary folds: Range, ConstantOfShape, Expand, Equal, Where, Squeeze, ReduceProd, Mod") {
  // target = Where(Equal(Mod(Range(0, 4, 1) - 4, 4), 0), Expand(ConstantOfShape([1]) = [-1]), dims)
  //        = [-1 where (i - 4) mod 4 == 0, else dims[i]] = [-1, 4, 2, 2] with dims = Shape(x) =
  // [2, 4, 2, 2] (Python's sign rule: -3 mod 4 = 1);
  // then the product of Squeeze(Unsqueeze(numel)) checks ReduceProd: 32 = 2 * 4 * 2 * 2.
  ModelBuilder model;
  model.input("x", {2, 4, 2, 2}).output("y");
  model.scalar("start", 0).scalar("limit", 4).scalar("delta", 1).scalar("zero", 0).ints("one", {1});
  model.ints("four", {4}).ints("axis0", {0});
  model.node("Range", "range", {"start", "limit", "delta"}, "r");
  model.node("Sub", "shift", {"r", "limit"}, "shifted");
  model.node("Mod", "mod", {"shifted", "limit"}, "m");
  model.node("Equal", "even", {"m", "zero"}, "e");
  auto& fill = model.node("ConstantOfShape", "fill", {"one"}, "f");
  auto* value = fill.add_attribute();
  value->set_name("value");
  value->set_type(::onnx::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(::onnx::TensorProto::INT64);
  value->mutable_t()->add_dims(1);
  value->mutable_t()->add_int64_data(-1);
  model.node("Expand", "expand", {"f", "four"}, "minus_ones");
  model.node("Shape", "dims_of", {"x"}, "dims");
  model.node("Where", "choose", {"e", "minus_ones", "dims"}, "target");
  model.node("Reshape", "reshape", {"x", "target"}, "reshaped");
  set_int(model.node("ReduceProd", "numel", {"dims"}, "n"), "keepdims", 0);
  model.node("Unsqueeze", "as_vector", {"n", "axis0"}, "n1");
  model.node("Squeeze", "as_scalar", {"n1", "axis0"}, "n0");
  model.node("Unsqueeze", "again", {"n0", "axis0"}, "flat_shape");
  model.node("Reshape", "flatten", {"reshaped", "flat_shape"}, "y");
  const Graph g = model.import().graph;
  CHECK(std::get<Reshape>(node_named(g, "reshape").op).shape == std::vector<int64_t>{-1, 4, 2, 2});
  CHECK(std::get<Reshape>(node_named(g, "flatten").op).shape == std::vector<int64_t>{32});
  CHECK(g.nodes().size() == 2);
}

TEST_CASE("folding broadcasts an extent of 1 against 0 to 0, as numpy does") {
  // Found by fuzz/onnx_import_fuzz.cpp (UBSan: an empty constant's first element read): the
  // fold took the larger extent, so [0] + [1] had one element and read the empty operand's.
  // target = Concat(Shape(x), [] + [1], Where([] == [], [], [7])) = Shape(x) = [2, 4, 2, 2].
  ModelBuilder model;
  model.input("x", {2, 4, 2, 2}).ints("none", {}).ints("one", {1}).ints("seven", {7}).output("y");
  model.node("Shape", "dims_of", {"x"}, "dims");
  model.node("Add", "add", {"none", "one"}, "sum");
  model.node("Equal", "same", {"none", "none"}, "mask");
  model.node("Where", "choose", {"mask", "none", "seven"}, "picked");
  set_int(model.node("Concat", "target", {"dims", "sum", "picked"}, "t"), "axis", 0);
  model.node("Reshape", "reshape", {"x", "t"}, "y");
  const Graph g = model.import().graph;
  CHECK(std::get<Reshape>(node_named(g, "reshape").op).shape == std::vector<int64_t>{2, 4, 2, 2});
}

TEST_CASE("opset 11 attribute forms of Split, Squeeze, Unsqueeze and ReduceMean are read as inputs") {
  ModelBuilder model(11);
  model.input("x", {1, 6, 4, 4}).output("y").output("z");
  auto& split = model.node("Split", "split", {"x"}, "a");
  split.add_output("b");
  set_int(split, "axis", 1);
  set_ints(split, "split", {2, 4});
  auto& mean = model.node("ReduceMean", "mean", {"b"}, "m");
  set_ints(mean, "axes", {2, 3});
  set_int(mean, "keepdims", 1);
  set_ints(model.node("Squeeze", "squeeze", {"m"}, "s"), "axes", {2, 3});
  set_ints(model.node("Unsqueeze", "unsqueeze", {"s"}, "y"), "axes", {0});
  model.node("Relu", "relu", {"a"}, "z");
  const import::ImportResult result = model.import();
  const Graph& g = result.graph;
  CHECK(g.value(g.outputs()[0]).type.shape == Shape{1, 1, 4});
  CHECK(g.value(g.outputs()[1]).type.shape == Shape{1, 2, 4, 4});
  CHECK(count_nodes(g, "global_avg_pool2d") == 1);
}

TEST_CASE("exporter Identity nodes are counted apart from dead branches") {
  ModelBuilder model;
  model.input("x", {1, 4}).weight("w", {3, 4}).output("y");
  model.node("Identity", "dedup", {"w"}, "w_alias");
  set_int(model.node("Gemm", "fc", {"x", "w_alias"}, "g"), "transB", 1);
  model.node("Identity", "out", {"g"}, "y");  // a graph output: kept
  model.node("Relu", "unused", {"x"}, "dead");
  const import::ImportResult result = model.import();
  CHECK(result.identities_bypassed == 1);
  CHECK(result.dead_nodes_removed == 1);
}

TEST_CASE("weights in an external data file next to the model are read; locations outside it are refused") {
  const std::filesystem::path directory = std::filesystem::temp_directory_path() / "layoutopt_external_data_test";
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  const std::vector<float> weights{1.5f, -2.0f, 0.25f, 4.0f, 3.0f, -1.0f};  // w[3, 2]
  {
    std::ofstream data(directory / "model.onnx.data", std::ios::binary);
    data << "8 bytes!";  // the tensor starts at offset 8
    data.write(reinterpret_cast<const char*>(weights.data()), static_cast<std::streamsize>(weights.size() * sizeof(float)));
  }
  const auto write_model = [&](const std::string& location) {
    ModelBuilder model;
    model.input("x", {1, 2}).weight("w", {3, 2}).output("y");
    set_int(model.node("Gemm", "fc", {"x", "w"}, "y"), "transB", 1);
    model.external("w", location, 8, std::to_string(weights.size() * sizeof(float)));
    std::ofstream(directory / "model.onnx", std::ios::binary) << model.bytes();
    return model;
  };
  write_model("model.onnx.data");
  const Graph g = import::import_onnx(directory / "model.onnx").graph;
  const auto values = g.value(*g.find_value("w")).weights->values();
  CHECK(std::vector<float>(values.begin(), values.end()) == weights);

  const ModelBuilder escaping = write_model("../model.onnx.data");
  CHECK(error_of([&] { (void)import::import_onnx(directory / "model.onnx"); })
            .find("tensor 'w': external data location '../model.onnx.data' leaves the model's directory") != std::string::npos);
  CHECK(error_of([&] { (void)escaping.import(); }).find("only a model imported from its path can read") != std::string::npos);
  std::filesystem::remove_all(directory);
}
