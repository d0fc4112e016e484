#include "layoutopt/kernels/tensor_desc.h"

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels {

void TensorDesc::validate(const std::string& op, const std::string& desc_text) const {
  const auto require = [&](bool ok, const std::string& what) {
    if (!ok) throw KernelError("invalid " + op + " desc " + desc_text + ": " + what);
  };
  require(batch > 0 && channels > 0 && height > 0 && width > 0, "batch, channels, height and width must be positive");
  require(block > 0 && channels % block == 0,
          "channel block " + std::to_string(block) + " must divide the channel count " + std::to_string(channels));
}

std::string TensorDesc::str() const {
  return "n" + std::to_string(batch) + "_c" + std::to_string(channels) + "_h" + std::to_string(height) + "_w" +
         std::to_string(width) + "_x" + std::to_string(block);
}

}  // namespace layoutopt::kernels
