// The dispatch rule (gemmlab/dispatch.h) on issue 51's shapes on an H200 (132 SMs): tile, K split,
// cluster, raster and the reason, each worked out by hand from the rule (comments beside them).
#include <gtest/gtest.h>

#include <cstdint>

#include "gemmlab/dispatch.h"

using namespace gemmlab;

namespace {

DeviceDesc h200() { return *device_preset("h200"); }

struct Expect {
  GemmCoord problem;
  int tile_m, tile_n, cluster_m;
  KSplit split;
  int splits;
  long long blocks;
  const char* order;
  long long footprint;  // bytes per k-tile: (A rows + B columns of the first wave) x 64 x 2
};

// clang-format off
const Expect kTable[] = {
  // 32 x 32 tiles of 128 x 256 = 1024, 8 waves, 97%; along N (32 n tiles, not more than m); the
  // swizzle 8 wave = 8 m rows x 17 n columns -> (8*128 + 17*256) * 128.
  {{4096, 8192, 8192},   128, 256, 2, KSplit::None,   1, 1024, "along-n:8", (8 * 128 + 17 * 256) * 128},
  // 32 x 112 = 3584 tiles, 28 waves, 97%; along M; 8 n columns x 17 m rows.
  {{4096, 28672, 8192},  128, 256, 2, KSplit::None,   1, 3584, "along-m:8", (17 * 128 + 8 * 256) * 128},
  {{4096, 8192, 28672},  128, 256, 2, KSplit::None,   1, 1024, "along-n:8", (8 * 128 + 17 * 256) * 128},
  {{4096, 10240, 8192},  128, 256, 2, KSplit::None,   1, 1280, "along-m:8", (17 * 128 + 8 * 256) * 128},
  {{16384, 8192, 8192},  128, 256, 2, KSplit::None,   1, 4096, "along-n:8", (8 * 128 + 17 * 256) * 128},
  // 64 x 4 = 256 tiles, 2 waves, 97%; only 4 n tiles: swizzle 1 reads 33 m rows x 4 columns.
  {{8192, 1024, 8192},   128, 256, 2, KSplit::None,   1, 256,  "along-n:1", (33 * 128 + 4 * 256) * 128},
  // 16 x 8 = 128 tiles, one wave of 97%: every swizzle reads the whole problem, so the smallest.
  {{2048, 2048, 2048},   128, 256, 2, KSplit::None,   1, 128,  "along-n:1", (16 * 128 + 8 * 256) * 128},
  // 128 x 256: 32 tiles (24%), 128 x 128 and 64 x 256: 64 (48%), 64 x 128: 128 (97%).
  {{1024, 1024, 1024},   64, 128,  2, KSplit::None,   1, 128,  "along-n:1", (16 * 64 + 8 * 128) * 128},
  {{128, 8192, 8192},    64, 128,  2, KSplit::None,   1, 128,  "along-m:1", (2 * 64 + 64 * 128) * 128},
  // M <= 64: 64-row tiles only; 112 tiles of 64 x 256 (85%), 224 of 64 x 128 in 2 waves (85%):
  // one slice per SM cannot be split evenly -> stream-k (get_blocks: 132 SK blocks, no DP tile).
  {{64, 28672, 8192},    64, 256,  1, KSplit::StreamK, 1, 132, "along-m:1", (1 * 64 + 112 * 256) * 128},
  // 64 tiles of 64 x 128 (48%) -> 132 / 64 = 2 slices of 64 k-tiles: 128 blocks.
  {{16, 8192, 8192},     64, 128,  1, KSplit::SplitK,  2, 128, "along-m:1", (1 * 64 + 64 * 128) * 128},
  // 32 tiles of 64 x 128 (24%) -> 4 slices of 64 k-tiles: 128 blocks.
  {{512, 512, 16384},    64, 128,  1, KSplit::SplitK,  4, 128, "along-n:1", (8 * 64 + 4 * 128) * 128},
};
// clang-format on

TEST(Dispatch, IssueTableOnH200) {
  for (const Expect& e : kTable) {
    const auto d = dispatch_fp16(e.problem, h200());
    ASSERT_TRUE(d.ok()) << d.error();
    const std::string at = std::to_string(e.problem.m) + "x" + std::to_string(e.problem.n) + "x" + std::to_string(e.problem.k);
    EXPECT_EQ(d->tile_m, e.tile_m) << at;
    EXPECT_EQ(d->tile_n, e.tile_n) << at;
    EXPECT_EQ(d->cluster_m, e.cluster_m) << at;
    EXPECT_EQ(d->cluster_n, 1) << at;
    EXPECT_EQ(d->split, e.split) << at;
    EXPECT_EQ(d->splits, e.splits) << at;
    EXPECT_EQ(d->blocks, e.blocks) << at;
    EXPECT_EQ(d->order, e.order) << at;
    EXPECT_EQ(d->wave_footprint_bytes, e.footprint) << at;
    EXPECT_GE(d->fill, kGoodFill) << at << ": " << d->explanation;
  }
}

TEST(Dispatch, ExplanationsSayWhy) {
  auto d = dispatch_fp16({16, 8192, 8192}, h200());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->explanation,
            "M = 16: 1 wave of 64 tiles of 64 x 128 would fill 48% of the 132 SMs -> split K 2 ways (64 k-tiles "
            "each): 128 blocks fill 97%, cluster 1 x 1, along-m:1");
  d = dispatch_fp16({64, 28672, 8192}, h200());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->dp_tiles, 0);
  EXPECT_EQ(d->sk_blocks, 132);
  EXPECT_NEAR(d->fill, 14336.0 / (109 * 132), 1e-12);  // 112 x 128 k-iterations, 109 per SK block
  EXPECT_EQ(d->explanation,
            "M = 64: 112 tiles of 64 x 256 = 0.85 waves on 132 SMs would keep 85% busy -> stream-k: 0 tiles "
            "data-parallel, 132 blocks share the rest, cluster 1 x 1, along-m:1");
  d = dispatch_fp16({4096, 8192, 8192}, h200());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->explanation,
            "4096 x 8192: 1024 tiles of 128 x 256 = 7.76 waves on 132 SMs keep 97% busy -> one block per tile, "
            "cluster 2 x 1, along-n:8");
  ASSERT_EQ(d->candidates.size(), 4u);
  EXPECT_EQ(d->candidates[3].tiles, 4096);  // 64 x 128
}

