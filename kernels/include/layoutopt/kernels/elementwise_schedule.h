#pragma once
// Schedule of the streaming operators (activations, batch norm, elementwise add / mul,
// flatten copies). Their work is a set of contiguous float streams: the whole tensor, or one
// stream per (n, channel block) plane when a per-channel operand is involved. Each stream is
// cut into chunks; a chunk is one work item, so the chunk size trades scheduling overhead
// against load balance across threads.

#include <cstdint>
#include <string>

#include "layoutopt/kernels/config_space.h"

namespace layoutopt::kernels {

struct ElementwiseSchedule {
  /// Floats per work item. Rounded up internally to whole vector patterns (a multiple of the
  /// channel block and the vector width) and capped at the stream length.
  int64_t chunk = 16384;

  [[nodiscard]] std::string str() const { return "chunk" + std::to_string(chunk); }
  bool operator==(const ElementwiseSchedule&) const = default;
};

/// Knob tile_chunk: 1024 * 4^k below `stream_length`, then `stream_length` itself.
[[nodiscard]] ConfigSpace elementwise_space(int64_t stream_length);
[[nodiscard]] ElementwiseSchedule elementwise_schedule_at(const ConfigSpace& space, int64_t index);
/// Throws KernelError naming `op` unless chunk > 0.
void validate_elementwise_schedule(const ElementwiseSchedule& schedule, const std::string& op);

}  // namespace layoutopt::kernels
