// The Hopper stages' addressing (gemmlab/tma_box.h, gemmlab/gmma_desc.h) on the host: the TMA's
// 128-byte swizzle against CuTe's Swizzle<3,3,3> values from CUTLASS 4.7 (cutlass_layouts.json),
// the wgmma descriptor's fields, the k16 step's address advance, and the accumulator fragment.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "gemmlab/gmma_desc.h"
#include "gemmlab/hopper_shapes.h"
#include "gemmlab/persistent_schedule.h"
#include "gemmlab/tma_box.h"
#include "support.h"

using namespace gemmlab;

namespace {

std::vector<long long> cute_values(int b, int m, int s) {
  for (const auto& c : test::cutlass_cases("cute_swizzle"))
    if (c["B"] == b && c["M"] == m && c["S"] == s) return c["values"].get<std::vector<long long>>();
  return {};
}

}  // namespace

// CU_TENSOR_MAP_SWIZZLE_128B on a box of 64-half rows is CuTe's SW128 atom for 16-bit types:
// Swizzle<3,3,3> on half offsets (CUTLASS's GMMA::Layout_K_SW128_Atom).
TEST(TmaBox, Swizzle128MatchesCute) {
  const std::vector<long long> want = cute_values(3, 3, 3);
  ASSERT_EQ(want.size(), 4096u);  // 64 rows of 64 halves
  for (int i = 0; i < 4096; ++i) {
    const int row = i / tma::kBoxK, k = i % tma::kBoxK;
    ASSERT_EQ(tma::sw128_offset(row, k), 2 * want[i]) << "row " << row << " k " << k;
  }
}

// An ldmatrix phase (8 rows at one 16-byte chunk) and a wgmma core matrix read 8 rows of one
// chunk: after the swizzle they sit in 8 different 16-byte bank groups (no conflict).
TEST(TmaBox, EightRowsOfAChunkHitEightBankGroups) {
  for (int row0 = 0; row0 < 256; row0 += 8)
    for (int k = 0; k < tma::kBoxK; k += 8) {
      std::set<int> groups;
      for (int r = 0; r < 8; ++r) groups.insert((tma::sw128_offset(row0 + r, k) / 16) % 8);
      EXPECT_EQ(groups.size(), 8u) << "rows " << row0 << "+, k " << k;
    }
  // Without the swizzle every row would start in bank group 0.
  EXPECT_EQ(tma::sw128_offset(3, 0) % 128, 48u);
}

TEST(TmaBox, PlansAndRules) {
  EXPECT_EQ(tma::box_bytes(128), 16384);
  EXPECT_TRUE(tma::k_supported(4096));
  EXPECT_FALSE(tma::k_supported(65));
}

TEST(GmmaDesc, FieldsAreWhereThePtxIsaPutsThem) {
  const std::uint64_t d = gmma::sw128_k_major(0x1C400, 0, 0);
  EXPECT_EQ(d & 0x3FFF, 0x1C400u >> 4);           // start address
  EXPECT_EQ((d >> 16) & 0x3FFF, 1u);              // leading byte offset 16 >> 4
  EXPECT_EQ((d >> 32) & 0x3FFF, 1024u >> 4);      // stride byte offset: the next 8 rows
  EXPECT_EQ((d >> 49) & 0x7, 0u);                 // base offset: boxes are 1024-byte aligned
  EXPECT_EQ(d >> 62, 1u);                         // 128-byte swizzle
  // Rows 64.. of a 128-row A box (the second consumer) and k step 48.
  EXPECT_EQ(gmma::sw128_k_major(0x1C400, 64, 48) & 0x3FFF, (0x1C400u + 64 * 128 + 96) >> 4);
}

