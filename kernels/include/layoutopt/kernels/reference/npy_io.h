#pragma once
// NumPy .npy files (format versions 1.0-3.0) in and out of HostTensor: what `layoutopt run`
// reads as input and writes as output. Little-endian float32 in C order is the tensor's own
// form; float64 ('<f8') is accepted and rounded to float32, since NumPy's default dtype is
// float64. Anything else (other dtypes, Fortran order, big-endian, truncated data) is refused
// with a message naming the file and the problem.

#include <filesystem>
#include <stdexcept>

#include "layoutopt/kernels/reference/host_tensor.h"

namespace layoutopt::kernels::reference {

class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws NpyError.
[[nodiscard]] HostTensor load_npy(const std::filesystem::path& path);
/// Writes version 1.0, '<f4', C order. Throws NpyError when the file cannot be written.
void save_npy(const HostTensor& tensor, const std::filesystem::path& path);

}  // namespace layoutopt::kernels::reference
