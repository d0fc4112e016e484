// Converters for Gemm and MatMul, both of which become the IR's dense operator, whose weight
// is [out_features, in_features].
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

}  // namespace

ValueId convert_matmul(NodeContext& node) {
  const TransposedValue x = node.transposed_input(0);
  if (reads_channels_last(node, x)) return matmul_as_1x1_conv(node, x);
  const ValueId input = node.input(0);
  if (node.shape(input).size() != 2)
    node.fail("input 0 has shape " + to_string(node.shape(input)) +
              "; MatMul with a weight is supported on matrices and on the channels of an NCHW tensor read channels-last");
  return add_with_bias(node, Dense{}, {input, node.weight(1, WeightLayout::transposed)});  // MatMul's B is [in, out]
}

}  // namespace layoutopt::graph::onnx
