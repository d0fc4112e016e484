#pragma once
// Features the cost model sees for one config: the knob values plus what makes direct
// NCHW[x]c convolutions fast or slow on SIMD CPUs (accumulator registers in use and whether
// they spill, vector-lane utilisation of the output block, remainder tiles along the width,
// weight-tile footprint, parallel work items and their order, the whole weight tensor's
// size and whether the kernel prefetches it, the stride and whether it prefetches its input
// rows), and the kernel family. The
// same layout for every family: depthwise and dense configs map onto the conv knobs (tile_c
// is both channel blocks, dense is a 1x1 conv over a 1x1 image), so one model can learn
// from every task of a session (TuningExperience).

#include <cstdint>
#include <span>
#include <vector>

#include "layoutopt/tuning/tuning_task.h"

namespace layoutopt::tuning {

inline constexpr size_t kConfigFeatureCount = 28;
/// Where two features sit: the accumulators a tile holds, and 1 when they exceed the host's
/// budget (kernels::HostInfo::tile_accumulators) so the tile spills, else 0.
inline constexpr size_t kAccumulatorsFeature = 6;
inline constexpr size_t kSpillsFeature = 7;
/// Reduction passes: log2 of the weight bytes one output block reads per pass, and the passes.
inline constexpr size_t kPassWeightsFeature = 22;
inline constexpr size_t kPassesFeature = 23;
/// 1 when the image is tiled as one row of pixels (kernels::Conv2dSchedule::flat_pixels).
inline constexpr size_t kFlatPixelsFeature = 24;
/// Output blocks per register tile (kernels::Conv2dSchedule::oc_tile_blocks).
inline constexpr size_t kTileBlocksFeature = 25;

/// How far past the registers a direct conv's register tile may reach and still be searched:
/// a tile needing more than this many times the accumulators the host's registers hold
/// (kernels::HostInfo::tile_accumulators) spills around every FMA, is never near its task's
/// best, and can take LLVM tens of seconds to compile (docs/design/register-tile-bound.md).
inline constexpr double kMaxTileOverRegisters = 2.0;

/// Whether a config with these features (a config_features row) is a direct conv (conv2d or
/// group_conv2d) whose register tile needs more than kMaxTileOverRegisters times the host's
/// accumulator registers. Other families size their tiles differently and are never so.
[[nodiscard]] bool tile_far_beyond_registers(const TuningTask& task, std::span<const float> features);

/// Features of config `index`, kConfigFeatureCount values.
[[nodiscard]] std::vector<float> config_features(const TuningTask& task, int64_t index);

/// Features of many configs, row-major (indices.size() x kConfigFeatureCount).
[[nodiscard]] std::vector<float> config_feature_rows(const TuningTask& task, const std::vector<int64_t>& indices);

}  // namespace layoutopt::tuning
