#include "jit/kernel_module.h"

#include <atomic>

#include "jit/jit_engine.h"

namespace layoutopt::kernels::jit {

namespace {

constexpr std::string_view kSymbolPrefix = "layoutopt_";

/// "layoutopt_<kind>_<serial>": unique in the process, and its kind readable back (kernel_kind).
std::string unique_symbol(const std::string& kind) {
  static std::atomic<int64_t> counter{0};
  return std::string(kSymbolPrefix) + kind + "_" + std::to_string(counter++);
}

// Pointer attributes let LLVM schedule loads freely: inputs are never written by the kernel.
void mark_read_only(llvm::Function& function, unsigned index) {
  function.addParamAttr(index, llvm::Attribute::NoAlias);
  function.addParamAttr(index, llvm::Attribute::ReadOnly);
  function.addParamAttr(index, llvm::Attribute::NoCapture);
}

}  // namespace

std::string kernel_kind(std::string_view symbol) {
  if (!symbol.starts_with(kSymbolPrefix)) return std::string(symbol);
  symbol.remove_prefix(kSymbolPrefix.size());
  return std::string(symbol.substr(0, symbol.rfind('_')));
}

KernelModule::KernelModule(const std::string& kind)
    : context_(std::make_unique<llvm::LLVMContext>()),
      symbol_(unique_symbol(kind)),
      created_(std::chrono::steady_clock::now()) {
  module_ = std::make_unique<llvm::Module>(symbol_, *context_);
  JitEngine::instance().configure(*module_);
  llvm::Type* ptr = llvm::PointerType::getUnqual(*context_);
  llvm::Type* i64 = llvm::Type::getInt64Ty(*context_);
  auto* type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(*context_), {ptr, ptr, ptr, ptr, ptr, ptr, i64, i64}, false);
  function_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol_, *module_);
  function_->addFnAttr(llvm::Attribute::NoUnwind);
  JitEngine::instance().configure(*function_);
  for (unsigned index = 0; index < 3; ++index) mark_read_only(*function_, index);
  function_->addParamAttr(3, llvm::Attribute::ReadOnly);  // residual may be the output buffer
  mark_read_only(*function_, 5);                          // scale
  builder_ = std::make_unique<llvm::IRBuilder<>>(llvm::BasicBlock::Create(*context_, "entry", function_));
}

llvm::Value* KernelModule::entry_slot(llvm::Type* type, const std::string& name) {
  llvm::BasicBlock& entry = function_->getEntryBlock();
  llvm::IRBuilder<> at_top(&entry, entry.begin());
  return at_top.CreateAlloca(type, nullptr, name);
}

namespace {

/// A cache-line-aligned read-only global holding `values`.
llvm::Value* read_only_global(llvm::Module& module, llvm::Constant* values, const std::string& name) {
  auto* global = new llvm::GlobalVariable(module, values->getType(), true, llvm::GlobalValue::PrivateLinkage, values,
                                          name);
  global->setAlignment(llvm::Align(64));
  return global;
}

}  // namespace

llvm::Value* KernelModule::zero_array(int64_t floats) {
  auto* type = llvm::ArrayType::get(llvm::Type::getFloatTy(*context_), static_cast<uint64_t>(floats));
  return read_only_global(*module_, llvm::ConstantAggregateZero::get(type), "zeros");
}

llvm::Value* KernelModule::constant_table(const std::vector<int64_t>& values, const std::string& name) {
  std::vector<uint64_t> bits(values.begin(), values.end());
  return read_only_global(*module_, llvm::ConstantDataArray::get(*context_, bits), name);
}

llvm::Value* KernelModule::constant_table(const std::vector<float>& values, const std::string& name) {
  return read_only_global(*module_, llvm::ConstantDataArray::get(*context_, values), name);
}

CompiledFunction KernelModule::compile(int64_t work_items, const Epilogue& epilogue, bool scales_input) {
  builder_->CreateRetVoid();
  builder_.reset();
  void* address = JitEngine::instance().compile(
      llvm::orc::ThreadSafeModule(std::move(module_), std::move(context_)), symbol_);
  CompiledFunction compiled;
  compiled.function = reinterpret_cast<KernelFunction>(address);
  compiled.work_items = work_items;
  compiled.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - created_).count();
  compiled.name = symbol_;
  compiled.needs_bias = epilogue.bias;
  compiled.needs_residual = epilogue.residual;
  compiled.needs_scale = scales_input;
  return compiled;
}

}  // namespace layoutopt::kernels::jit
