#include "layoutopt/kernels/default_channel_block.h"

#include "ceil_div.h"
#include "layoutopt/kernels/config_space.h"
#include "layoutopt/kernels/conv2d.h"

namespace layoutopt::kernels {

namespace {

// Vectors a default block may span: as many as a register tile holds beside its pixels,
// kMaxTileBlocks (4, by 6 pixels) in AVX-512's 32 registers, 2 in AVX2's 16.
int64_t widest_block_vectors(const HostInfo& host) { return host.vector_registers >= 32 ? kMaxTileBlocks : 2; }

// The divisor of `channels`, from 2 to `widest` channels, that fills the largest share of the
// vectors it spans, the larger on a tie (a wider block feeds each broadcast to more FMAs);
// 0 when none fills more than half. Shares (lanes used / lanes spanned) compare as cross
// products, exactly.
int64_t best_filling_block(int64_t channels, int64_t lanes, int64_t widest) {
  int64_t best = 0, used = 1, spanned = 2;  // the share to beat: half
  for (int64_t block : divisors(channels)) {
    if (block < 2) continue;
    if (block > widest) break;
    const int64_t span = ceil_div(block, lanes) * lanes;
    const bool fills_more = block * spanned > used * span;
    const bool ties = best > 0 && block * spanned == used * span;
    if (fills_more || ties) {
      best = used = block;
      spanned = span;
    }
  }
  return best;
}

}  // namespace

int64_t default_channel_block(int64_t channels, const HostInfo& host) {
  if (channels % 16 == 0) return 16;
  const bool eight_at_full_rate = host.vector_lanes <= 8 || host.half_vectors_full_rate;
  if (channels % 8 == 0 && eight_at_full_rate) return 8;
  const int64_t widest = widest_block_vectors(host) * host.vector_lanes;
  if (const int64_t filling = best_filling_block(channels, host.vector_lanes, widest); filling > 0) return filling;
  return channels % 8 == 0 ? 8 : 1;
}

int64_t default_channel_block(int64_t channels) { return default_channel_block(channels, host_info()); }

}  // namespace layoutopt::kernels
