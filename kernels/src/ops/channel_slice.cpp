#include "layoutopt/kernels/channel_slice.h"

#include "jit/kernel_cache.h"
#include "layoutopt/kernels/error.h"
#include "ops/channel_copy_emitter.h"

namespace layoutopt::kernels {

namespace {

void require(bool ok, const ChannelSliceDesc& desc, const std::string& what) {
  if (!ok) throw KernelError("invalid channel_slice desc " + desc.str() + ": " + what);
}

}  // namespace

TensorDesc ChannelSliceDesc::output() const {
  TensorDesc out = input;
  out.channels = end - start;
  return out;
}

void ChannelSliceDesc::validate() const {
  input.validate("channel_slice", str());
  require(0 <= start && start < end && end <= input.channels, *this,
          "channels [" + std::to_string(start) + ", " + std::to_string(end) + ") are not within the input's " +
              std::to_string(input.channels) + " (needs 0 <= start < end <= channels)");
  // A block straddling the slice's edge would need a partial copy of an input block.
  require(start % input.block == 0 && (end - start) % input.block == 0, *this,
          "channel block " + std::to_string(input.block) + " must divide start " + std::to_string(start) +
              " and the slice's " + std::to_string(end - start) + " channels");
}

std::string ChannelSliceDesc::str() const {
  return "channel_slice_" + std::to_string(start) + "_" + std::to_string(end) + "_" + input.str();
}

ChannelSliceLayouts channel_slice_layouts(const ChannelSliceDesc& desc) {
  desc.validate();
  return {desc.input.layout(), desc.output().layout()};
}

std::optional<int64_t> channel_slice_view_offset(const ChannelSliceDesc& desc) {
  desc.validate();
  if (desc.input.batch != 1) return std::nullopt;
  return desc.start * desc.input.height * desc.input.width;
}

Kernel compile_channel_slice(const ChannelSliceDesc& desc) {
  desc.validate();
  const TensorDesc out = desc.output();
  const ops::ChannelCopy copy{.batch = out.batch,
                              .height = out.height,
                              .width = out.width,
                              .channels = out.channels,
                              .in_channels = desc.input.channels,
                              .in_block = desc.input.block,
                              .in_offset = desc.start,
                              .out_channels = out.channels,
                              .out_block = out.block};
  return Kernel(jit::cached_kernel(desc.str(), [&] { return ops::compile_channel_copy(copy, "channel_slice"); }));
}

}  // namespace layoutopt::kernels