// What the tensor core reads for element (r, k) of the k16 step at kk: the descriptor's start plus
// (r / 8) stride bytes plus (r % 8) 128-byte rows plus 2 k bytes, with the 128-byte swizzle applied
// to the address bits (bits 4-6 ^= bits 7-9). It must be where the TMA wrote (row r, k kk + k).
TEST(GmmaDesc, StepAdvanceReadsWhatTheTmaWrote) {
  for (int kk = 0; kk < tma::kBoxK; kk += 16)
    for (int r = 0; r < 256; ++r)
      for (int k = 0; k < 16; ++k) {
        const std::uint64_t d = gmma::sw128_k_major(0, 0, kk);
        const std::uint32_t start = std::uint32_t(d & 0x3FFF) << 4;
        const std::uint32_t stride = std::uint32_t((d >> 32) & 0x3FFF) << 4;
        const std::uint32_t linear = start + (r / 8) * stride + (r % 8) * 128 + 2 * k;
        const std::uint32_t physical = linear ^ (((linear >> 7) & 7u) << 4);
        ASSERT_EQ(physical, tma::sw128_offset(r, kk + k)) << "r " << r << " kk " << kk << " k " << k;
      }
}

// m64n256k16: 128 threads x 128 floats cover the 64 x 256 tile once; each warp its own 16 rows.
TEST(GmmaDesc, AccumulatorFragmentCoversTheTileOnce) {
  std::set<std::pair<int, int>> seen;
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < 128; ++i) {
      const FragCoord c = gmma::accumulator(t, i);
      EXPECT_EQ(c.row / 16, t / 32);
      EXPECT_TRUE(seen.insert({c.row, c.col}).second);
    }
  EXPECT_EQ(seen.size(), 64u * 256u);
}

// Stage 19's staging: every accumulator of a chunk in its own place of the slot's 8 KB, and each
// the thread's base for i % 4 plus 1 KB per n8 block, the form the kernel stores with.
TEST(GmmaDesc, StagingOffsetsFillEachChunkOnceFromFourBases) {
  for (int q = 0; q < 8; ++q) {
    std::set<std::uint32_t> seen;
    for (int t = 0; t < 128; ++t)
      for (int j = 0; j < 16; ++j) {
        const int i = 16 * q + j;
        const std::uint32_t at = gmma::c_staging_offset(t, i);
        EXPECT_EQ(at % 4, 0u);
        EXPECT_TRUE(seen.insert(at).second) << "t " << t << " i " << i;
        EXPECT_EQ(at, gmma::c_staging_offset(t, i % 4) + gmma::c_staging_step(i)) << "t " << t << " i " << i;
        const FragCoord e = gmma::accumulator(t, i);
        EXPECT_EQ(at, (e.row / 32) * 4096 + tma::c_box_offset(e.row % 32, e.col - 32 * q));
      }
    EXPECT_EQ(seen.size(), 2048u);
    EXPECT_EQ(*seen.rbegin(), 8192u - 4);
  }
}

TEST(HopperShapes, WgmmaStage) {
  using S = kernels::hopper::WgmmaStage::Shape;
  // 128 x 128 tile: 2 warpgroups of 64 x 128 (64 accumulators a thread), A and B boxes of
  // 128 rows x 128 bytes, 4 stages + the 1024-byte alignment slack + 8 mbarriers.
  EXPECT_EQ(S::kConsumers, 2);
  EXPECT_EQ(S::kAccumulators, 64);
  EXPECT_EQ(S::kStageBytes, 32768);
  EXPECT_EQ(S::kSmemBytes, 4u * 32768 + 1024 + 64);
  EXPECT_EQ(kernels::hopper::WarpSpecializedStage::Shape::kSmemBytes, 4u * 49152 + 1024 + 64);
  EXPECT_LE(S::kSmemBytes, 232448u);  // the H100's 227 KB opt-in limit per block
  EXPECT_LE(kernels::hopper::TmaStage::kSmemBytes, 232448u);
}

