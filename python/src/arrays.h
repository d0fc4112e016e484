#pragma once
// NumPy arrays in and out of a session, without copies where the memory allows.
//
// In: a network reads float32 in canonical layout (NCHW, NC), densely packed. An array that
// is exactly that (dtype float32 in native byte order, C-contiguous, aligned) is handed to
// the session as it is: the network reads its buffer in place. A float32 array of the right
// shape that is not contiguous (a slice, a transpose) is copied once into a contiguous array,
// because the kernels index dense memory. Any other dtype is refused with a TypeError:
// converting float64 or integers silently would hide a caller's mistake and cost a copy.
// A wrong shape is a ValueError naming the expected one.
//
// Out: fresh C-contiguous float32 arrays, which the network writes into directly.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <span>
#include <string>

#include "layoutopt/runtime/network_spec.h"
#include "layoutopt/runtime/session.h"

namespace layoutopt::python {

/// "[1,3,224,224]"
[[nodiscard]] std::string shape_text(std::span<const int64_t> shape);

/// The array a run reads for input `tensor`: `object` itself when it is a dense float32
/// array, else a contiguous copy of a float32 array. Raises TypeError (not an array, wrong
/// dtype) or ValueError (wrong shape), naming the input, the expected dtype and shape.
[[nodiscard]] pybind11::array input_array(pybind11::handle object, const runtime::TensorSpec& tensor);

/// An uninitialized float32 array of the tensor's shape, for the network to fill.
[[nodiscard]] pybind11::array_t<float> output_array(const runtime::TensorSpec& tensor);

[[nodiscard]] runtime::TensorView input_view(const pybind11::array& array, const runtime::TensorSpec& tensor);
[[nodiscard]] runtime::MutableTensorView output_view(pybind11::array_t<float>& array, const runtime::TensorSpec& tensor);

/// Binds the module-level helper _as_input (what input_array makes of an array), so tests
/// can see whether a run reads an array in place.
void bind_arrays(pybind11::module_& module);

}  // namespace layoutopt::python
