#include "layoutopt/kernels/concat.h"

#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "ops/channel_copy_emitter.h"

namespace layoutopt::kernels {

namespace {

void require(bool ok, const ConcatDesc& desc, const std::string& what) {
  if (!ok) throw KernelError("invalid concat desc " + desc.str() + ": " + what);
}

}  // namespace

TensorDesc ConcatDesc::output() const {
  TensorDesc out = inputs.empty() ? TensorDesc{} : inputs.front();
  out.channels = 0;
  for (const TensorDesc& input : inputs) out.channels += input.channels;
  out.block = out_block;
  return out;
}

void ConcatDesc::validate() const {
  require(!inputs.empty(), *this, "no inputs");
  require(out_block > 0, *this, "out_block must be positive");
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorDesc& in = inputs[i];
    const std::string name = "input " + std::to_string(i);
    in.validate("concat", str() + " (" + name + ")");
    require(in.batch == inputs[0].batch && in.height == inputs[0].height && in.width == inputs[0].width, *this,
            name + " differs from input 0 in batch, height or width");
    require(in.channels % out_block == 0, *this,
            name + " has " + std::to_string(in.channels) + " channels, not a multiple of out_block " +
                std::to_string(out_block) + " (an output block would straddle two inputs)");
  }
}

std::string ConcatDesc::str() const {
  std::string text = "concat";
  for (const TensorDesc& input : inputs) text += "_" + input.str();
  return text + "_to_x" + std::to_string(out_block);
}

ConcatLayouts concat_layouts(const ConcatDesc& desc) {
  desc.validate();
  ConcatLayouts layouts{{}, desc.output().layout()};
  for (const TensorDesc& input : desc.inputs) layouts.inputs.push_back(input.layout());
  return layouts;
}

std::vector<Kernel> compile_concat(const ConcatDesc& desc) {
  desc.validate();
  const TensorDesc out = desc.output();
  std::vector<Kernel> kernels;
  int64_t offset = 0;
  for (const TensorDesc& in : desc.inputs) {
    const ops::ChannelCopy copy{.batch = in.batch,
                                .height = in.height,
                                .width = in.width,
                                .channels = in.channels,
                                .in_channels = in.channels,
                                .in_block = in.block,
                                .out_channels = out.channels,
                                .out_block = out.block,
                                .out_offset = offset};
    kernels.emplace_back(
        jit::cached_kernel("concat|" + copy.str(), [&] { return ops::compile_channel_copy(copy, "concat"); }));
    offset += in.channels;
  }
  return kernels;
}

std::vector<int64_t> concat_slice_offsets(const ConcatDesc& desc) {
  desc.validate();
  std::vector<int64_t> offsets;
  int64_t channel = 0;
  for (const TensorDesc& in : desc.inputs) {
    const bool contiguous = in.batch == 1 && in.block == desc.out_block;
    offsets.push_back(contiguous ? channel * in.height * in.width : -1);
    channel += in.channels;
  }
  return offsets;
}

}  // namespace layoutopt::kernels
