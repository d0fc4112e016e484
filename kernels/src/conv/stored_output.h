#pragma once
// StoredOutput: where a conv kernel's output vectors go when it stores in another channel
// block than it computes in (Conv2dSchedule::store_bn), shared by the direct and the Winograd
// emitters. Design: docs/design/fused-layout-changes.md.

#include <llvm/IR/IRBuilder.h>

#include <cstdint>

#include "jit/vector_ops.h"

namespace layoutopt::kernels::conv {

/// An output of `channels` channels computed in blocks of `out_bn` and stored as
/// [N][channels / store_bn][out_h][out_w][store_bn], with `group_pad` floats after each of
/// `groups` runs of stored blocks (the Winograd product's M; 0 elsewhere).
struct StoredOutput {
  int64_t channels = 1;
  int64_t out_h = 1, out_w = 1;
  int64_t out_bn = 1;
  int64_t store_bn = 1;
  int64_t groups = 1;
  int64_t group_pad = 0;
};

/// Where the lanes of output vector `chunk` of computed block `out_block` at (batch, row,
/// column) are stored. Stored as computed, the vector is one piece. Otherwise it is split
/// where a stored block may begin: at multiples of store_bn when it divides out_bn, else of
/// their gcd (the split then depends on the runtime block, so every gcd-sized piece gets its
/// own address); a computed block inside one stored block is never split.
[[nodiscard]] jit::VectorPlacement output_placement(llvm::IRBuilder<>& builder, const StoredOutput& output,
                                                    llvm::Value* batch, llvm::Value* out_block, llvm::Value* row,
                                                    llvm::Value* column, const jit::VectorChunk& chunk);

}  // namespace layoutopt::kernels::conv
