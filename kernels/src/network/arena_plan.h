#pragma once
// Static memory planning for the activations of a compiled network: every buffer has a size
// and a lifetime (the first and last step that touch it); buffers whose lifetimes overlap
// must not overlap in memory. Greedy by size (as TFLite's arena planner): the largest buffer
// is placed first, each at the lowest aligned offset that clears every already placed buffer
// alive at the same time. Not optimal (the problem is NP-hard) but close on CNN chains.
//
// Optionally a small buffer's memory rests for a few steps after its last use before another
// buffer gets it. Memory a step has just read is likely in every core's cache (a 1x1 conv
// split over output channels reads all of its input on each core); a step writing over it
// must first take each line back from the other core, which can triple a memory-bound
// step's time. Only buffers that fit in a core's cache rest: most lines of a larger one
// have left the other core's cache by the time it is written again, and resting them costs
// arena. Evidence: docs/design/step-outputs.md.

#include <cstdint>
#include <vector>

namespace layoutopt::kernels::network {

struct BufferLifetime {
  int64_t bytes = 0;
  int first = 0;  ///< first step using the buffer
  int last = 0;   ///< last step using it (inclusive)
};

/// Memory of a buffer of at most `max_bytes` goes to no other buffer whose first step is
/// within `steps` steps after the buffer's last.
struct MemoryRest {
  int steps = 0;
  int64_t max_bytes = 0;
};

struct ArenaPlan {
  std::vector<int64_t> offsets;  ///< per buffer, in bytes, multiples of the alignment
  int64_t bytes = 0;             ///< arena size
};

/// Throws std::invalid_argument for a negative size or rest, a lifetime ending before it
/// starts or an alignment that is not a positive power of two; KernelError when an offset or
/// the arena's size would pass int64.
[[nodiscard]] ArenaPlan plan_arena(const std::vector<BufferLifetime>& buffers, int64_t alignment = 64,
                                   MemoryRest rest = {});

}  // namespace layoutopt::kernels::network
