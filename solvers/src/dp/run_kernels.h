#pragma once
// The innermost loops of min-plus elimination (internal): adding runs of one factor's
// table to a block of the result, and keeping the element-wise minimum. They are compiled
// for AVX-512, AVX2 and the baseline ISA, and the loader picks the widest one the CPU has
// (an ifunc), so the binary stays portable while dp uses the whole vector width.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "layoutopt/solvers/cost.h"

namespace layoutopt::solvers::dp {

/// Where one run starts: in the result block and in the factor's table.
struct RunStart {
  size_t out;
  size_t in;
};

/// For every start s: out[s.out + i] (=, or += unless `assign`) in[s.in + i], or in[s.in]
/// for all i when `broadcast`, for i < extent.
void sum_runs(Cost* out, const Cost* in, const std::vector<RunStart>& starts, size_t extent, bool broadcast,
              bool assign);

/// out[i] = min(out[i], in[i]) for i < n.
void min_into(Cost* out, const Cost* in, size_t n);
/// The same, and choice[i] = candidate wherever in[i] is strictly smaller.
void min_into(Cost* out, const Cost* in, size_t n, uint16_t* choice, uint16_t candidate);

}  // namespace layoutopt::solvers::dp
