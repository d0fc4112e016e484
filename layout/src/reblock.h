#pragma once
// Channel re-blocking: [outer][C/bs][spatial][bs] -> [outer][C/bd][spatial][bd], the family
// that covers NCHW <-> NCHW[x]c, NCHW[x]c <-> NCHW[y]c and NHWC <-> both.
//   - one side unblocked (bs or bd == 1): a strided 2-D transpose per channel block;
//   - otherwise both sides keep runs of g = gcd(bs, bd) channels contiguous, so the
//     transform is a gather of g-float runs (g >= 2; for g == 1 use the generic gather).

#include <cstdint>
#include <vector>

#include "channel_blocked.h"
#include "transform_strategy.h"

namespace layoutopt::layout::detail {

class ReblockStrategy final : public TransformStrategy {
 public:
  /// Requires src.same_tensor(dst) and src.block != dst.block.
  ReblockStrategy(const ChannelBlocked& src, const ChannelBlocked& dst);
  /// True when this pair is handled: one side unblocked, or a common run of >= 2 channels.
  static bool supports(const ChannelBlocked& src, const ChannelBlocked& dst);

  void run(const float* src, float* dst, TransformTeam team) const override;
  [[nodiscard]] TransformPath path() const override;

 private:
  void run_transpose(const float* src, float* dst, TransformTeam team) const;
  void run_copy(const float* src, float* dst, TransformTeam team) const;

  ChannelBlocked src_;
  int64_t dst_block_;
  int64_t run_;  ///< channels per contiguous run, gcd of the two blocks
  /// For each run of channels, its offset inside one `outer` slice of src at spatial 0.
  std::vector<int64_t> run_offsets_;
};

}  // namespace layoutopt::layout::detail
