#include "reblock.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>

#include "cpu_features.h"
#include "team_share.h"
#include "transpose.h"

namespace layoutopt::layout::detail {

namespace {

// Work items are (panel, spatial chunk, channel chunk): small enough to balance two threads
// on a 7x7 map with 2048 channels, large enough to amortise the scheduling.
constexpr int64_t kSpatialChunk = 64;
constexpr int64_t kChannelChunk = 64;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Calls body(panel, s0, spatial_count, c0, channel_count) for every chunk, in contiguous
// shares of the (panel, spatial chunk, channel chunk) order over `team`'s threads.
template <class Body>
void parallel_chunks(int64_t panels, int64_t spatial, int64_t channels, int64_t channel_chunk, TransformTeam team,
                     const Body& body) {
  const int64_t spatial_chunks = ceil_div(spatial, kSpatialChunk);
  const int64_t channel_chunks = ceil_div(channels, channel_chunk);
  for_each_share(panels * spatial_chunks * channel_chunks, team, [&](int64_t first, int64_t last) {
    for (int64_t chunk = first; chunk < last; ++chunk) {
      const int64_t p = chunk / (spatial_chunks * channel_chunks);
      const int64_t s0 = chunk / channel_chunks % spatial_chunks * kSpatialChunk;
      const int64_t c0 = chunk % channel_chunks * channel_chunk;
      body(p, s0, std::min(kSpatialChunk, spatial - s0), c0, std::min(channel_chunk, channels - c0));
    }
  });
}

// One chunk of run copies: for each spatial position, `runs` runs of `run` floats.
struct RunCopy {
  const float* src;        ///< source at the chunk's first spatial position
  const int64_t* offsets;  ///< offset of each run relative to `src`
  int64_t runs;
  int64_t run;
  int64_t src_step;  ///< floats between spatial positions in src (its block)
  float* dst;
  int64_t dst_step;  ///< floats between spatial positions in dst (its block)
  int64_t spatial;
};

// Each run is one fixed-size copy when its length is a compile-time constant (kRun > 0):
// one vector move of the target ISA instead of a runtime-length loop with alias checks.
// kRun == 0 handles the rare other lengths (e.g. 12 or 24 channels) with memcpy. Runs are
// the outer loop so the inner loop over spatial positions is long.
template <int64_t kRun>
[[gnu::always_inline]] inline void copy_runs_body(const RunCopy& job) {
  for (int64_t r = 0; r < job.runs; ++r) {
    const float* __restrict from = job.src + job.offsets[r];
    float* __restrict to = job.dst + r * job.run;
    for (int64_t s = 0; s < job.spatial; ++s, from += job.src_step, to += job.dst_step) {
      if constexpr (kRun > 0) {
        for (int64_t i = 0; i < kRun; ++i) to[i] = from[i];
      } else {
        std::memcpy(to, from, static_cast<size_t>(job.run) * sizeof(float));
      }
    }
  }
}

using RunCopyFn = void (*)(const RunCopy&);

template <int64_t kRun>
void copy_runs_baseline(const RunCopy& job) {
  copy_runs_body<kRun>(job);
}

template <int64_t kRun>
__attribute__((target("avx512f"))) void copy_runs_avx512(const RunCopy& job) {
  copy_runs_body<kRun>(job);
}

struct RunCopyVariant {
  int64_t run;  ///< run length it is specialised for; 0 for any length
  RunCopyFn baseline;
  RunCopyFn avx512;
};

template <int64_t kRun>
constexpr RunCopyVariant variant() {
  return {kRun, copy_runs_baseline<kRun>, copy_runs_avx512<kRun>};
}

RunCopyFn pick_run_copy(int64_t run) {
  static constexpr std::array kSpecialised{variant<1>(),  variant<2>(),  variant<4>(), variant<8>(),
                                           variant<16>(), variant<32>(), variant<64>()};
  RunCopyVariant chosen = variant<0>();
  for (const RunCopyVariant& candidate : kSpecialised)
    if (candidate.run == run) chosen = candidate;
  return has_avx512f() ? chosen.avx512 : chosen.baseline;
}

}  // namespace

ReblockStrategy::ReblockStrategy(const ChannelBlocked& src, const ChannelBlocked& dst)
    : src_(src), dst_block_(dst.block), run_(std::gcd(src.block, dst.block)) {
  const int64_t bs = src_.block;
  for (int64_t c = 0; c < src_.channels; c += run_) run_offsets_.push_back((c / bs) * src_.spatial * bs + c % bs);
}

bool ReblockStrategy::supports(const ChannelBlocked& src, const ChannelBlocked& dst) {
  return src.same_tensor(dst) && (std::min(src.block, dst.block) == 1 || std::gcd(src.block, dst.block) >= 2);
}

TransformPath ReblockStrategy::path() const {
  return std::min(src_.block, dst_block_) == 1 ? TransformPath::transpose : TransformPath::copy_runs;
}

void ReblockStrategy::run(const float* src, float* dst, TransformTeam team) const {
  if (path() == TransformPath::transpose)
    run_transpose(src, dst, team);
  else
    run_copy(src, dst, team);
}

// With b the larger block, panel p (= outer index * C/b + block index) occupies the same
// b * spatial floats in both tensors: a b x spatial matrix on the unblocked side and its
// spatial x b transpose on the blocked side.
void ReblockStrategy::run_transpose(const float* src, float* dst, TransformTeam team) const {
  const int64_t b = std::max(src_.block, dst_block_);
  const int64_t spatial = src_.spatial;
  const bool src_unblocked = src_.block == 1;
  parallel_chunks(src_.outer * (src_.channels / b), spatial, b, kChannelChunk, team,
                  [&](int64_t p, int64_t s0, int64_t s_count, int64_t c0, int64_t c_count) {
                    const int64_t base = p * b * spatial;
                    if (src_unblocked)
                      transpose(src + base + c0 * spatial + s0, c_count, s_count, spatial, dst + base + s0 * b + c0, b);
                    else
                      transpose(src + base + s0 * b + c0, s_count, c_count, b, dst + base + c0 * spatial + s0, spatial);
                  });
}

// Panel p is one dst block (outer index n, block cb); each of its channel chunks is a list
// of runs whose src offsets were precomputed.
void ReblockStrategy::run_copy(const float* src, float* dst, TransformTeam team) const {
  const int64_t bd = dst_block_;
  const int64_t dst_blocks = src_.channels / bd;
  const int64_t slice = src_.channels * src_.spatial;
  const RunCopyFn copy = pick_run_copy(run_);
  parallel_chunks(src_.outer * dst_blocks, src_.spatial, bd, run_ * std::max<int64_t>(1, kChannelChunk / run_), team,
                  [&](int64_t p, int64_t s0, int64_t s_count, int64_t c0, int64_t c_count) {
                    const int64_t n = p / dst_blocks;
                    const int64_t first_run = ((p % dst_blocks) * bd + c0) / run_;
                    copy({src + n * slice + s0 * src_.block, run_offsets_.data() + first_run, c_count / run_, run_,
                          src_.block, dst + (p * src_.spatial + s0) * bd + c0, bd, s_count});
                  });
}

}  // namespace layoutopt::layout::detail
