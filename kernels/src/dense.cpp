#include "layoutopt/kernels/dense.h"

#include <algorithm>

#include "conv/accumulator_tile.h"
#include "layoutopt/kernels/conv2d.h"
#include "layoutopt/kernels/error.h"
#include "layoutopt/kernels/host.h"
#include "layoutopt/kernels/knob_table.h"
#include "layoutopt/kernels/tunable_op.h"
#include "layoutopt/layout/weight_layouts.h"

namespace layoutopt::kernels {

namespace {

// dense is a 1x1 convolution of one 1 x rows image: NC[x]c with N outermost is the same
// memory as row-major [rows][features] for every x, which is NCHW[features]c with N = H = 1
// and W = rows. The conv reads its input in that one block (load_bn) while reducing in in_bn,
// and stores in it (store_bn) while computing in out_bn; OI[x]i[y]o is OIHW[x]i[y]o with
// KH = KW = 1. Each work item is one output block over all rows, its weights reused by
// every row tile.
Conv2dDesc as_conv(const DenseDesc& d) {
  Conv2dDesc conv;
  conv.batch = 1;
  conv.in_channels = d.in_features;
  conv.in_h = 1;
  conv.in_w = d.batch;
  conv.out_channels = d.out_features;
  conv.epilogue = d.epilogue;
  return conv;
}

Conv2dSchedule as_conv(const DenseDesc& d, const DenseSchedule& s) {
  return {.ic_bn = s.in_bn,
          .oc_bn = s.out_bn,
          .ow_bn = s.rows_bn,
          .unroll_kw = true,
          .oh_bn = 1,
          .oc_inner = false,
          .prefetch_weights = s.prefetch_weights,
          .store_bn = d.out_features,
          .load_bn = d.in_features};
}

void require(bool ok, const DenseDesc& desc, const DenseSchedule& schedule, const std::string& what) {
  if (!ok) throw KernelError("invalid dense schedule " + schedule.str() + " for " + desc.str() + ": " + what);
}

}  // namespace

void DenseDesc::validate() const {
  if (batch <= 0 || in_features <= 0 || out_features <= 0)
    throw KernelError("invalid dense desc " + str() + ": batch and feature counts must be positive");
}

double DenseDesc::flops() const { return 2.0 * static_cast<double>(batch * in_features * out_features); }

std::string DenseDesc::str() const {
  return "n" + std::to_string(batch) + "_i" + std::to_string(in_features) + "_o" + std::to_string(out_features) +
         "_" + epilogue.str();
}

std::string DenseSchedule::str() const {
  return "in" + std::to_string(in_bn) + "_out" + std::to_string(out_bn) + (prefetch_weights ? "_pf" : "") +
         (rows_bn == 1 ? "" : "_rows" + std::to_string(rows_bn));
}

ConfigSpace dense_space(const DenseDesc& desc) {
  desc.validate();
  ConfigSpace space;
  namespace k = knobs::dense;
  space.add(k::tile_in, divisors(desc.in_features));
  space.add(k::tile_out, divisors(desc.out_features));
  space.add(k::prefetch_weights, {0, 1}, 0);
  // Only with rows to tile: single-row spaces, their records and plans stay as they were.
  if (desc.batch > 1) space.add(k::tile_rows, inclusive_range(1, std::min(desc.batch, conv::kMaxTileWidth)), 1);
  return space;
}

DenseSchedule dense_schedule_at(const ConfigSpace& space, int64_t index) {
  const auto point = space.point(index);
  namespace k = knobs::dense;
  const auto rows = point.find(k::tile_rows.name);
  return {point.at(k::tile_in.name), point.at(k::tile_out.name), point.at(k::prefetch_weights.name) != 0,
          rows == point.end() ? 1 : rows->second};
}

DenseSchedule dense_default_schedule(const DenseDesc& desc) {
  desc.validate();
  // Two output vectors per row: each broadcast input then feeds two FMAs, which keeps the
  // loads below the FMAs (one vector needs a broadcast per FMA). The rest of the register
  // file, less two weight vectors, a broadcast and a spare, holds the rows.
  const int64_t lanes = host_info().vector_lanes;
  DenseSchedule s;
  s.in_bn = default_channel_block(desc.in_features);
  const bool two_vectors = desc.batch > 1 && desc.out_features % (2 * lanes) == 0;
  s.out_bn = two_vectors ? 2 * lanes : default_channel_block(desc.out_features);
  const int64_t chunks = host_info().vectors_spanning(s.out_bn);
  s.rows_bn = std::clamp<int64_t>(host_info().tile_accumulators() / chunks, 1, desc.batch);
  return s;
}

void validate_dense(const DenseDesc& desc, const DenseSchedule& s) {
  desc.validate();
  require(s.in_bn > 0 && desc.in_features % s.in_bn == 0, desc, s,
          "in_bn must divide in_features = " + std::to_string(desc.in_features));
  require(s.out_bn > 0 && desc.out_features % s.out_bn == 0, desc, s,
          "out_bn must divide out_features = " + std::to_string(desc.out_features));
  require(s.rows_bn > 0 && s.rows_bn <= desc.batch, desc, s,
          "rows_bn must lie in [1, rows = " + std::to_string(desc.batch) + "]");
}

DenseLayouts dense_layouts(const DenseDesc& desc, const DenseSchedule& s) {
  validate_dense(desc, s);
  return {layout::Layout::nc().split('C', s.in_bn), layout::dense_weight_layout(s.in_bn, s.out_bn),
          layout::Layout::nc().split('C', s.out_bn)};
}

Kernel compile_dense(const DenseDesc& desc, const DenseSchedule& schedule) {
  validate_dense(desc, schedule);
  return compile_conv2d(as_conv(desc), as_conv(desc, schedule));
}

}  // namespace layoutopt::kernels
