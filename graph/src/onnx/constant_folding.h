#pragma once
// Import-time evaluation of ONNX nodes whose inputs are known: the shape subgraphs exporters
// write (Shape -> Gather -> Unsqueeze -> Concat -> Reshape), the arithmetic of TF-style
// 'same' padding (Shape, Cast, Div, Ceil, Max, ConstantOfShape, Pad's pads), and
// arithmetic on initializers. Whatever folds never reaches the IR; what stays computed from
// an activation is converted (or, for these operators, reported as unsupported).
//
// A rule reads its inputs through FoldInputs. Most need every input's values; Shape and
// Size need only the first input's dimensions, which the importer also knows for
// activations, so they fold on activations too.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attribute_reader.h"
#include "constant_value.h"
#include "layoutopt/graph/onnx/onnx_import.h"
#include "proto.h"

namespace layoutopt::graph::onnx {

/// What a rule sees of one input: its dimensions always, its values when it is a constant.
struct FoldInput {
  const Shape* dims = nullptr;          ///< null for an omitted optional input
  const ConstantValue* value = nullptr;  ///< null unless the input is a constant
};

/// The node being folded, its attributes and inputs, and errors that name it.
class FoldContext {
 public:
  /// `max_grown_elements`: ImportOptions::max_folded_elements.
  FoldContext(const pb::NodeProto& node, std::string label, std::vector<FoldInput> inputs,
              int64_t max_grown_elements = ImportOptions{}.max_folded_elements);

  [[nodiscard]] const AttributeReader& attributes() const { return attributes_; }
  [[nodiscard]] size_t input_count() const { return inputs_.size(); }
  [[nodiscard]] bool has_input(size_t slot) const { return slot < inputs_.size() && inputs_[slot].dims; }
  [[nodiscard]] const Shape& dims(size_t slot) const;
  /// The values of input `slot`; the rule's table entry guarantees they are known.
  [[nodiscard]] const ConstantValue& value(size_t slot) const;
  /// Input `slot` as integers (axes, indices, shapes); `fallback` when omitted.
  [[nodiscard]] std::vector<int64_t> ints(size_t slot, const std::vector<int64_t>& fallback = {}) const;
  /// Normalizes an axis against `rank` (negative counts from the end); `inclusive` allows rank.
  [[nodiscard]] int64_t axis(int64_t axis, size_t rank, bool inclusive = false) const;
  [[nodiscard]] int64_t max_grown_elements() const { return max_grown_elements_; }
  /// Fails unless an output of `dims` may be built: at most as many elements as the
  /// largest input or max_grown_elements. Rules whose output can outgrow their inputs
  /// (Expand, ConstantOfShape, Range, Gather, Concat, broadcasting) call it before building.
  void check_output_size(const Shape& dims) const;

  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string label_;
  AttributeReader attributes_;
  std::vector<FoldInput> inputs_;
  int64_t max_grown_elements_;
};

using FoldFn = std::function<std::vector<ConstantValue>(const FoldContext&)>;

struct FoldRule {
  FoldFn fold;
  /// True when the rule needs only its first input's dimensions (Shape, Size).
  bool dims_only = false;
};

/// The rule for an op type of the default domain, or null when it has none.
[[nodiscard]] const FoldRule* find_fold_rule(std::string_view op_type);

// The rule tables, one per file; find_fold_rule searches both.
[[nodiscard]] const std::vector<std::pair<std::string_view, FoldRule>>& shape_fold_rules();
[[nodiscard]] const std::vector<std::pair<std::string_view, FoldRule>>& arithmetic_fold_rules();

}  // namespace layoutopt::graph::onnx
