#include "op_converters.h"

#include <cstdint>
#include <string>
#include <unordered_map>

#include "converters.h"

namespace layoutopt::graph::onnx {

namespace {

using Role = ParameterRole;

const std::unordered_map<std::string_view, OpConverter>& table() {
  static const std::unordered_map<std::string_view, OpConverter> converters = {
      {"Conv", {convert_conv, 2, 3, {{1, Role::conv_weight}, {2, Role::bias}}}},
      {"BatchNormalization",
       {convert_batch_norm, 5, 5, {{1, Role::bn_scale}, {2, Role::bn_shift}, {3, Role::bn_mean}, {4, Role::bn_variance}}}},
      {"Gemm", {convert_gemm, 2, 3, {{1, Role::dense_weight}, {2, Role::bias}}}},
      {"MatMul", {convert_matmul, 2, 2, {{1, Role::dense_weight}}}},
      {"Einsum", {convert_einsum, 2, 2, {}}},
      {"Relu", {convert_unary<Relu>, 1, 1, {}}},
      {"Clip", {convert_clip, 1, 3, {}}},
      {"Sigmoid", {convert_unary<Sigmoid>, 1, 1, {}}},
      {"Add", {convert_binary<Add>, 2, 2, {}}},
      {"Mul", {convert_binary<Mul>, 2, 2, {}}},
      {"Concat", {convert_concat, 1, SIZE_MAX, {}}},
      {"MaxPool", {convert_max_pool, 1, 1, {}}},
      {"AveragePool", {convert_average_pool, 1, 1, {}}},
      {"GlobalAveragePool", {convert_unary<GlobalAvgPool>, 1, 1, {}}},
      {"Flatten", {convert_flatten, 1, 1, {}}},
      {"Reshape", {convert_reshape, 2, 2, {}}},
      {"Softmax", {convert_softmax, 1, 1, {}}},
      {"Dropout", {convert_dropout, 1, 3, {}}},
      {"Identity", {convert_unary<Identity>, 1, 1, {}}},
      {"Pad", {convert_pad, 2, 4, {}}},
      {"ConvTranspose", {convert_conv_transpose, 2, 3, {{1, Role::conv_weight}, {2, Role::bias}}}},
      {"LRN", {convert_lrn, 1, 1, {}}},
      {"Resize", {convert_resize, 1, 4, {}}},
      {"Tanh", {convert_unary<Tanh>, 1, 1, {}}},
      {"HardSigmoid", {convert_hard_sigmoid, 1, 1, {}}},
      {"HardSwish", {convert_unary<HardSwish>, 1, 1, {}}},
      {"LeakyRelu", {convert_leaky_relu, 1, 1, {}}},
      {"PRelu", {convert_prelu, 2, 2, {{1, Role::bn_scale}}}},
      {"Cast", {convert_cast, 1, 1, {}}},
      {"Sub", {convert_binary<Sub>, 2, 2, {}}},
      {"Div", {convert_binary<Div>, 2, 2, {}}},
      {"Sum", {convert_variadic<Add>, 1, SIZE_MAX, {}}},
      {"Max", {convert_variadic<Max>, 1, SIZE_MAX, {}}},
      {"Min", {convert_variadic<Min>, 1, SIZE_MAX, {}}},
      {"Transpose", {convert_transpose, 1, 1, {}}},
      {"Squeeze", {convert_squeeze, 1, 2, {}}},
      {"Unsqueeze", {convert_unsqueeze, 2, 2, {}}},
      {"Slice", {convert_slice, 3, 5, {}}},
      {"Split", {convert_split, 1, 2, {}, true}},
      {"ReduceMean", {convert_reduce_mean, 1, 2, {}}},
      {"LayerNormalization", {convert_layer_normalization, 2, 3, {{1, Role::bn_scale}, {2, Role::bn_shift}}}},
      {"Gelu", {convert_gelu, 1, 1, {}}},
      {"Gather", {convert_gather, 2, 2, {}}},
  };
  return converters;
}

}  // namespace

const OpConverter* find_converter(std::string_view op_type) {
  const auto it = table().find(op_type);
  return it == table().end() ? nullptr : &it->second;
}

}  // namespace layoutopt::graph::onnx
