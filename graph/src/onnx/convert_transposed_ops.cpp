// Converters that read their input in the IR value's own axis order through a transpose no
// node computes yet (import_context.h's TransposedValue): Transpose itself, which only
// composes permutations, and the operators that work along one axis wherever it is
// (LayerNormalization over the last axis, Gelu). ConvNeXt's permute to NHWC, LayerNorm and
// permute back so imports as a LayerNorm over the channels of the NCHW tensor, no copy.
#include <numeric>

#include "converters.h"

namespace layoutopt::graph::onnx {

namespace {

bool is_permutation(const std::vector<int64_t>& perm, size_t rank) {
  std::vector<bool> seen(rank, false);
  for (const int64_t axis : perm) {
    if (axis < 0 || axis >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(axis)]) return false;
    seen[static_cast<size_t>(axis)] = true;
  }
  return perm.size() == rank;
}

bool is_identity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

/// The value's axis that ONNX axis `axis` of the transposed tensor is.
int64_t source_axis(const TransposedValue& x, int64_t axis) {
  return x.perm.empty() ? axis : x.perm[static_cast<size_t>(axis)];
}

}  // namespace

// Applying `perm` to x = transpose(value, p) gives transpose(value, p o perm): no node is
// made here; readers that need the transposed data in memory get one (ImportContext::value).
ValueId convert_transpose(NodeContext& node) {
  const TransposedValue x = node.transposed_input(0);
  const size_t rank = node.shape(x.value).size();
  std::vector<int64_t> reversed(rank);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  const std::vector<int64_t> perm = node.attributes().get_ints("perm", reversed);
  if (!is_permutation(perm, rank))
    node.fail("perm " + to_string(perm) + " is not a permutation of the " + std::to_string(rank) + " axes of its input");
  std::vector<int64_t> composed;
  for (const int64_t axis : perm) composed.push_back(source_axis(x, axis));
  if (!is_identity(composed)) node.set_output_perm(std::move(composed));
  return x.value;
}

// ONNX normalizes over axes [axis, rank); the IR's LayerNorm over one axis covers the last.
ValueId convert_layer_normalization(NodeContext& node) {
  const TransposedValue x = node.transposed_input(0);
  const auto rank = static_cast<int64_t>(node.shape(x.value).size());
  const int64_t given = node.attributes().get_int("axis", -1);
  const int64_t axis = given < 0 ? given + rank : given;
  if (axis < 0 || axis >= rank) node.fail("axis " + std::to_string(given) + " is out of range for rank " + std::to_string(rank));
  if (axis != rank - 1)
    node.fail("normalizes over axes " + std::to_string(axis) + " to " + std::to_string(rank - 1) +
              "; only a normalization over the last axis alone is supported");
  if (!node.has_input(2)) node.fail("has no bias input; only LayerNormalization with a bias is supported");
  node.set_output_perm(x.perm);
  const LayerNorm norm{.axis = source_axis(x, axis), .epsilon = node.attributes().get_float("epsilon", 1e-5f)};
  return node.add(norm, {x.value, node.weight(1), node.weight(2)});
}

// ONNX's Gelu (opset 20), also what canonicalize's recognize_gelu writes for the exporters'
// elementwise spellings of it.
ValueId convert_gelu(NodeContext& node) {
  const std::string approximate = node.attributes().get_string("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    node.fail("approximate='" + approximate + "' is not one of 'none' and 'tanh'");
  const TransposedValue x = node.transposed_input(0);
  node.set_output_perm(x.perm);
  return node.add(Gelu{.form = approximate == "tanh" ? GeluForm::tanh : GeluForm::exact}, {x.value});
}

}  // namespace layoutopt::graph::onnx
