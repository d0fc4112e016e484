#include "layoutopt/tuning/timed_operands.h"

#include <algorithm>

#include "layoutopt/tuning/activation_placement.h"
#include "layoutopt/timing/cost_policy.h"
#include "layoutopt/timing/random_fill.h"

namespace layoutopt::tuning {

namespace {

size_t floats(int64_t count) { return static_cast<size_t>(count); }

// Copies start on page boundaries: as aligned as any tensor of a network, and apart.
constexpr size_t kFloatsPerPage = 4096 / sizeof(float);
size_t page_multiple(size_t count) { return (count + kFloatsPerPage - 1) / kFloatsPerPage * kFloatsPerPage; }

const float* or_null(const kernels::PageBlock& block) { return block.empty() ? nullptr : block.data(); }

}  // namespace

kernels::PageBlock random_block(size_t floats, uint64_t seed) {
  kernels::PageBlock block(floats);
  timing::fill_random(block.span(), seed);
  return block;
}

// Twice the span: cold_weight_copies(w) copies of a w-byte weight take up to span + w bytes,
// and a pool of just the span held one copy fewer of large weights, which then timed too
// fast. Evidence: docs/design/cold-weights.md.
ColdWeightPool::ColdWeightPool() : block_(random_block(2 * timing::cold_weight_bytes() / sizeof(float), 2)) {}

const ColdWeightPool& ColdWeightPool::shared() {
  static const ColdWeightPool pool;
  return pool;
}

namespace {

// Copies of a `stride`-float weight taken from the pool: `wanted`, or as many as fit it
// (0 when not even one does, or only one copy is wanted: those weights get a block of their own).
int64_t pooled_copies(size_t stride, int64_t wanted) {
  if (wanted <= 1 || stride == 0) return 0;
  const auto fit = static_cast<int64_t>(ColdWeightPool::shared().floats() / stride);
  return std::min(wanted, fit);
}

}  // namespace

KernelOperands::KernelOperands(const kernels::BufferSizes& sizes, int64_t weight_copies)
    : sizes_(sizes),
      weight_stride_(page_multiple(floats(sizes.weight))),
      input_(random_block(floats(sizes.input), 1)),
      weights_(0),
      bias_(random_block(floats(sizes.bias), 3)),
      residual_(random_block(floats(sizes.residual), 4)),
      output_(random_block(floats(sizes.output), 5)),
      scale_(random_block(floats(sizes.scale), 6)) {
  if (const int64_t pooled = pooled_copies(weight_stride_, weight_copies); pooled > 0) {
    weight_copies_ = pooled;
    first_weights_ = ColdWeightPool::shared().data();
  } else {
    weight_copies_ = std::max<int64_t>(weight_copies, 1);
    weights_ = random_block(weight_stride_ * floats(weight_copies_), 2);
    first_weights_ = weights_.empty() ? nullptr : weights_.data();
  }
}

kernels::KernelArgs KernelOperands::args(int64_t run) const {
  const float* weight =
      first_weights_ == nullptr ? nullptr : first_weights_ + weight_stride_ * floats(run % weight_copies_);
  return {or_null(input_), weight, or_null(bias_), or_null(residual_), output_.data(), or_null(scale_)};
}

void KernelOperands::place_activations(const ActivationExtent& input, const ActivationExtent& residual) {
  write_rows_per_thread(input_.span().first(floats(input.floats)), input.plane);
  if (!residual_.empty()) write_rows_per_thread(residual_.span().first(floats(residual.floats)), residual.plane);
}

}  // namespace layoutopt::tuning
