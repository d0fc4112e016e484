#include "jit/math_ir.h"

#include <limits>

#include "jit/vector_ops.h"

namespace layoutopt::kernels::jit {

namespace {

// Inside these bounds 2^n stays in the normal exponent range (n in [-126, 127]).
constexpr float kMinInput = -87.3F;
constexpr float kMaxInput = 88.3F;
constexpr float kLog2e = 1.44269504088896341F;
// ln 2 split in a part with few mantissa bits and a correction, so n * kLn2High is exact.
constexpr float kLn2High = 0.693359375F;
constexpr float kLn2Low = -2.12194440e-4F;
// Cephes expf coefficients of (e^r - 1 - r) / r^2, highest degree first.
constexpr float kPolynomial[] = {1.9875691500e-4F, 1.3981999507e-3F, 8.3334519073e-3F,
                                 4.1665795894e-2F, 1.6666665459e-1F, 5.0000001201e-1F};
// Below this |x|, tanh's exp form would cancel (1 - e^-2|x| loses bits as it nears 0): an
// odd polynomial takes over (Cephes tanhf's split point and coefficients of
// (tanh(x) - x) / x^3 in x^2, highest degree first).
constexpr float kTanhSmall = 0.625F;
constexpr float kTanhPolynomial[] = {-5.70498872745e-3F, 2.06390887954e-2F, -5.37397155531e-2F, 1.33314422036e-1F,
                                     -3.33332819422e-1F};

}  // namespace

llvm::Value* emit_exp(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Type* type = x->getType();
  const auto constant = [type](float value) { return llvm::ConstantFP::get(type, value); };
  llvm::Value* input = x;
  x = builder.CreateMinNum(builder.CreateMaxNum(x, constant(kMinInput)), constant(kMaxInput));
  // x = n ln2 + r with n = round(x / ln2) and |r| <= ln2 / 2.
  llvm::Value* n = builder.CreateUnaryIntrinsic(llvm::Intrinsic::floor,
                                                fused_multiply_add(builder, x, constant(kLog2e), constant(0.5F)));
  llvm::Value* r = fused_multiply_add(builder, n, constant(-kLn2High), x);
  r = fused_multiply_add(builder, n, constant(-kLn2Low), r);
  llvm::Value* p = constant(kPolynomial[0]);
  for (size_t k = 1; k < std::size(kPolynomial); ++k) p = fused_multiply_add(builder, p, r, constant(kPolynomial[k]));
  llvm::Value* e_r = builder.CreateFAdd(fused_multiply_add(builder, p, builder.CreateFMul(r, r), r), constant(1.0F));
  // 2^n assembled directly in the exponent field: (n + 127) << 23.
  llvm::Type* int_type = llvm::VectorType::getInteger(llvm::cast<llvm::VectorType>(type));
  llvm::Value* biased = builder.CreateAdd(builder.CreateFPToSI(n, int_type), llvm::ConstantInt::get(int_type, 127));
  llvm::Value* two_to_n = builder.CreateBitCast(builder.CreateShl(biased, 23), type);
  llvm::Value* result = builder.CreateFMul(e_r, two_to_n);
  // Outside the clamp range the polynomial's value is wrong; the limits are exact enough.
  result = builder.CreateSelect(builder.CreateFCmpOLT(input, constant(kMinInput)), constant(0.0F), result);
  return builder.CreateSelect(builder.CreateFCmpOGT(input, constant(kMaxInput)),
                              constant(std::numeric_limits<float>::infinity()), result);
}

llvm::Value* emit_sigmoid(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Value* one = llvm::ConstantFP::get(x->getType(), 1.0F);
  return builder.CreateFDiv(one, builder.CreateFAdd(one, emit_exp(builder, builder.CreateFNeg(x))));
}

llvm::Value* emit_tanh(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Type* type = x->getType();
  const auto constant = [type](float value) { return llvm::ConstantFP::get(type, value); };
  llvm::Value* magnitude = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  // (1 - e) / (1 + e) with e = e^(-2|x|) <= 0.29 here: nothing cancels, nothing overflows.
  llvm::Value* e = emit_exp(builder, builder.CreateFMul(magnitude, constant(-2.0F)));
  llvm::Value* large = builder.CreateFDiv(builder.CreateFSub(constant(1.0F), e), builder.CreateFAdd(constant(1.0F), e));
  large = builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, large, x);
  llvm::Value* square = builder.CreateFMul(x, x);
  llvm::Value* p = constant(kTanhPolynomial[0]);
  for (size_t k = 1; k < std::size(kTanhPolynomial); ++k)
    p = fused_multiply_add(builder, p, square, constant(kTanhPolynomial[k]));
  llvm::Value* small = fused_multiply_add(builder, builder.CreateFMul(p, square), x, x);
  return builder.CreateSelect(builder.CreateFCmpOLT(magnitude, constant(kTanhSmall)), small, large);
}

}  // namespace layoutopt::kernels::jit
