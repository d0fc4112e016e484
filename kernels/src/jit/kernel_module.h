#pragma once
// KernelModule: one LLVM module holding one kernel function with the library-wide signature
//   void k(const float* in, const float* w, const float* bias, const float* residual,
//          float* out, const float* scale, int64_t begin, int64_t end)
// plus the IRBuilder positioned in its body. The starting point for every generated operator
// (conv2d, depthwise, dense, and later pooling / elementwise / concat).

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "layoutopt/kernels/epilogue.h"
#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels::jit {

/// The kind a kernel symbol was made for ("winograd_conv2d" of "layoutopt_winograd_conv2d_12"):
/// the one place that spells symbols also reads them.
[[nodiscard]] std::string kernel_kind(std::string_view symbol);

class KernelModule {
 public:
  /// Creates the function `symbol`; `kind` only seeds the symbol name for readability.
  explicit KernelModule(const std::string& kind);

  [[nodiscard]] llvm::IRBuilder<>& builder() { return *builder_; }
  [[nodiscard]] llvm::LLVMContext& context() { return *context_; }
  [[nodiscard]] llvm::Function& function() { return *function_; }

  [[nodiscard]] llvm::Value* input() const { return arg(0); }
  [[nodiscard]] llvm::Value* weight() const { return arg(1); }
  [[nodiscard]] llvm::Value* bias() const { return arg(2); }
  [[nodiscard]] llvm::Value* residual() const { return arg(3); }
  [[nodiscard]] llvm::Value* output() const { return arg(4); }
  [[nodiscard]] llvm::Value* scale() const { return arg(5); }
  [[nodiscard]] llvm::Value* begin() const { return arg(6); }
  [[nodiscard]] llvm::Value* end() const { return arg(7); }

  /// A stack slot in the entry block, so that mem2reg/SROA turn it into SSA registers
  /// (the natural home of accumulators: emit loads/stores, get phis).
  [[nodiscard]] llvm::Value* entry_slot(llvm::Type* type, const std::string& name);
  /// A read-only all-zero array of `floats` floats: padding rows point here.
  [[nodiscard]] llvm::Value* zero_array(int64_t floats);
  /// Read-only tables of values fixed at compile time (e.g. which input row each output row
  /// reads), indexed with element_address / a GEP on their element type.
  [[nodiscard]] llvm::Value* constant_table(const std::vector<int64_t>& values, const std::string& name);
  [[nodiscard]] llvm::Value* constant_table(const std::vector<float>& values, const std::string& name);

  /// Terminates the function, JIT-compiles it and returns its metadata. Consumes the module.
  /// `scales_input`: the function reads the scale argument (a conv's input scale).
  [[nodiscard]] CompiledFunction compile(int64_t work_items, const Epilogue& epilogue, bool scales_input = false);

 private:
  [[nodiscard]] llvm::Value* arg(unsigned index) const { return function_->getArg(index); }

  std::unique_ptr<llvm::LLVMContext> context_;
  std::unique_ptr<llvm::Module> module_;
  llvm::Function* function_ = nullptr;
  std::unique_ptr<llvm::IRBuilder<>> builder_;
  std::string symbol_;
  std::chrono::steady_clock::time_point created_;  // compile time counts IR emission too
};

}  // namespace layoutopt::kernels::jit
