#include "jit/control_flow.h"

#include <llvm/IR/InlineAsm.h>

#include <vector>

namespace layoutopt::kernels::jit {

namespace {

void emit_counted_loop(llvm::IRBuilder<>& builder, llvm::Value* begin, llvm::Value* end, int64_t step,
                       const LoopBody& body, const char* name) {
  llvm::Function* function = builder.GetInsertBlock()->getParent();
  llvm::LLVMContext& context = builder.getContext();
  llvm::BasicBlock* before = builder.GetInsertBlock();
  auto* header = llvm::BasicBlock::Create(context, std::string(name) + ".header", function);
  auto* inside = llvm::BasicBlock::Create(context, std::string(name) + ".body", function);
  auto* after = llvm::BasicBlock::Create(context, std::string(name) + ".exit", function);
  builder.CreateBr(header);

  builder.SetInsertPoint(header);
  llvm::PHINode* index = builder.CreatePHI(builder.getInt64Ty(), 2, name);
  index->addIncoming(begin, before);
  builder.CreateCondBr(builder.CreateICmpSLT(index, end), inside, after);

  builder.SetInsertPoint(inside);
  body(index);
  llvm::Value* next = builder.CreateNSWAdd(index, builder.getInt64(step));
  index->addIncoming(next, builder.GetInsertBlock());  // the body may have added blocks
  builder.CreateBr(header);

  builder.SetInsertPoint(after);
}

}  // namespace

void emit_loop(llvm::IRBuilder<>& builder, llvm::Value* begin, llvm::Value* end, int64_t step,
               const LoopBody& body, const char* name) {
  auto* constant_begin = llvm::dyn_cast<llvm::ConstantInt>(begin);
  auto* constant_end = llvm::dyn_cast<llvm::ConstantInt>(end);
  if (constant_begin != nullptr && constant_end != nullptr) {
    emit_loop(builder, constant_begin->getSExtValue(), constant_end->getSExtValue(), step, body, name);
    return;
  }
  emit_counted_loop(builder, begin, end, step, body, name);
}

void emit_loop(llvm::IRBuilder<>& builder, int64_t begin, int64_t end, int64_t step, const LoopBody& body,
               const char* name) {
  if (begin >= end) return;
  if (begin + step >= end) {
    body(builder.getInt64(begin));
    return;
  }
  emit_counted_loop(builder, builder.getInt64(begin), builder.getInt64(end), step, body, name);
}

void emit_unrolled(llvm::IRBuilder<>& builder, int64_t begin, int64_t end, const LoopBody& body) {
  for (int64_t i = begin; i < end; ++i) body(builder.getInt64(i));
}

void emit_compiler_fence(llvm::IRBuilder<>& builder, llvm::Value* escaping) {
  // An empty asm statement with side effects that clobbers memory, as C's asm volatile("" ::: "memory"),
  // taking `escaping` as an operand as asm volatile("" :: "r"(p) : "memory") does.
  std::vector<llvm::Type*> parameters;
  std::vector<llvm::Value*> arguments;
  if (escaping != nullptr) {
    parameters.push_back(escaping->getType());
    arguments.push_back(escaping);
  }
  auto* type = llvm::FunctionType::get(builder.getVoidTy(), parameters, false);
  const char* constraints = escaping != nullptr ? "r,~{memory}" : "~{memory}";
  builder.CreateCall(llvm::InlineAsm::get(type, "", constraints, /*hasSideEffects=*/true), arguments);
}

void emit_if_else(llvm::IRBuilder<>& builder, llvm::Value* condition, const std::function<void()>& then_body,
                  const std::function<void()>& else_body) {
  llvm::Function* function = builder.GetInsertBlock()->getParent();
  llvm::LLVMContext& context = builder.getContext();
  auto* then_block = llvm::BasicBlock::Create(context, "then", function);
  auto* else_block = llvm::BasicBlock::Create(context, "else", function);
  auto* after = llvm::BasicBlock::Create(context, "endif", function);
  builder.CreateCondBr(condition, then_block, else_block);
  builder.SetInsertPoint(then_block);
  then_body();
  builder.CreateBr(after);
  builder.SetInsertPoint(else_block);
  else_body();
  builder.CreateBr(after);
  builder.SetInsertPoint(after);
}

}  // namespace layoutopt::kernels::jit
