// Bank scenarios: the classic teaching results for ldmatrix on a 64-half (128-byte) row-major
// tile, checked against hardware_rules.md's measured rows, plus the tile arithmetic and every
// validation message.
#include <gtest/gtest.h>
#include <algorithm>

#include "gemmlab/bank_scenario.h"
#include "gemmlab/swizzle.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

// The banks view's default: a 16x64 tile of halves, ldsm.x4 A-operand style at (0,0).
BankScenarioParams halves_16x64(SmemLayoutKind layout) {
  BankScenarioParams p;
  p.layout = layout;
  p.rows = 16;
  p.cols = 64;
  p.element_bits = 16;
  p.op = *parse_smem_op("ldsm.x4");
  p.pattern = BankPattern::Ldmatrix;
  return p;
}

}  // namespace

// Unswizzled: each matrix's 8 rows are 128 B apart, all in banks 0-3. hardware_rules.md,
// "ldmatrix .x4 (and .trans) | rows 128 B apart | 32/28".
TEST(BankScenario, RowMajorLdmatrixX4IsEightWayPerMatrix) {
  auto s = build_bank_scenario(halves_16x64(SmemLayoutKind::RowMajor));
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->analysis.wavefronts, 32);
  EXPECT_EQ(s->analysis.conflicts, 28);
  for (int m = 0; m < 4; ++m) EXPECT_EQ(s->analysis.phases[m].wavefronts, 8) << "matrix " << m;
  // Matrix order (A operand): lane 8 = matrix 1 row 0 = tile row 8; lane 16 = matrix 2 row 0 =
  // tile row 0, columns 8-15 (byte 16).
  EXPECT_EQ(s->request.addresses[0], 0);
  EXPECT_EQ(s->request.addresses[1], 128);
  EXPECT_EQ(s->request.addresses[8], 8 * 128);
  EXPECT_EQ(s->request.addresses[16], 16);
  EXPECT_EQ(s->request.addresses[31], 15 * 128 + 16);
}

// Swizzle<3,3,3> on half offsets of 128-byte rows is Swizzle<3,4,3> on bytes: hardware_rules.md,
// "ldmatrix .x4 | rows 128 B apart, 16-byte chunk index XOR (row % 8) | 4/0".
TEST(BankScenario, Swizzle333OnHalvesIsConflictFree) {
  auto p = halves_16x64(SmemLayoutKind::Swizzle);
  p.swizzle = {3, 3, 3};
  auto s = build_bank_scenario(p);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->analysis.wavefronts, 4);
  EXPECT_EQ(s->analysis.conflicts, 0);
  const Swizzle<3, 4, 3> on_bytes;
  for (int t = 0; t < 32; ++t) {
    const int row = (t / 8 % 2) * 8 + t % 8, chunk = t / 16;
    EXPECT_EQ(s->request.addresses[t], on_bytes(row * 128 + chunk * 16)) << "lane " << t;
  }
}

// 16 bytes (8 halves) of padding per row: rows 144 B apart, row r starts in bank 4r mod 32, so
// a matrix's 8 rows cover the 32 banks once -> one wavefront per matrix.
TEST(BankScenario, SixteenBytePaddingIsConflictFree) {
  auto p = halves_16x64(SmemLayoutKind::Padded);
  p.pad_bytes = 16;
  auto s = build_bank_scenario(p);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->analysis.wavefronts, 4);
  EXPECT_EQ(s->analysis.conflicts, 0);
  EXPECT_EQ(s->request.addresses[1], 144);
  EXPECT_EQ(s->tile_bytes, 16 * 144);
}

// 8 bytes of padding leaves odd rows 8 bytes off the 16-byte alignment ldmatrix rows need.
TEST(BankScenario, EightBytePaddingMisalignsLdmatrixRows) {
  auto p = halves_16x64(SmemLayoutKind::Padded);
  p.pad_bytes = 8;
  auto s = build_bank_scenario(p);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("lane 1: address 136"), std::string::npos) << s.error();
  EXPECT_NE(s.error().find("multiple of 16"), std::string::npos) << s.error();
}