// The SM count changes the choice: 2048^3 on an A100 (108 SMs): 128 x 256 -> 128 tiles in 2 waves
// (59%), 128 x 128 and 64 x 256 -> 256 in 3 (79%), 64 x 128 -> 512 in 5 (95%), the first >= 90%.
TEST(Dispatch, SmCountChangesTheTile) {
  DeviceDesc a100 = *device_preset("a100");
  ASSERT_EQ(a100.sms, 108);
  const auto d = dispatch_fp16({2048, 2048, 2048}, a100);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->candidates[0].tiles, 128);
  EXPECT_NEAR(d->candidates[0].fill, 128.0 / 216, 1e-12);
  EXPECT_NEAR(d->candidates[1].fill, 256.0 / 324, 1e-12);
  EXPECT_NEAR(d->candidates[3].fill, 512.0 / 540, 1e-12);
  EXPECT_EQ(d->tile_m, 64);
  EXPECT_EQ(d->tile_n, 128);
  EXPECT_EQ(d->split, KSplit::None);
}

// Generated problems: the rule's invariants hold for every shape, and bad input is an error.
TEST(Dispatch, GeneratedProblemsKeepTheRule) {
  std::uint32_t state = 51;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (int trial = 0; trial < 2000; ++trial) {
    const GemmCoord p{1 + int(next() % 20000), 1 + int(next() % 40000), 1 + int(next() % 40000)};
    DeviceDesc dev = h200();
    dev.sms = 1 + int(next() % 200);
    const auto d = dispatch_fp16(p, dev);
    ASSERT_TRUE(d.ok()) << d.error();
    EXPECT_TRUE(d->tile_m == 64 || p.m > 64);
    EXPECT_GE(d->splits, 1);
    EXPECT_LE(d->splits, kMaxSplits);
    if (d->split == KSplit::SplitK) {
      EXPECT_GE(d->k_tiles / d->splits, kMinSliceKTiles);
    }
    if (d->split != KSplit::None) {
      EXPECT_EQ(d->cluster_m, 1);
    }
    double best = 0;
    for (const TileFill& f : d->candidates) best = std::max(best, f.fill);
    EXPECT_GE(d->fill + 1e-12, std::min(best, kGoodFill)) << p.m << "x" << p.n << "x" << p.k << " " << d->explanation;
    EXPECT_FALSE(d->explanation.empty());
  }
  EXPECT_FALSE(dispatch_fp16({0, 8, 8}, h200()).ok());
  EXPECT_EQ(dispatch_fp16({8, 8, 1 << 21}, h200()).error(), "the problem's M, N and K must be 1 .. 1048576");
}

}  // namespace
