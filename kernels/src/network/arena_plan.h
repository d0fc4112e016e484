#pragma once
// Static memory planning for the activations of a compiled network: every buffer has a size
// and a lifetime (the first and last step that touch it); buffers whose lifetimes overlap
// must not overlap in memory. Greedy by size (as TFLite's arena planner): the largest buffer
// is placed first, each at the lowest aligned offset that clears every already placed buffer
// alive at the same time. Not optimal (the problem is NP-hard) but close on CNN chains.

#include <cstdint>
#include <vector>

namespace layoutopt::kernels::network {

struct BufferLifetime {
  int64_t bytes = 0;
  int first = 0;  ///< first step using the buffer
  int last = 0;   ///< last step using it (inclusive)
};

struct ArenaPlan {
  std::vector<int64_t> offsets;  ///< per buffer, in bytes, multiples of the alignment
  int64_t bytes = 0;             ///< arena size
};

/// Throws std::invalid_argument for a negative size, a lifetime ending before it starts or
/// an alignment that is not a positive power of two.
[[nodiscard]] ArenaPlan plan_arena(const std::vector<BufferLifetime>& buffers, int64_t alignment = 64);

}  // namespace layoutopt::kernels::network