// CUTLASS's RowMajorTensorOpMultiplicandCrosswise<16, 64> puts 16-byte vector v of row r at
// v ^ (r % 8): the same addresses as hardware_rules.md's "ldmatrix .x4 | rows 128 B apart, 16-byte
// chunk index XOR (row % 8) | 4/0".
TEST(BankScenario, TensorOpCrosswiseIsConflictFree) {
  auto s = build_bank_scenario(halves_16x64(SmemLayoutKind::TensorOp));
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->crosswise, 64);
  EXPECT_EQ(s->analysis.wavefronts, 4);
  EXPECT_EQ(s->analysis.conflicts, 0);
  for (int t = 0; t < 32; ++t) {
    const int row = (t / 8 % 2) * 8 + t % 8, chunk = t / 16;
    EXPECT_EQ(s->request.addresses[t], row * 128 + 16 * (chunk ^ (row % 8))) << "lane " << t;
  }
}

// CUTLASS 4.7 (cutlass_layouts.json): TensorOpMultiplicand<16, 32> packed (32, 8): (c=0, s=2) -> 72.
// Crosswise 32 halves = 64 B, so kFactor = 2 rows share each 128-byte line.
TEST(BankScenario, TensorOpMatchesCutlassWhenRowsShareALine) {
  BankScenarioParams p = halves_16x64(SmemLayoutKind::TensorOp);
  p.rows = 8;
  p.cols = 32;
  p.op = *parse_smem_op("ldsm.x1");
  auto a = scenario_element_address(p, 2, 0);
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_EQ(*a, 72 * 2);
  auto s = build_bank_scenario(p);
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->crosswise, 32);
  std::vector<int> seen(8 * 32, 0);  // a permutation of the tile
  for (const auto& cell : s->cells) ++seen.at(cell.byte / 2);
  for (int n : seen) EXPECT_EQ(n, 1);
}

TEST(BankScenario, CompareGivesRowMajorBesideTheChosenLayout) {
  auto p = halves_16x64(SmemLayoutKind::Swizzle);
  auto c = compare_with_rowmajor(p);
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_EQ(c->rowmajor.params.layout, SmemLayoutKind::RowMajor);
  EXPECT_EQ(c->rowmajor.analysis.wavefronts, 32);
  EXPECT_EQ(c->chosen.analysis.wavefronts, 4);
}

// Every element's byte address and bank, and which lane's access covers it.
TEST(BankScenario, CellsGiveAddressBankAndLane) {
  auto s = build_bank_scenario(halves_16x64(SmemLayoutKind::Swizzle));
  ASSERT_TRUE(s.ok()) << s.error();
  ASSERT_EQ(s->cells.size(), 16u * 64u);
  // Element (1, 0): half offset 64 -> Swizzle<3,3,3> -> 72 (swizzle.h) -> byte 144 -> bank 4.
  EXPECT_EQ(s->cell(1, 0).byte, 144);
  EXPECT_EQ(s->cell(1, 0).bank, 4);
  EXPECT_EQ(s->cell(1, 0).lane, 1);   // matrix 0, row 1
  EXPECT_EQ(s->cell(8, 7).lane, 8);   // matrix 1, row 0, last half of the row
  EXPECT_EQ(s->cell(0, 8).lane, 16);  // matrix 2, row 0
  EXPECT_EQ(s->cell(0, 16).lane, -1); // outside the four matrices
  // The swizzle is a permutation: every byte of the 2 KB tile once.
  std::vector<int> seen(16 * 64, 0);
  for (const auto& cell : s->cells) ++seen.at(cell.byte / 2);
  for (int n : seen) EXPECT_EQ(n, 1);
}

