// Converters for Gemm and MatMul. With a weight both become the IR's dense operator (weight
// [out_features, in_features]), or a 1x1 conv for a MatMul over NCHW channels read
// channels-last; MatMul between two activations is a batched product.
#include "converters.h"

namespace layoutopt::graph::onnx {

ValueId convert_gemm(NodeContext& node) {
  const AttributeReader& attributes = node.attributes();
  if (attributes.get_int("transA", 0) != 0) node.fail("transA=1 is not supported");
  const float alpha = attributes.get_float("alpha", 1.0f);
  const float beta = attributes.get_float("beta", 1.0f);
  const bool bias = node.has_input(2);
  if (alpha != 1.0f || (bias && beta != 1.0f))
    node.fail("alpha=" + std::to_string(alpha) + " and beta=" + std::to_string(beta) + " are not supported (both must be 1)");
  const ValueId x = node.input(0);
  // transB=1 stores B as [out, in] already; transB=0 as [in, out].
  const auto layout = attributes.get_int("transB", 0) != 0 ? WeightLayout::as_stored : WeightLayout::transposed;
  const ValueId w = node.weight(1, layout);
  if (bias) return node.add(Dense{.epilogue = {.bias = true}}, {x, w, node.weight(2)});
  return node.add(Dense{}, {x, w});
}

namespace {

/// The MatMul's bias (matmul_bias.h) as the node's last input, with the epilogue saying so.
template <class DenseLike>
ValueId add_with_bias(NodeContext& node, DenseLike op, std::vector<ValueId> inputs) {
  if (const std::optional<ValueId> bias = node.fused_bias()) {
    op.epilogue.bias = true;
    inputs.push_back(*bias);
  }
  return node.add(op, std::move(inputs));
}

/// A MatMul over the channels of an NCHW value read channels-last (a deferred transpose
/// moving axis 1 to the end, ConvNeXt's Linear layers) is a 1x1 conv of the value; its
/// output is read channels-last the same way.
ValueId matmul_as_1x1_conv(NodeContext& node, const TransposedValue& x) {
  node.set_output_perm(x.perm);
  const ValueId w = node.weight(1, WeightLayout::transposed_as_1x1_filter);  // [in, out] -> [out, in, 1, 1]
  return add_with_bias(node, Conv2d{}, {x.value, w});
}

bool reads_channels_last(const NodeContext& node, const TransposedValue& x) {
  return node.shape(x.value).size() == 4 && x.perm.size() == 4 && x.perm.back() == 1;
}

/// A MatMul with a weight over the last axis of a rank-3+ tensor (ViT's token-by-channel
/// products) is a dense layer over the rows of its [-1, K] view. A transpose that keeps the
/// last axis in place commutes with it, so the product is taken of the value before it.
ValueId matmul_over_last_axis(NodeContext& node, const TransposedValue& x) {
  const Shape in = node.shape(x.value);
  const ValueId rows = node.add(Reshape{.shape = {-1, in.back()}}, {x.value});
  const ValueId product = add_with_bias(node, Dense{}, {rows, node.weight(1, WeightLayout::transposed)});
  Shape out = in;
  out.back() = node.shape(product).back();
  node.set_output_perm(x.perm);
  return node.add(Reshape{.shape = out}, {product});
}

}  // namespace

// MatMul with a weight (input 1 fixed) is a dense layer or a 1x1 conv; between two computed
// tensors it is a batched product.
ValueId convert_matmul(NodeContext& node) {
  if (!node.is_weight(1)) return node.add(BatchMatMul{}, {node.input(0), node.input(1)});
  TransposedValue x = node.transposed_input(0);
  if (reads_channels_last(node, x)) return matmul_as_1x1_conv(node, x);
  const auto rank = static_cast<int64_t>(node.shape(x.value).size());
  if (!x.perm.empty() && x.perm.back() != rank - 1) x = {node.input(0), {}};  // the product needs the data moved
  if (rank >= 3) return matmul_over_last_axis(node, x);
  if (rank != 2) node.fail("input 0 has shape " + to_string(node.shape(x.value)) + "; MatMul with a weight needs rank 2 or more");
  return add_with_bias(node, Dense{}, {x.value, node.weight(1, WeightLayout::transposed)});  // MatMul's B is [in, out]
}

}  // namespace layoutopt::graph::onnx
