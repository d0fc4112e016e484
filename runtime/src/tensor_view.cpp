#include "layoutopt/runtime/tensor_view.h"

#include <algorithm>

namespace layoutopt::runtime {

namespace {

std::string shape_text(std::span<const int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

std::optional<std::string> view_mismatch(const TensorSpec& tensor, std::span<const int64_t> shape, const void* data,
                                         const char* role) {
  if (data == nullptr) return std::string(role) + " '" + tensor.name + "' has no data";
  if (!std::equal(shape.begin(), shape.end(), tensor.shape.begin(), tensor.shape.end()))
    return std::string(role) + " '" + tensor.name + "' must have shape " + shape_text(tensor.shape) + ", got " +
           shape_text(shape);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> views_mismatch(std::string_view network, std::span<const TensorSpec> expected_inputs,
                                          std::span<const TensorSpec> expected_outputs,
                                          std::span<const TensorView> inputs,
                                          std::span<const MutableTensorView> outputs) {
  if (inputs.size() != expected_inputs.size() || outputs.size() != expected_outputs.size())
    return "network '" + std::string(network) + "' takes " + std::to_string(expected_inputs.size()) + " inputs and " +
           std::to_string(expected_outputs.size()) + " outputs, got " + std::to_string(inputs.size()) + " and " +
           std::to_string(outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (auto wrong = view_mismatch(expected_inputs[i], inputs[i].shape, inputs[i].data, "input")) return wrong;
  for (size_t o = 0; o < outputs.size(); ++o)
    if (auto wrong = view_mismatch(expected_outputs[o], outputs[o].shape, outputs[o].data, "output")) return wrong;
  return std::nullopt;
}

}  // namespace layoutopt::runtime
