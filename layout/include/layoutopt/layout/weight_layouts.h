#pragma once
// Weight re-layout for conv and dense schedules, done once ahead of inference. Every
// function returns a LayoutTransform from the framework's canonical order (OIHW, OI) to
// the blocked order a kernel consumes; run or apply() it on the weights. The exact memory
// order of each result is documented below because kernel writers index it directly.
//
// Notation: O output channels, I input channels of the conv, G groups, Ig = I / G input
// channels per filter, ib / ob the input / output channel blocks.

#include <cstdint>
#include <vector>

#include "layoutopt/layout/layout.h"
#include "layoutopt/layout/transform.h"

namespace layoutopt::layout {

/// Conv weights; their canonical (OIHW) logical shape is O x Ig x KH x KW.
struct ConvWeightShape {
  int64_t out_channels = 0;
  int64_t in_channels = 0;  ///< of the whole conv, all groups together
  int64_t kernel_h = 1;
  int64_t kernel_w = 1;
  int64_t groups = 1;
  /// {O, Ig, KH, KW}; throws LayoutError when the groups do not divide O and I.
  [[nodiscard]] std::vector<int64_t> logical() const;
};

/// "OIHW<ib>i<ob>o": memory [O/ob][Ig/ib][KH][KW][ib][ob]; element (o, i, kh, kw) is at
///   ((((o/ob) * (Ig/ib) + i/ib) * KH + kh) * KW + kw) * ib*ob + (i%ib) * ob + o%ob.
Layout conv_weight_layout(int64_t in_block, int64_t out_block);

/// Regular (G = 1) and grouped conv, OIHW -> conv_weight_layout(ib, ob). ib must divide Ig;
/// for G > 1, ob must divide O/G so no output block straddles two groups. Group g then owns
/// the outer blocks [g * O/G/ob, (g+1) * O/G/ob): the memory is [G][O/G/ob][Ig/ib][KH][KW][ib][ob].
LayoutTransform conv_weight_transform(const ConvWeightShape& shape, int64_t in_block, int64_t out_block);

/// Depthwise conv (Ig == 1, O = G * multiplier), OIHW -> "OIHW1i<b>o": memory
/// [O/b][KH][KW][b]; element (o, 0, kh, kw) is at (((o/b) * KH + kh) * KW + kw) * b + o%b.
/// A block may span groups: output channel o reads input channel o / multiplier only.
LayoutTransform depthwise_weight_transform(const ConvWeightShape& shape, int64_t block);

/// "OI<ib>i<ob>o", the dense weights' blocked layout (dense_weight_transform).
Layout dense_weight_layout(int64_t in_block, int64_t out_block);

/// Dense weights O x I, OI -> "OI<ib>i<ob>o": memory [O/ob][I/ib][ib][ob]; element (o, i)
/// is at ((o/ob) * (I/ib) + i/ib) * ib*ob + (i%ib) * ob + o%ob.
LayoutTransform dense_weight_transform(int64_t out_features, int64_t in_features, int64_t in_block, int64_t out_block);

}  // namespace layoutopt::layout
