#pragma once
// WinogradAxis: how one spatial axis of a Winograd convolution's output (its rows or its
// columns) is cut into tiles of m outputs, for a dilation d and stride 1.
//
// With dilation d the outputs of one phase p = x mod d are an undilated 3-tap convolution over
// the inputs of the same phase, so a tile holds m outputs of one phase, d apart: origin,
// origin + d, ..., origin + (m - 1) d, computed from the alpha = m + 2 inputs
// origin - pad + d r. Tiles are numbered phase-minor: tile i is phase i mod d of group i / d,
//   origin(i) = (i / d) * d * m + i mod d,
// so the d tiles of a group cover d * m consecutive outputs and their inputs, which keeps a
// band of tile rows (and a thread's walk along a tile row) compact in memory. The last group
// holds only the phases that still have outputs, so no tile is empty. With d = 1 this is the
// plain tiling, tile i at i * m.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ceil_div.h"

namespace layoutopt::kernels::conv {

/// Consecutive tiles [first, end) that store the same number of outputs each.
struct TileRun {
  int64_t first = 0, end = 0;
  int64_t stored = 0;
};

struct WinogradAxis {
  int64_t outputs = 1;   ///< out_h or out_w
  int64_t dilation = 1;
  int64_t m = 2;

  /// Outputs between the origins of two groups.
  [[nodiscard]] int64_t group_span() const { return dilation * m; }
  /// Groups of tiles: enough for phase 0, the phase with the most outputs.
  [[nodiscard]] int64_t groups() const { return ceil_div(ceil_div(outputs, dilation), m); }
  /// Tiles: d per group, the last group's only for phases that reach into it.
  [[nodiscard]] int64_t tiles() const {
    const int64_t leading = (groups() - 1) * dilation;
    return leading + std::min(dilation, outputs - (groups() - 1) * group_span());
  }
  [[nodiscard]] int64_t origin(int64_t tile) const { return tile / dilation * group_span() + tile % dilation; }
  /// Outputs the tile stores: those of its m that exist.
  [[nodiscard]] int64_t stored(int64_t tile) const { return std::min(m, ceil_div(outputs - origin(tile), dilation)); }

  /// The tiles in runs of equal stored(): first the full ones (a run that may be empty),
  /// then the partial ones of the last group, each storing fewer (stored() never grows with
  /// the tile, and only the last group's tiles can fall short).
  [[nodiscard]] std::vector<TileRun> runs() const {
    int64_t full = (groups() - 1) * dilation;
    while (full < tiles() && stored(full) == m) ++full;
    std::vector<TileRun> result{{0, full, m}};
    for (int64_t tile = full; tile < tiles(); ++tile) {
      if (result.back().stored != stored(tile)) result.push_back({tile, tile, stored(tile)});
      result.back().end = tile + 1;
    }
    return result;
  }
};

}  // namespace layoutopt::kernels::conv
