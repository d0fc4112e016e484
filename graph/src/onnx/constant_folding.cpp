#include "constant_folding.h"

#include <algorithm>
#include <unordered_map>

#include "layoutopt/graph/error.h"

namespace layoutopt::graph::onnx {

FoldContext::FoldContext(const pb::NodeProto& node, std::string label, std::vector<FoldInput> inputs,
                         int64_t max_grown_elements)
    : label_(std::move(label)), attributes_(node, label_), inputs_(std::move(inputs)), max_grown_elements_(max_grown_elements) {}

void FoldContext::fail(const std::string& what) const { throw GraphError(label_ + ": " + what); }

const Shape& FoldContext::dims(size_t slot) const {
  if (!has_input(slot)) fail("input " + std::to_string(slot) + " is missing");
  return *inputs_[slot].dims;
}

const ConstantValue& FoldContext::value(size_t slot) const {
  if (!has_input(slot) || !inputs_[slot].value) fail("input " + std::to_string(slot) + " is not a constant");
  return *inputs_[slot].value;
}

std::vector<int64_t> FoldContext::ints(size_t slot, const std::vector<int64_t>& fallback) const {
  return has_input(slot) ? value(slot).as_ints() : fallback;
}

int64_t FoldContext::axis(int64_t axis, size_t rank, bool inclusive) const {
  const auto r = static_cast<int64_t>(rank);
  const int64_t normalized = axis < 0 ? axis + r : axis;
  if (normalized < 0 || normalized > r - (inclusive ? 0 : 1))
    fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return normalized;
}

void FoldContext::check_output_size(const Shape& dims) const {
  int64_t largest_input = 0;
  for (const FoldInput& input : inputs_)
    if (input.value) largest_input = std::max(largest_input, static_cast<int64_t>(input.value->size()));
  int64_t count = 1;
  for (int64_t extent : dims)
    if (extent < 0 || __builtin_mul_overflow(count, extent, &count)) fail("output shape " + to_string(dims) + " is invalid or too large");
  const int64_t limit = std::max(largest_input, max_grown_elements_);
  if (count > limit)
    fail("output shape " + to_string(dims) + " has " + std::to_string(count) + " elements; import-time evaluation builds at most " +
         std::to_string(limit) + " (the largest input or ImportOptions::max_folded_elements)");
}

const FoldRule* find_fold_rule(std::string_view op_type) {
  static const std::unordered_map<std::string_view, const FoldRule*> rules = [] {
    std::unordered_map<std::string_view, const FoldRule*> all;
    for (const auto* table : {&shape_fold_rules(), &arithmetic_fold_rules()})
      for (const auto& [op, rule] : *table) all.emplace(op, &rule);
    return all;
  }();
  const auto it = rules.find(op_type);
  return it == rules.end() ? nullptr : it->second;
}

}  // namespace layoutopt::graph::onnx
