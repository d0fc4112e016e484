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

// erf(x) / x ~ P(t) / Q(t) with t = x^2 on |x| <= kErfLimit, lowest degree first (fitted
// for this file, see math_ir.h; checked against std::erf in tests/kernels/transformer_ops_test.cpp).
constexpr float kErfLimit = 3.92F;
constexpr float kErfNumerator[] = {1.128378987312317F,     0.20302759110927582F,    0.050983939319849014F,
                                   0.003837467869743705F,  0.00014542456483468413F, -1.9758269900194136e-06F,
                                   1.9916173599199283e-08F};
constexpr float kErfDenominator[] = {1.0F, 0.5132586359977722F, 0.11628292500972748F, 0.014620896428823471F,
                                     0.000990167143754661F};

llvm::Constant* splat(llvm::Type* type, float value) { return llvm::ConstantFP::get(type, value); }

// max(x, bound) and min(x, bound) as compare-and-select, which x86 lowers to one vmaxps /
// vminps (minnum / maxnum add NaN fix-ups); a NaN lane becomes the bound.
llvm::Value* at_least(llvm::IRBuilder<>& builder, llvm::Value* x, float bound) {
  llvm::Value* b = splat(x->getType(), bound);
  return builder.CreateSelect(builder.CreateFCmpOGT(x, b), x, b);
}
llvm::Value* at_most(llvm::IRBuilder<>& builder, llvm::Value* x, float bound) {
  llvm::Value* b = splat(x->getType(), bound);
  return builder.CreateSelect(builder.CreateFCmpOLT(x, b), x, b);
}

// e^(sign x) for sign x clamped to [kMinInput, kMaxInput], sign +1 or -1: the part of
// emit_exp that the activations run for every output, so every operation here counts (in a
// conv with few input channels a SiLU epilogue outweighs the conv's own arithmetic). The
// sign is folded into the constants, so sigmoid's e^-x costs no negation.
llvm::Value* exp_of_clamped(llvm::IRBuilder<>& builder, llvm::Value* x, float sign) {
  llvm::Type* type = x->getType();
  x = sign > 0 ? at_most(builder, at_least(builder, x, kMinInput), kMaxInput)
               : at_most(builder, at_least(builder, x, -kMaxInput), -kMinInput);
  // sign x = n ln2 + r with n = round(sign x / ln2), |r| <= ln2 / 2. Adding 1.5 * 2^23 rounds
  // sign x / ln2 to an integer held in the low mantissa bits of z, so n needs no floor or
  // conversion; the exponent bias 127 rides along in the shift, so z's bits shifted by 23
  // (the shift's high part drops out) are 2^n's.
  constexpr float kRoundingShift = 12582912.0F + 127.0F;
  llvm::Value* z = fused_multiply_add(builder, x, splat(type, sign * kLog2e), splat(type, kRoundingShift));
  llvm::Value* n = builder.CreateFSub(z, splat(type, kRoundingShift));
  // u = x - sign n ln2 = sign r.
  llvm::Value* u = fused_multiply_add(builder, n, splat(type, -sign * kLn2High), x);
  u = fused_multiply_add(builder, n, splat(type, -sign * kLn2Low), u);
  llvm::Type* int_type = llvm::VectorType::getInteger(llvm::cast<llvm::VectorType>(type));
  llvm::Value* two_to_n = builder.CreateBitCast(builder.CreateShl(builder.CreateBitCast(z, int_type), 23), type);
  // e^r - 1 = r + r^2 P(r) with Cephes' P, evaluated as Horner's scheme in r^2 over pairs
  // (c r + c'): half the dependent steps, since the activations are bound by this chain's
  // latency more than by its operation count. With r = sign u, P's odd-degree coefficients
  // (the pairs' slopes) take the sign.
  llvm::Value* u2 = builder.CreateFMul(u, u);
  const auto pair = [&](size_t k) {  // kPolynomial[k] r + kPolynomial[k + 1]
    return fused_multiply_add(builder, splat(type, sign * kPolynomial[k]), u, splat(type, kPolynomial[k + 1]));
  };
  llvm::Value* high = fused_multiply_add(builder, pair(0), u2, pair(2));
  llvm::Value* p = fused_multiply_add(builder, high, u2, pair(4));
  llvm::Value* e_r_minus_1 = fused_multiply_add(builder, p, u2, sign > 0 ? u : builder.CreateFNeg(u));
  // 2^n e^r = 2^n (e^r - 1) + 2^n: one rounding.
  return fused_multiply_add(builder, e_r_minus_1, two_to_n, two_to_n);
}

