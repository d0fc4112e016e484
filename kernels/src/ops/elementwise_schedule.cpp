#include "layoutopt/kernels/elementwise_schedule.h"

#include "layoutopt/kernels/error.h"

namespace layoutopt::kernels {

namespace {

// Smallest candidate: 4 KB per work item amortizes the per-item setup many times over.
constexpr int64_t kMinChunk = 1024;

}  // namespace

ConfigSpace elementwise_space(int64_t stream_length) {
  if (stream_length <= 0) throw KernelError("elementwise_space: stream length must be positive");
  std::vector<int64_t> chunks;
  for (int64_t chunk = kMinChunk; chunk < stream_length; chunk *= 4) chunks.push_back(chunk);
  chunks.push_back(stream_length);
  ConfigSpace space;
  space.add(knobs::elementwise::tile_chunk, chunks);
  return space;
}

ElementwiseSchedule elementwise_schedule_at(const ConfigSpace& space, int64_t index) {
  return {space.point(index).at(knobs::elementwise::tile_chunk.name)};
}

void validate_elementwise_schedule(const ElementwiseSchedule& schedule, const std::string& op) {
  if (schedule.chunk <= 0)
    throw KernelError("invalid " + op + " schedule " + schedule.str() + ": chunk must be positive");
}

}  // namespace layoutopt::kernels
