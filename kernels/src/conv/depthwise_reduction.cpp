#include "conv/depthwise_reduction.h"

#include "jit/vector_ops.h"

namespace layoutopt::kernels::conv {

void DepthwiseReduction::accumulate(llvm::IRBuilder<>& builder, const Tap& tap, const AccumulatorTile& acc) const {
  llvm::Value* tap_index = builder.CreateNSWAdd(
      builder.CreateNSWMul(builder.CreateNSWAdd(builder.CreateNSWMul(tap.out_block, builder.getInt64(kernel_h_)), tap.kh),
                           builder.getInt64(kernel_w_)),
      tap.kw);
  llvm::Value* weight_offset = builder.CreateNSWMul(tap_index, builder.getInt64(c_bn_));
  const auto& chunks = acc.chunks();
  for (size_t c = 0; c < chunks.size(); ++c) {
    llvm::Value* lane_offset = builder.getInt64(chunks[c].offset);
    llvm::Value* w = jit::load_vector(builder, tap.weight, builder.CreateNSWAdd(weight_offset, lane_offset), chunks[c].lanes);
    for (size_t r = 0; r < tap.rows.size(); ++r)
      for (const TapColumn& column : tap.columns) {
        llvm::Value* x =
            jit::load_vector(builder, tap.rows[r], builder.CreateNSWAdd(column.offset, lane_offset), chunks[c].lanes);
        acc.add_product(builder, static_cast<int64_t>(r), column.column, c, x, w);
      }
  }
}

}  // namespace layoutopt::kernels::conv
