#include "arrays.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <vector>

namespace py = pybind11;

namespace layoutopt::python {

namespace {

std::string described_dtype(const py::array& array) { return py::str(array.dtype()).cast<std::string>(); }

std::string expected(const runtime::TensorSpec& tensor) {
  return "a numpy.ndarray of dtype float32 and shape " + shape_text(tensor.shape);
}

bool is_native_float32(const py::array& array) { return array.dtype().equal(py::dtype::of<float>()); }

/// C-contiguous and aligned: the memory layout the kernels index.
bool is_dense(const py::array& array) {
  const int wanted = py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ | py::detail::npy_api::NPY_ARRAY_ALIGNED_;
  return (array.flags() & wanted) == wanted;
}

std::vector<int64_t> shape_of(const py::array& array) {
  return std::vector<int64_t>(array.shape(), array.shape() + array.ndim());
}

}  // namespace

std::string shape_text(std::span<const int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

py::array input_array(py::handle object, const runtime::TensorSpec& tensor) {
  if (!py::isinstance<py::array>(object))
    throw py::type_error("input '" + tensor.name + "' must be " + expected(tensor) + ", got " +
                         py::str(py::type::handle_of(object).attr("__name__")).cast<std::string>());
  auto array = py::reinterpret_borrow<py::array>(object);
  if (!is_native_float32(array))
    throw py::type_error("input '" + tensor.name + "' must be " + expected(tensor) + ", got dtype " +
                         described_dtype(array) + " (convert with .astype(numpy.float32); no silent conversion)");
  const std::vector<int64_t> shape = shape_of(array);
  if (shape != tensor.shape)
    throw py::value_error("input '" + tensor.name + "' must have shape " + shape_text(tensor.shape) + ", got " +
                          shape_text(shape));
  if (is_dense(array)) return array;  // read in place
  // One copy into dense memory (a slice or transpose of the right shape is still valid input).
  // ndarray.copy("C") always allocates fresh (aligned) memory, which an unaligned but
  // contiguous array needs too; ascontiguousarray would return that one as it is.
  return array.attr("copy")("C");
}

py::array_t<float> output_array(const runtime::TensorSpec& tensor) {
  return py::array_t<float, py::array::c_style>(std::vector<py::ssize_t>(tensor.shape.begin(), tensor.shape.end()));
}

runtime::TensorView input_view(const py::array& array, const runtime::TensorSpec& tensor) {
  return {static_cast<const float*>(array.data()), tensor.shape};
}

runtime::MutableTensorView output_view(py::array_t<float>& array, const runtime::TensorSpec& tensor) {
  return {array.mutable_data(), tensor.shape};
}

void bind_arrays(py::module_& module) {
  module.def(
      "_as_input",
      [](py::handle object, const std::string& name, std::vector<int64_t> shape) {
        return input_array(object, runtime::TensorSpec{.name = name, .shape = std::move(shape)});
      },
      py::arg("array"), py::arg("name"), py::arg("shape"),
      "The array a run reads for an input of this name and shape: the same object when it is read in place, "
      "a contiguous copy otherwise. Raises as Session.run does.");
}

}  // namespace layoutopt::python
