#include "conv/stored_output.h"

#include <algorithm>
#include <numeric>

#include "jit/index_arithmetic.h"

namespace layoutopt::kernels::conv {

namespace {

class PlacementEmitter : private jit::IndexArithmetic {
 public:
  PlacementEmitter(llvm::IRBuilder<>& builder, const StoredOutput& output)
      : jit::IndexArithmetic(builder), b_(builder), o_(output) {}

  jit::VectorPlacement place(llvm::Value* batch, llvm::Value* out_block, llvm::Value* row, llvm::Value* column,
                             const jit::VectorChunk& chunk) {
    if (o_.store_bn == o_.out_bn)
      return jit::contiguous(add(pixel_offset(batch, out_block, row, column, o_.out_bn), chunk.offset), chunk.lanes);
    const int64_t grain = o_.store_bn % o_.out_bn == 0   ? 0
                          : o_.out_bn % o_.store_bn == 0 ? o_.store_bn
                                                         : std::gcd(o_.out_bn, o_.store_bn);
    jit::VectorPlacement pieces;
    for (int64_t lane = 0; lane < chunk.lanes;) {
      // Pieces end at the next multiple of the grain within the computed block.
      const int64_t end =
          grain == 0 ? chunk.lanes : std::min(chunk.lanes, ((chunk.offset + lane) / grain + 1) * grain - chunk.offset);
      llvm::Value* channel = add(mul(out_block, o_.out_bn), chunk.offset + lane);
      llvm::Value* block = b_.CreateUDiv(channel, constant(o_.store_bn));
      llvm::Value* pixel = pixel_offset(batch, block, row, column, o_.store_bn);
      pieces.push_back({lane, end - lane, b_.CreateAdd(pixel, b_.CreateURem(channel, constant(o_.store_bn)))});
      lane = end;
    }
    return pieces;
  }

 private:
  // Offset of the first float of (image, channel block, row, column) in a tensor
  // [N][channels / block_size][out_h][out_w][block_size].
  llvm::Value* pixel_offset(llvm::Value* batch, llvm::Value* block, llvm::Value* row, llvm::Value* column,
                            int64_t block_size) {
    llvm::Value* plane = mul(add(mul(batch, o_.channels / block_size), block), o_.out_h);
    llvm::Value* offset = mul(add(mul(add(plane, row), o_.out_w), column), block_size);
    if (o_.group_pad == 0) return offset;
    llvm::Value* group = b_.CreateUDiv(block, constant(o_.channels / block_size / o_.groups));
    return add(offset, mul(add(mul(batch, o_.groups), group), o_.group_pad));
  }

  llvm::IRBuilder<>& b_;
  const StoredOutput& o_;
};

}  // namespace

jit::VectorPlacement output_placement(llvm::IRBuilder<>& builder, const StoredOutput& output, llvm::Value* batch,
                                      llvm::Value* out_block, llvm::Value* row, llvm::Value* column,
                                      const jit::VectorChunk& chunk) {
  return PlacementEmitter(builder, output).place(batch, out_block, row, column, chunk);
}

}  // namespace layoutopt::kernels::conv
