#include "layoutopt/runtime/tensor_view.h"

#include <doctest/doctest.h>

#include <vector>

using namespace layoutopt::runtime;

TEST_CASE("a run's tensors are checked for count, buffer and shape, naming the first that is wrong") {
  const std::vector<TensorSpec> inputs{{"x", {1, 3, 4, 4}, 0}};
  const std::vector<TensorSpec> outputs{{"y", {1, 10}, 1}};
  const std::vector<int64_t> x_shape{1, 3, 4, 4}, y_shape{1, 10}, short_shape{1, 3, 4};
  std::vector<float> x(48), y(10);
  const TensorView in{x.data(), x_shape};
  const MutableTensorView out{y.data(), y_shape};
  CHECK_FALSE(views_mismatch("net", inputs, outputs, {&in, 1}, {&out, 1}).has_value());

  CHECK(views_mismatch("net", inputs, outputs, {&in, 1}, {}) ==
        std::string("network 'net' takes 1 inputs and 1 outputs, got 1 and 0"));
  const TensorView missing{nullptr, x_shape};
  CHECK(views_mismatch("net", inputs, outputs, {&missing, 1}, {&out, 1}) == std::string("input 'x' has no data"));
  const TensorView wrong{x.data(), short_shape};
  CHECK(views_mismatch("net", inputs, outputs, {&wrong, 1}, {&out, 1}) ==
        std::string("input 'x' must have shape [1,3,4,4], got [1,3,4]"));
  const MutableTensorView wrong_out{y.data(), x_shape};
  CHECK(views_mismatch("net", inputs, outputs, {&in, 1}, {&wrong_out, 1}) ==
        std::string("output 'y' must have shape [1,10], got [1,3,4,4]"));
}
