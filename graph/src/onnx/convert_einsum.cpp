// Einsum of two operands that is a batched matrix product: MaxViT writes its attention as
// "B G H I D, B G H J D -> B G H I J" and "B G H I J, B G H J D -> B G H I D". Every label
// is a batch axis (in both operands and the output), the one contracted axis (in both
// operands, not the output), or a row or column axis (in one operand and the output). The
// operands are read as [batch..., rows, contracted] and [batch..., contracted, columns]
// (through a Transpose where their axes lie otherwise) and multiplied as the IR's batched
// product; the output's own axis order is a deferred transpose of the product, which its
// readers may take in place like any other.
#include <cctype>
#include <string>
#include <vector>

#include "converters.h"

namespace layoutopt::graph::onnx {

namespace {

/// The labels of one term, one letter per axis.
using Labels = std::string;

struct Equation {
  Labels a, b, out;
};

Equation parse_equation(const NodeContext& node, const std::string& text) {
  std::string compact;
  for (const char c : text)
    if (c != ' ') compact += c;
  const size_t arrow = compact.find("->");
  const size_t comma = compact.find(',');
  if (arrow == std::string::npos || comma == std::string::npos || comma > arrow ||
      compact.find(',', comma + 1) != std::string::npos)
    node.fail("equation '" + text + "': only two operands with an explicit output ('ab,bc->ac') are supported");
  Equation equation{compact.substr(0, comma), compact.substr(comma + 1, arrow - comma - 1), compact.substr(arrow + 2)};
  for (const Labels* term : {&equation.a, &equation.b, &equation.out})
    for (size_t i = 0; i < term->size(); ++i) {
      const char label = (*term)[i];
      if (!std::isalpha(static_cast<unsigned char>(label)))
        node.fail("equation '" + text + "': '" + std::string(1, label) + "' is not a letter (ellipses are not supported)");
      if (term->find(label, i + 1) != std::string::npos)
        node.fail("equation '" + text + "': label '" + std::string(1, label) + "' repeats within a term (a diagonal)");
    }
  return equation;
}

bool has(const Labels& term, char label) { return term.find(label) != std::string::npos; }

/// The batched product's axes: the output's batch labels in its order, then rows, then columns.
struct ProductLabels {
  Labels batch;
  char rows = 0, contracted = 0, columns = 0;
};

ProductLabels classify(const NodeContext& node, const Equation& e, const std::string& text) {
  const auto refuse = [&](const std::string& why) {
    node.fail("equation '" + text + "' is not a batched matrix product: " + why);
  };
  // Each of rows, columns and the contracted axis is one label.
  const auto take = [&](char& role, char label, const char* what) {
    if (role != 0) refuse(std::string("more than one ") + what + " axis");
    role = label;
  };
  ProductLabels p;
  for (const char label : e.out) {
    if (!has(e.a, label) && !has(e.b, label)) refuse(std::string("output label '") + label + "' is in no operand");
    if (has(e.a, label) && has(e.b, label)) p.batch += label;
    else if (has(e.a, label)) take(p.rows, label, "row");
    else take(p.columns, label, "column");
  }
  for (const Labels* term : {&e.a, &e.b})
    for (const char label : *term) {
      if (has(e.out, label)) continue;
      if (!has(e.a, label) || !has(e.b, label)) refuse(std::string("label '") + label + "' is summed over in one operand alone");
      if (term == &e.a) take(p.contracted, label, "contracted");
    }
  if (p.rows == 0 || p.columns == 0 || p.contracted == 0) refuse("it needs one row, one column and one contracted axis");
  return p;
}

/// Where each of `wanted`'s labels is in `term`.
std::vector<int64_t> positions(const Labels& term, const Labels& wanted) {
  std::vector<int64_t> perm;
  for (const char label : wanted) perm.push_back(static_cast<int64_t>(term.find(label)));
  return perm;
}

bool is_identity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

/// Operand `slot` (labelled `term`) with its axes in the order `wanted`: the IR value as it
/// is, or a Transpose of it (composed with a transpose the importer has not made yet).
ValueId operand_in_order(NodeContext& node, size_t slot, const Labels& term, const Labels& wanted) {
  if (node.is_weight(slot)) node.fail("input " + std::to_string(slot) + " is a constant; only products of two computed tensors are supported");
  const TransposedValue x = node.transposed_input(slot);
  if (node.shape(x.value).size() != term.size())
    node.fail("input " + std::to_string(slot) + " has shape " + to_string(node.shape(x.value)) + " but its term '" + term +
              "' has " + std::to_string(term.size()) + " labels");
  std::vector<int64_t> perm;
  for (const int64_t axis : positions(term, wanted)) perm.push_back(x.perm.empty() ? axis : x.perm[static_cast<size_t>(axis)]);
  if (is_identity(perm)) return x.value;
  return node.add(Transpose{.perm = perm}, {x.value});
}

}  // namespace

ValueId convert_einsum(NodeContext& node) {
  const std::string text = node.attributes().get_string("equation", "");
  const Equation equation = parse_equation(node, text);
  const ProductLabels p = classify(node, equation, text);
  const ValueId a = operand_in_order(node, 0, equation.a, p.batch + p.rows + p.contracted);
  const ValueId b = operand_in_order(node, 1, equation.b, p.batch + p.contracted + p.columns);
  const Labels product = p.batch + p.rows + p.columns;
  for (size_t i = 0; i < p.batch.size(); ++i)
    if (node.shape(a)[i] != node.shape(b)[i])
      node.fail("batch label '" + std::string(1, p.batch[i]) + "' has extent " + std::to_string(node.shape(a)[i]) +
                " in input 0 and " + std::to_string(node.shape(b)[i]) + " in input 1");
  std::vector<int64_t> output_perm = positions(product, equation.out);
  if (!is_identity(output_perm)) node.set_output_perm(std::move(output_perm));
  return node.add(BatchMatMul{}, {a, b});
}

}  // namespace layoutopt::graph::onnx