// The persistent stage's scheduler: every output tile once, both blocks of a unit on the same n
// tile (they share B), neighbouring m tiles; padding units only past N.
TEST(PersistentSchedule, EveryTileOnceAndPairsShareN) {
  for (auto [tm, tn] : {std::pair{32, 16}, std::pair{64, 32}, std::pair{7, 3}, std::pair{1, 1}, std::pair{9, 20}}) {
    const persistent::Plan p = persistent::make_plan(tm, tn, 2, 8);
    std::set<std::pair<int, int>> seen;
    for (int u = 0; u < p.units(); ++u) {
      const GemmCoord a = persistent::unit_tile(p, u, 0), b = persistent::unit_tile(p, u, 1);
      EXPECT_EQ(a.n, b.n);
      EXPECT_EQ(b.m, a.m + 1);
      if (a.n >= tn) continue;
      for (const GemmCoord& t : {a, b}) {
        if (t.m < tm) {
          EXPECT_TRUE(seen.insert({t.m, t.n}).second) << t.m << "," << t.n;
        }
      }
    }
    EXPECT_EQ(seen.size(), size_t(tm) * size_t(tn)) << tm << "x" << tn;
  }
}

// Narrowed rows: every column of every tile row once, both blocks of a unit on the same columns,
// widths 240-256; every cluster takes the same number of units (4096^3: 4; 8192 x 4096: 8; 2048 x
// 8192: 4 with 33-tile rows of 248 and 256 columns).
TEST(PersistentSchedule, NarrowedRowsCoverEveryColumnOnce) {
  struct Case { int m, n, k, narrow_rows; };
  for (const Case c : {Case{4096, 4096, 4096, 8}, Case{8192, 4096, 4096, 16}, Case{2048, 8192, 8192, 8}}) {
    const persistent::Plan p = persistent::make_plan(c.m / 128, c.n / 256, 2, 8, c.k / 64, 66, true, 256, c.n);
    ASSERT_EQ(p.narrow_rows, c.narrow_rows) << c.m << "x" << c.n;
    EXPECT_EQ(p.units() % p.clusters, 0);
    std::vector<std::vector<int>> covered(static_cast<size_t>(p.tiles_m), std::vector<int>(static_cast<size_t>(c.n), 0));
    for (int u = 0; u < p.units(); ++u) {
      const persistent::UnitColumns a = persistent::unit_columns(p, u, 0), b = persistent::unit_columns(p, u, 1);
      EXPECT_EQ(a.col0, b.col0);
      EXPECT_EQ(a.cols, b.cols);
      EXPECT_EQ(b.m_tile, a.m_tile + 1);
      EXPECT_TRUE(a.cols == 240 || a.cols == 248 || a.cols == 256) << a.cols;
      for (const auto& t : {a, b})
        for (int x = t.col0; x < t.col0 + t.cols; ++x) ++covered[static_cast<size_t>(t.m_tile)][static_cast<size_t>(x)];
    }
    for (const auto& row : covered)
      for (int v : row) ASSERT_EQ(v, 1);
    EXPECT_LT(50 * persistent::longest_cluster_cols(p), 49LL * (p.units() / p.clusters) * 256);
  }
}