// 1 / d for finite d >= 1.
llvm::Value* reciprocal_of_finite(llvm::IRBuilder<>& builder, llvm::Value* d) {
  // A vector divide issues about once per 16 cycles. Allowing a reciprocal (arcp) of a
  // finite value (ninf) lets the backend use its estimate and one Newton step, contracted
  // into FMAs: 12 bits (rcpps, narrow vectors) or 14 (vrcp14ps) become about 24 or 28.
  llvm::Value* estimate = nullptr;
  {
    llvm::FastMathFlags flags;
    flags.setAllowReciprocal();
    flags.setNoInfs();
    flags.setAllowContract();
    const llvm::IRBuilder<>::FastMathFlagGuard guard(builder);
    builder.setFastMathFlags(flags);
    estimate = builder.CreateFDiv(splat(d->getType(), 1.0F), d);
  }
  // A second Newton step, fused, rounds it like a division wherever it matters: 1 / 2 and
  // 1 / 1 come out exact, so sigmoid(0) is 0.5 and saturates to 1.
  llvm::Value* residual = fused_multiply_add(builder, builder.CreateFNeg(d), estimate, splat(d->getType(), 1.0F));
  return fused_multiply_add(builder, estimate, residual, estimate);
}

// sum of coefficients[k] t^k by Horner's scheme.
template <size_t N>
llvm::Value* polynomial(llvm::IRBuilder<>& builder, const float (&coefficients)[N], llvm::Value* t) {
  llvm::Value* sum = splat(t->getType(), coefficients[N - 1]);
  for (size_t k = N - 1; k-- > 0;) sum = fused_multiply_add(builder, sum, t, splat(t->getType(), coefficients[k]));
  return sum;
}

}  // namespace

llvm::Value* emit_erf(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Type* type = x->getType();
  llvm::Value* clamped = at_most(builder, at_least(builder, x, -kErfLimit), kErfLimit);
  llvm::Value* t = builder.CreateFMul(clamped, clamped);
  llvm::Value* ratio = builder.CreateFDiv(polynomial(builder, kErfNumerator, t), polynomial(builder, kErfDenominator, t));
  llvm::Value* inside = builder.CreateFMul(clamped, ratio);
  llvm::Value* outside = builder.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, splat(type, 1.0F), x);
  llvm::Value* magnitude = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  return builder.CreateSelect(builder.CreateFCmpOGT(magnitude, splat(type, kErfLimit)), outside, inside);
}

llvm::Value* emit_gelu(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Type* type = x->getType();
  llvm::Value* erf = emit_erf(builder, builder.CreateFMul(x, splat(type, 0.70710678118654752F)));
  llvm::Value* half_x = builder.CreateFMul(x, splat(type, 0.5F));
  return fused_multiply_add(builder, half_x, erf, half_x);
}

llvm::Value* emit_gelu_tanh(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Type* type = x->getType();
  llvm::Value* cube = builder.CreateFMul(builder.CreateFMul(x, x), x);
  llvm::Value* inner = fused_multiply_add(builder, cube, splat(type, 0.044715F), x);
  llvm::Value* tanh = emit_tanh(builder, builder.CreateFMul(inner, splat(type, 0.79788456080286536F)));
  llvm::Value* half_x = builder.CreateFMul(x, splat(type, 0.5F));
  return fused_multiply_add(builder, half_x, tanh, half_x);
}

llvm::Value* emit_exp(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Type* type = x->getType();
  llvm::Value* result = exp_of_clamped(builder, x, 1.0F);
  // Outside the clamp range the polynomial's value is wrong; the limits are exact enough.
  result = builder.CreateSelect(builder.CreateFCmpOLT(x, splat(type, kMinInput)), splat(type, 0.0F), result);
  return builder.CreateSelect(builder.CreateFCmpOGT(x, splat(type, kMaxInput)),
                              splat(type, std::numeric_limits<float>::infinity()), result);
}

llvm::Value* emit_sigmoid(llvm::IRBuilder<>& builder, llvm::Value* x) {
  llvm::Type* type = x->getType();
  // 1 / (1 + e^-x) with e^-x held finite for the reciprocal; below -kMaxInput the result is
  // 0 (as 1 / (1 + inf) is), above -kMinInput 1 / (1 + tiny) rounds to 1.
  llvm::Value* e = exp_of_clamped(builder, x, -1.0F);
  llvm::Value* result = reciprocal_of_finite(builder, builder.CreateFAdd(splat(type, 1.0F), e));
  return builder.CreateSelect(builder.CreateFCmpOLT(x, splat(type, -kMaxInput)), splat(type, 0.0F), result);
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
