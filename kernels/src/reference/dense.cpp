#include "layoutopt/kernels/reference/dense.h"

namespace layoutopt::kernels::reference {

void dense(const DenseDesc& desc, const float* input, const float* weight, const float* bias,
           const float* residual, float* output) {
  desc.validate();
  const Epilogue& e = desc.epilogue;
  for (int64_t n = 0; n < desc.batch; ++n)
    for (int64_t o = 0; o < desc.out_features; ++o) {
      double value = 0.0;
      for (int64_t i = 0; i < desc.in_features; ++i)
        value += static_cast<double>(input[n * desc.in_features + i]) * weight[o * desc.in_features + i];
      const int64_t at = n * desc.out_features + o;
      if (e.bias) value += bias[o];
      value = apply_activation(e.activation, value);
      if (e.residual) value = apply_activation(e.post_residual_activation, value + residual[at]);
      output[at] = static_cast<float>(value);
    }
}

}  // namespace layoutopt::kernels::reference