// "rows" on a 32x32 fp32 tile: lane i reads row i, 128 B apart -> hardware_rules.md
// "LDS/STS.128 | 32 rows 128 B apart | 32/28"; "linear" -> "LDS/STS.128 | linear | 4/0".
TEST(BankScenario, RowsAndLinearPatterns) {
  BankScenarioParams p;
  p.rows = 32;
  p.cols = 32;
  p.element_bits = 32;
  p.op = *parse_smem_op("lds.128");
  p.pattern = BankPattern::Rows;
  auto rows = build_bank_scenario(p);
  ASSERT_TRUE(rows.ok()) << rows.error();
  EXPECT_EQ(rows->analysis.wavefronts, 32);
  EXPECT_EQ(rows->analysis.conflicts, 28);
  p.pattern = BankPattern::Linear;
  auto linear = build_bank_scenario(p);
  ASSERT_TRUE(linear.ok()) << linear.error();
  EXPECT_EQ(linear->analysis.wavefronts, 4);
  EXPECT_EQ(linear->analysis.conflicts, 0);
  EXPECT_EQ(linear->request.addresses[31], 31 * 16);
  // "rows" wraps: from row 20 of 32, lane 12 reads row 0.
  p.pattern = BankPattern::Rows;
  p.origin_row = 20;
  auto wrapped = build_bank_scenario(p);
  ASSERT_TRUE(wrapped.ok()) << wrapped.error();
  EXPECT_EQ(wrapped->lane_elements[12].row, 0);
}

TEST(BankScenario, ElementAddressPerLayout) {
  auto p = halves_16x64(SmemLayoutKind::RowMajor);
  EXPECT_EQ(*scenario_element_address(p, 2, 3), (2 * 64 + 3) * 2);
  p.layout = SmemLayoutKind::Padded;
  p.pad_bytes = 16;
  EXPECT_EQ(*scenario_element_address(p, 2, 3), 2 * 144 + 3 * 2);
  p.layout = SmemLayoutKind::Swizzle;
  p.swizzle = {3, 3, 3};
  EXPECT_EQ(*scenario_element_address(p, 1, 0), 72 * 2);
  EXPECT_FALSE(scenario_element_address(p, 16, 0).ok());
}

TEST(BankScenario, BadParametersGetMessages) {
  struct Case {
    const char* what;
    std::function<void(BankScenarioParams&)> change;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"element bits", [](BankScenarioParams& p) { p.element_bits = 12; }, "8, 16 or 32"},
      {"empty tile", [](BankScenarioParams& p) { p.rows = 0; }, "at least 1"},
      {"too big", [](BankScenarioParams& p) { p.rows = 4096; p.cols = 4096; }, "does not fit"},
      {"huge rows", [](BankScenarioParams& p) { p.rows = 2000000000; }, "does not fit"},
      {"bad swizzle",
       [](BankScenarioParams& p) { p.layout = SmemLayoutKind::Swizzle; p.swizzle = {3, 3, 2}; },
       "not a valid swizzle"},
      {"swizzle leaves the tile",
       [](BankScenarioParams& p) {
         p.layout = SmemLayoutKind::Swizzle;
         p.rows = 9;
         p.cols = 10;
         p.op = *parse_smem_op("lds.32");
         p.pattern = BankPattern::Linear;
       },
       "outside the 9x10 tile"},
      {"swizzle splits a row",
       [](BankScenarioParams& p) {  // row 1 = offset 32: bit 5 flips bit 2, inside the row
         p.layout = SmemLayoutKind::Swizzle;
         p.swizzle = {3, 2, 3};
         p.cols = 32;
       },
       "not contiguous"},
      {"pad not whole elements",
       [](BankScenarioParams& p) { p.layout = SmemLayoutKind::Padded; p.pad_bytes = 3; },
       "whole number"},
      {"origin outside", [](BankScenarioParams& p) { p.origin_row = 16; }, "outside the 16x64 tile"},
      {"matrices past the bottom", [](BankScenarioParams& p) { p.origin_row = 9; }, "needs row 16"},
      {"matrices past the right", [](BankScenarioParams& p) { p.origin_col = 56; }, "past the 64 columns"},
      {"ldmatrix pattern with lds",
       [](BankScenarioParams& p) { p.op = *parse_smem_op("lds.128"); }, "needs an ldsm"},
      {"linear past the end",
       [](BankScenarioParams& p) {
         p.op = *parse_smem_op("lds.128");
         p.pattern = BankPattern::Linear;
         p.origin_row = 15;
       },
       "past the end"},
      {"tensorop crosswise not a line divisor",
       [](BankScenarioParams& p) {
         p.layout = SmemLayoutKind::TensorOp;
         p.cols = 48;
       },
       "must divide the 128-byte line"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    auto p = halves_16x64(SmemLayoutKind::RowMajor);
    c.change(p);
    auto s = build_bank_scenario(p);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find(c.message), std::string::npos) << s.error();
  }
}

