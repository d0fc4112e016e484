#pragma once
// 64-bit index arithmetic for kernel emitters: offsets and loop bounds are built from these
// few operations everywhere, with no-signed-wrap flags because indices never overflow.
// Emitters inherit it privately so `add(i, 16)` reads like the formula it emits.

#include <llvm/IR/IRBuilder.h>

#include <cstdint>

namespace layoutopt::kernels::jit {

class IndexArithmetic {
 protected:
  explicit IndexArithmetic(llvm::IRBuilder<>& builder) : builder_(builder) {}

  llvm::Value* constant(int64_t value) { return builder_.getInt64(value); }
  llvm::Value* add(llvm::Value* a, llvm::Value* b) { return builder_.CreateNSWAdd(a, b); }
  llvm::Value* add(llvm::Value* a, int64_t b) { return add(a, constant(b)); }
  llvm::Value* mul(llvm::Value* a, int64_t b) { return builder_.CreateNSWMul(a, constant(b)); }

 private:
  llvm::IRBuilder<>& builder_;
};

}  // namespace layoutopt::kernels::jit
