#pragma once
// An ahead-of-time artifact's weights.bin: every constant of the network, already re-laid in
// the plan's layouts, as one image of floats (the NetworkSpec's ConstantRanges index it):
//
//   "LOWEIGHT"  u32 version  u32 0  u64 floats  u64 checksum of the floats  floats
//
// Read straight into huge-page memory (page_block.h), checksummed, and checked against the
// seal program.bin records, so weights from another compile or a damaged copy are refused.

#include <filesystem>
#include <span>

#include "layoutopt/runtime/artifact_program.h"
#include "layoutopt/runtime/page_block.h"

namespace layoutopt::runtime {

/// Writes the file; returns its seal. Throws ArtifactError when it cannot be written.
WeightsSeal write_weights_file(const std::filesystem::path& path, std::span<const float> weights);

/// Throws ArtifactError for a missing, truncated, damaged or foreign file (one whose size or
/// checksum differs from `expected`).
[[nodiscard]] PageBlock read_weights_file(const std::filesystem::path& path, const WeightsSeal& expected);

}  // namespace layoutopt::runtime
