#pragma once
// Where a network leaves the activations a step reads: in the private caches of the cores
// that wrote them, each core holding the rows it produced.
//
// Why it matters: a kernel's threads split its work into contiguous ranges of work items.
// Split by output rows, each thread reads the input rows it needs, which the previous step's
// same thread wrote (a spatially split producer): they are in its own L2. Split by output-
// channel blocks, each thread reads every input channel of every row, half of them written
// by the other core, whose L2 holds them modified, which can more than double the step's
// time. Timed with flushed caches (inputs in neither core's L2), the two splits look alike,
// and a plan picks the slow one where it is slow. Evidence: docs/design/step-inputs.md.
//
// So kernel and transform timings put their activation inputs where a network of
// spatially split steps leaves them: each thread rewrites its rows just before the run.
//
// A multi-stage kernel's intermediates (Winograd's transformed tiles) are the opposite case:
// inside a network the steps since the last Winograd step have streamed their weights
// through the caches, so its scratch is in memory, while timed run after run it stays cached
// and the kernel times too fast. So kernel timings evict the scratch before every run.
// Evidence: docs/design/cold-weights.md (cold scratch).

#include <cstdint>
#include <span>

#include "layoutopt/layout/layout.h"

namespace layoutopt::tuning {

/// Floats per plane of rows in `physical` layout: the product of the physical dimensions
/// from the height axis on ([N][C/x][H][W][x] -> H*W*x). Without a height axis (NC), the
/// whole tensor is one plane. `logical` is in the canonical order of its rank (NCHW, NC).
[[nodiscard]] int64_t row_plane_floats(std::span<const int64_t> logical, const layout::Layout& physical);

/// The floats [begin, end) of each plane that thread `thread` of `threads` writes: the
/// thread's contiguous share, as a kernel's static split of its row tiles gives it.
struct PlaneShare {
  int64_t begin = 0, end = 0;
};
[[nodiscard]] PlaneShare plane_share(int64_t plane_floats, int64_t thread, int64_t threads);

/// Rewrites every value of `tensor` in place, unchanged, from the current OpenMP team so
/// that thread t last wrote the t-th contiguous share of every plane of `plane_floats`
/// floats: in a blocked activation, its share of the rows, as a spatially split producer
/// leaves them. `tensor.size()` must be a multiple of `plane_floats`.
void write_rows_per_thread(std::span<float> tensor, int64_t plane_floats);

/// Writes back and drops every cache line of `memory` from all caches (CLFLUSHOPT where the
/// CPU has it, else CLFLUSH), so the next access comes from memory. A no-op off x86.
void evict_from_caches(std::span<float> memory);

}  // namespace layoutopt::tuning
