#pragma once
// Pieces of the hand-made networks the runtime tests run: kernels of one stage that read the
// step's input and write its output, and slots each in a storage of its own.

#include <string>

#include "layoutopt/runtime/network_spec.h"

namespace layoutopt::testing {

/// A kernel of one stage over `work_items` items whose function reads the step's input and
/// writes its output (no weights, bias, residual or scale).
inline runtime::KernelSpec one_stage_kernel(const std::string& symbol, int64_t work_items) {
  using runtime::StageOperand;
  return {symbol,
          {{symbol,
            {StageOperand::input, StageOperand::none, StageOperand::none, StageOperand::none, StageOperand::output,
             StageOperand::none},
            work_items, false, false, false, false, false}},
          {},
          0};
}

/// Adds slots 0 .. count - 1 of `floats` floats each, every one in a storage of its own, one
/// after another in the arena.
inline void add_slots_in_own_storage(runtime::NetworkSpec& n, int32_t count, int64_t floats) {
  for (int32_t s = 0; s < count; ++s) {
    n.slots.push_back({s, floats, 0});
    n.storage_offsets.push_back(s * floats);
  }
  n.arena_floats = count * floats;
}

}  // namespace layoutopt::testing
