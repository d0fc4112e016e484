#include "conv/accumulator_lanes.h"

#include <algorithm>

namespace layoutopt::kernels::conv {

int64_t accumulator_register_lanes(int64_t chunk_lanes, const HostInfo& host) {
  // 8, 4, 2 or 1 lanes are vector types of their own (ymm, xmm); other widths LLVM widens.
  const bool own_register_type = (chunk_lanes & (chunk_lanes - 1)) == 0;
  return host.half_vectors_full_rate || !own_register_type ? chunk_lanes
                                                            : std::max<int64_t>(chunk_lanes, host.vector_lanes);
}

}  // namespace layoutopt::kernels::conv
