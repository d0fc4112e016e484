#pragma once
// Structured control flow for IR emission: counted loops and if/else. Callbacks emit into the
// builder; on return the builder sits after the construct.

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>

namespace layoutopt::kernels::jit {

using LoopBody = std::function<void(llvm::Value* index)>;

/// for (i = begin; i < end; i += step) body(i), with run-time bounds (constant bounds take
/// the overload below).
void emit_loop(llvm::IRBuilder<>& builder, llvm::Value* begin, llvm::Value* end, int64_t step,
               const LoopBody& body, const char* name = "loop");

/// Same with constant bounds; a loop of zero iterations emits nothing and a loop of one
/// iteration emits the body once, straight-line (no loop for the optimizer to clean up).
void emit_loop(llvm::IRBuilder<>& builder, int64_t begin, int64_t end, int64_t step, const LoopBody& body,
               const char* name = "loop");

/// Emits body(i) for every i in [begin, end) as straight-line code (full unroll).
void emit_unrolled(llvm::IRBuilder<>& builder, int64_t begin, int64_t end, const LoopBody& body);

/// A compiler fence: no memory access moves across it and no load is merged with an equal one
/// on the other side. Emits no instruction. With `escaping`, that pointer's memory counts as
/// read and written there, so a stack buffer stays in memory instead of becoming registers.
void emit_compiler_fence(llvm::IRBuilder<>& builder, llvm::Value* escaping = nullptr);

/// if (condition) then_body() else else_body().
void emit_if_else(llvm::IRBuilder<>& builder, llvm::Value* condition, const std::function<void()>& then_body,
                  const std::function<void()>& else_body);

}  // namespace layoutopt::kernels::jit