TEST(BankScenarioCli, TileModeMatchesTheLibrary) {
  auto r = test::run_gemmlab({"sim", "banks", "--op", "ldsm.x4", "--layout", "swizzle", "--swizzle",
                              "3,3,3", "--tile", "16,64", "--element-bits", "16", "--cells", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["wavefronts"], 4);
  EXPECT_EQ(out["conflicts"], 0);
  EXPECT_EQ(out["pattern"], "ldmatrix");
  EXPECT_EQ(out["addresses"].size(), 32u);
  ASSERT_EQ(out["cells"].size(), 16u * 64u);
  EXPECT_EQ(out["cells"][64], json({144, 4, 1}));  // element (1,0): byte, bank, lane

  r = test::run_gemmlab({"sim", "banks", "--op", "ldsm.x4", "--layout", "rowmajor", "--tile", "16,64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["wavefronts"], 32);

  r = test::run_gemmlab({"sim", "banks", "--op", "ldsm.x4", "--layout", "tensorop", "--tile", "16,64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["wavefronts"], 4);
  EXPECT_EQ(json::parse(r.out)["crosswise"], 64);

  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--op", "ldsm.x4", "--layout", "diagonal", "--tile", "16,64"},
        std::vector<std::string>{"--op", "ldsm.x4", "--layout", "rowmajor", "--tile", "16"},
        std::vector<std::string>{"--op", "ldsm.x4", "--layout", "rowmajor", "--tile", "16,64",
                                 "--swizzle", "3,3,3"},
        std::vector<std::string>{"--op", "ldsm.x4", "--layout", "padded", "--tile", "16,64"},
        std::vector<std::string>{"--op", "ldsm.x4", "--layout", "rowmajor", "--tile", "16,64",
                                 "--crosswise", "64"},
        std::vector<std::string>{"--op", "ldsm.x4", "--layout", "rowmajor", "--tile", "16,64",
                                 "--addresses", "0"}}) {
    std::vector<std::string> args = {"sim", "banks"};
    args.insert(args.end(), bad.begin(), bad.end());
    auto e = test::run_gemmlab(args);
    EXPECT_EQ(e.exit_code, 2) << e.out;
    EXPECT_TRUE(e.out.empty());
    EXPECT_FALSE(e.err.empty());
  }
}

// The Banks view's word picture: which element and which lane each 4-byte word of the tile has.
TEST(BankScenario, WordMapAndWordsPerBank) {
  BankScenarioParams p;  // row-major 16 x 64 halves (128-byte rows), ldmatrix.x4 at (0, 0)
  auto s = build_bank_scenario(p);
  ASSERT_TRUE(s.ok()) << s.error();
  const BankWordMap m = bank_word_map(*s);
  EXPECT_EQ(m.lines, 16);  // 16 rows of 128 bytes
  ASSERT_EQ(m.word_element.size(), 16u * 32u);
  // Word 33 = line 1, bank 1: row 1, columns 2-3 (two halves per word).
  EXPECT_EQ(m.element_row(33), 1);
  EXPECT_EQ(m.element_col(33), 2);
  // ldmatrix.x4: matrix 0's rows 0-7 at column 0 are read by lanes 0-7 in phase 0 (4 words each).
  EXPECT_EQ(m.word_lane[0][0], 0);
  EXPECT_EQ(m.word_lane[0][3 * 32], 3);
  EXPECT_EQ(m.word_lane[0][3 * 32 + 4], -1);  // columns 8.. belong to matrix 2 (lanes 16-23)
  // Each matrix's 8 rows are 128 bytes apart, all in banks 0-3: 8 distinct words there.
  const auto all = words_per_bank(s->analysis, -1);
  EXPECT_EQ(all[0], 8);
  EXPECT_EQ(all[3], 8);
  EXPECT_EQ(*std::max_element(all.begin(), all.end()), s->analysis.wavefronts / s->analysis.phase_count);
  const auto one = words_per_bank(s->analysis, 0);
  EXPECT_EQ(one[0], 8);
  EXPECT_EQ(one[4], 0);  // phase 0 is matrix 0: banks 0-3 only
}
