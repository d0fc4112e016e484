#pragma once
// Register spills in a kernel's multiplying loops: values LLVM's register allocator parks on
// the stack inside the loops that run the FMAs, because the register tile and what the loop
// keeps beside it outgrew the vector registers. Why a check of its own: a spilling kernel
// still computes the right numbers, so only its time shows it, and a step's time moves for
// many reasons; this names the cause. Two such finds (docs/design/partial-vectors.md,
// weight-prefetch.md) ran 1.5-2.4x slower than the same tile without the spills.

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "layoutopt/kernels/kernel.h"

namespace layoutopt::kernels {

/// What the loops holding FMAs of one compiled function contain.
struct LoopSpills {
  int64_t fmas = 0;         ///< FMA instructions in loops that hold any
  /// Spills and reloads of vector registers in those loops (also reloads folded into an
  /// instruction). General registers are not counted: their spills hold pointers and counts,
  /// reloaded once per work item or row, not per FMA.
  int64_t vector_moves = 0;

  /// Vector stack moves per FMA: 0 for a register tile that fits its registers.
  [[nodiscard]] double per_fma() const {
    return fmas > 0 ? static_cast<double>(vector_moves) / static_cast<double>(fmas) : 0.0;
  }
  LoopSpills& operator+=(const LoopSpills& other) {
    fmas += other.fmas;
    vector_moves += other.vector_moves;
    return *this;
  }
};

/// Counts LLVM's verbose x86 assembly (AT&T syntax, as JitEngine emits it): each basic block
/// belongs to the innermost loop its annotation names ("in Loop: Header=...", "Loop Header:
/// Depth=..."), or to none; every loop that holds an FMA (vfmadd, vfmsub, vfnmadd, vfnmsub)
/// adds its FMAs and its vector stack moves (instructions LLVM annotates "16-", "32-" or
/// "64-byte Spill" or "Reload").
/// Code outside loops (a kernel's entry, the end of a call) counts for nothing.
[[nodiscard]] LoopSpills count_loop_spills(std::string_view assembly);

/// The counts of each stage of the kernel `compile` returns (run order), generated again
/// from its own optimized IR by the JIT's own target machine, so the registers are allocated
/// as in the code that runs. `compile` runs with the IR kept, so a kernel compiled earlier
/// without it is compiled again (under a new symbol).
[[nodiscard]] std::vector<LoopSpills> register_spills(const std::function<Kernel()>& compile);

}  // namespace layoutopt::kernels