// The stream-k tail: every (unit, k-tile) computed once; a split unit's k-tile-0 piece is the
// first tail segment of its cluster (it waits for nothing), and the clusters' tail shares differ
// by at most one k-tile.
TEST(PersistentSchedule, TailCoversEveryKTileOnceAndStartsFirst) {
  for (auto [tm, tn, kt, cl] : {std::tuple{32, 16, 64, 66}, std::tuple{64, 32, 128, 66}, std::tuple{9, 8, 7, 5},
                                std::tuple{18, 8, 2, 66}, std::tuple{3, 16, 1, 20}, std::tuple{20, 8, 5, 7},
                                std::tuple{4, 2, 256, 66}, std::tuple{2, 1, 528, 66}, std::tuple{4, 4, 512, 66},
                                std::tuple{12, 6, 128, 66}, std::tuple{22, 3, 64, 66}, std::tuple{8, 4, 255, 66}}) {
    const persistent::Plan p = persistent::make_plan(tm, tn, 2, 8, kt, cl, true);
    SCOPED_TRACE(testing::Message() << tm << "x" << tn << " k-tiles " << kt << " clusters " << cl);
    std::map<int, std::vector<int>> covered;  // unit -> k-tiles
    long long min_tail = 1LL << 40, max_tail = 0;
    for (int c = 0; c < p.clusters; ++c) {
      long long tail = 0;
      bool first_tail = true;
      for (int s = 0; s < persistent::segments(p, c); ++s) {
        const persistent::Segment g = persistent::segment(p, c, s);
        ASSERT_LT(g.k_begin, g.k_end);
        for (int k = g.k_begin; k < g.k_end; ++k) covered[g.unit].push_back(k);
        if (g.unit >= p.dp_units) {
          tail += g.k_end - g.k_begin;
          if (g.stores() && !g.whole(kt)) {
            EXPECT_TRUE(first_tail) << "cluster " << c;
          }
          first_tail = false;
        }
      }
      const bool idle = p.group > 0 && c >= p.group * p.tail_units;  // a group's leftover clusters
      if (p.tail_units && !idle) min_tail = std::min(min_tail, tail), max_tail = std::max(max_tail, tail);
    }
    EXPECT_EQ(int(covered.size()), p.units());
    for (auto& [unit, ks] : covered) {
      std::sort(ks.begin(), ks.end());
      ASSERT_EQ(int(ks.size()), kt) << "unit " << unit;
      for (int k = 0; k < kt; ++k) EXPECT_EQ(ks[k], k);
    }
    if (p.tail_units) {
      EXPECT_LE(max_tail - min_tail, 1);
    }
  }
  EXPECT_EQ(persistent::make_plan(64, 32, 2, 8, 128, 66, true).tail_units, 34);  // 8192^3
  EXPECT_EQ(persistent::make_plan(32, 16, 2, 8, 64, 66, true).tail_units, 0);    // 4096^3: 58 of 66
  EXPECT_EQ(persistent::make_plan(32, 16, 2, 8, 64, 64, true).tail_units, 0);    // 4 whole rounds
  EXPECT_EQ(persistent::make_plan(18, 8, 2, 8, 2, 66, true).tail_units, 6);      // gpu_check's tail size
  // Fewer units than clusters: all split over every cluster where the pieces are long enough.
  const persistent::Plan skinny = persistent::make_plan(4, 2, 2, 8, 256, 66, true);  // 512 x 512 x 16384
  EXPECT_EQ(skinny.tail_units, 4);
  EXPECT_EQ(skinny.clusters, 66);
  EXPECT_EQ(skinny.group, 16);  // 16 clusters a unit, the same k ranges for all 4; 2 clusters idle
  EXPECT_EQ(persistent::make_plan(8, 4, 2, 8, 256, 66, true).group, 4);   // 1024 x 1024 x 16384: 16 units
  EXPECT_EQ(persistent::make_plan(12, 6, 2, 8, 128, 66, true).group, 0);  // 1536 x 1536 x 8192: 36 units
  EXPECT_EQ(persistent::make_plan(12, 5, 2, 8, 128, 66, true).group, 0);  // 30 units: 2 a unit leave 6 idle
  EXPECT_EQ(persistent::make_plan(22, 3, 2, 8, 64, 66, true).group, 2);   // 33 units, 2 a unit, none idle

  EXPECT_EQ(persistent::make_plan(4, 2, 2, 8, 256, 66, false).clusters, 4);  // no TMA store: no split
  EXPECT_EQ(persistent::make_plan(2, 1, 2, 8, 528, 66, true).tail_units, 1);  // gpu_check's one-unit split
  EXPECT_EQ(persistent::make_plan(2, 1, 2, 8, 527, 66, true).tail_units, 0);  // 7.98 k-tiles a piece
  EXPECT_EQ(persistent::make_plan(4, 2, 2, 8, 8, 66, true).tail_units, 0);    // 512^3: 32 k-tiles in all
  EXPECT_EQ(persistent::make_plan(8, 6, 2, 8, 12, 66, true).tail_units, 0);   // 1000 x 1500 x 712
}
