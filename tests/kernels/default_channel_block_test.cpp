// The default channel block by rule, on the three kinds of vector unit it tells apart.

#include "layoutopt/kernels/default_channel_block.h"

#include <doctest/doctest.h>

#include "kernels/vector_units.h"

using layoutopt::kernels::default_channel_block;
using layoutopt::kernels::HostInfo;
using layoutopt::kernels::testing::kAvx2;
using layoutopt::kernels::testing::kFullWidth;
using layoutopt::kernels::testing::kSplitWidth;

TEST_CASE("16 channels to a block wherever 16 divides, on every host") {
  for (const HostInfo& h : {kFullWidth, kSplitWidth, kAvx2})
    for (const int64_t channels : {16, 64, 464, 2048}) CHECK(default_channel_block(channels, h) == 16);
}

TEST_CASE("8 channels to a block where 8 lanes run at the full rate, a better-filled block where they do not") {
  for (const int64_t channels : {24, 40, 232, 1000}) {
    CAPTURE(channels);
    CHECK(default_channel_block(channels, kSplitWidth) == 8);
    CHECK(default_channel_block(channels, kAvx2) == 8);
  }
  // With full-width units, up to four vectors: 24 in 16 + 8 lanes (3/4 of two vectors, as 12
  // of 16; the larger feeds each broadcast to two FMAs), 40 in 40 of 48, 232 in 58 of 64 (as
  // 29 of 32), 1000 in 40 of 48, 440 in 44 of 48.
  CHECK(default_channel_block(24, kFullWidth) == 24);
  CHECK(default_channel_block(40, kFullWidth) == 40);
  CHECK(default_channel_block(232, kFullWidth) == 58);
  CHECK(default_channel_block(1000, kFullWidth) == 40);
  CHECK(default_channel_block(440, kFullWidth) == 44);
  // Nothing fills more than half: 8 channels stay in their half vector.
  CHECK(default_channel_block(8, kFullWidth) == 8);
}

TEST_CASE("channels no 8 divides: the best-filled block of at most four vectors (two with AVX2), else plain") {
  for (const HostInfo& h : {kFullWidth, kSplitWidth}) {
    CHECK(default_channel_block(58, h) == 58);   // shufflenet: 58 of 64 lanes, as 29 of 32
    CHECK(default_channel_block(116, h) == 58);  // 116 would span eight vectors of 16
    CHECK(default_channel_block(74, h) == 37);   // 37 of 48
  }
  // With AVX2, 29 spans four vectors: shufflenet's widths stay plain (a GEMM over pixels).
  CHECK(default_channel_block(58, kAvx2) == 1);
  for (const HostInfo& h : {kFullWidth, kSplitWidth, kAvx2}) {
    CHECK(default_channel_block(3, h) == 1);    // an image: 3 of 8 or 16 lanes
    CHECK(default_channel_block(134, h) == 1);  // 2 x 67: no divisor fills more than half
  }
  CHECK(default_channel_block(26, kFullWidth) == 26);  // res2net: 26 of 32, as 13 of 16
  CHECK(default_channel_block(26, kAvx2) == 13);       // 13 of 16; 26 would span four vectors
  CHECK(default_channel_block(6, kFullWidth) == 1);    // 6 of 16
  CHECK(default_channel_block(6, kAvx2) == 6);         // 6 of 8
}
