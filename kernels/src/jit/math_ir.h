#pragma once
// Transcendental functions on fp32 vectors, emitted inline. llvm.exp would lower to one libm
// call per lane; a polynomial keeps sigmoid, tanh and softmax vectorized.

#include <llvm/IR/IRBuilder.h>

namespace layoutopt::kernels::jit {

/// e^x per lane (Cephes expf: range reduction to [-ln2/2, ln2/2] and a degree-6 polynomial,
/// ~1 ulp relative error) for x in [-87.3, 88.3]; below that 0 and above +inf, like expf
/// except that results which would be denormal are flushed to 0.
[[nodiscard]] llvm::Value* emit_exp(llvm::IRBuilder<>& builder, llvm::Value* x);

/// 1 / (1 + e^-x) per lane, within a few ulp (emit_exp's core and a refined reciprocal
/// estimate): 0 for x below -88.3 (where e^-x is +inf), 0.5 at 0, 1 where it saturates.
[[nodiscard]] llvm::Value* emit_sigmoid(llvm::IRBuilder<>& builder, llvm::Value* x);

/// tanh(x) per lane (~2 ulp relative error): an odd polynomial for |x| < 0.625, above that
/// (1 - e) / (1 + e) with e = e^(-2|x|), so it saturates to +-1 without overflow.
[[nodiscard]] llvm::Value* emit_tanh(llvm::IRBuilder<>& builder, llvm::Value* x);

/// erf(x) per lane, within 5e-7 absolute: x P(x^2) / Q(x^2), a rational fit (degrees 6 and
/// 4, weighted least squares on Chebyshev nodes) to erf(x) / x on |x| <= 3.92, and +-1
/// beyond, where erf rounds to +-1 in float.
[[nodiscard]] llvm::Value* emit_erf(llvm::IRBuilder<>& builder, llvm::Value* x);

/// GELU per lane: x * 0.5 * (1 + erf(x / sqrt(2))).
[[nodiscard]] llvm::Value* emit_gelu(llvm::IRBuilder<>& builder, llvm::Value* x);
/// PyTorch's tanh approximation of GELU: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
[[nodiscard]] llvm::Value* emit_gelu_tanh(llvm::IRBuilder<>& builder, llvm::Value* x);

}  // namespace layoutopt::kernels::jit
