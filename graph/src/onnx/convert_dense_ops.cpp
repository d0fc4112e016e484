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

ValueId convert_matmul(NodeContext& node) {
  const ValueId x = node.input(0);
  const ValueId w = node.weight(1, WeightLayout::transposed);  // MatMul's B is [in, out]
  if (const std::optional<ValueId> bias = node.fused_bias())
    return node.add(Dense{.epilogue = {.bias = true}}, {x, w, *bias});
  return node.add(Dense{}, {x, w});
}

}  // namespace layoutopt::graph::onnx
