// Fragment maps against the PTX ISA. The formulas below are typed in from the ISA's tables,
// independently of fragments.h, and compared for every lane and every element:
//
//  - "Matrix Fragments for mma.m16n8k16 with floating point type" (PTX ISA 9.7.14.5.8 in 8.x,
//    9.7.15.5.8 in 9.x), Figures 79 (A), 81 (B), 83 (C/D).
//  - "Matrix Fragments for mma.m8n8k32" (Figures 59 (A), 60 (B), 61 (C/D), .s4/.u4).
//  - "ldmatrix" (Warp-level matrix load instruction): the table "Threads 0-7: addr0-addr7,
//    Threads 8-15: addr8-addr15, ..." and Figure 104 "ldmatrix fragment layout for one 8x8 Matrix
//    with 16-bit elements" (a group of four threads loads one row; thread 0 gets the first
//    fragment); ".trans indicates that the matrix is loaded in column-major format".
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "gemmlab/fragment_analysis.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

// ---- The PTX ISA formulas, as printed --------------------------------------------------------
struct RC {
  int row, col;
  bool operator==(const RC& o) const { return row == o.row && col == o.col; }
  bool operator<(const RC& o) const { return row != o.row ? row < o.row : col < o.col; }
};

int groupID(int laneid) { return laneid >> 2; }
int threadID_in_group(int laneid) { return laneid % 4; }

// Figure 79: row = groupID for ai where 0 <= i < 2 || 4 <= i < 6, groupID + 8 otherwise;
// col = (threadID_in_group * 2) + (i & 0x1) for i < 4, + 8 for i >= 4.
RC ptx_m16n8k16_a(int lane, int i) {
  const int row = ((0 <= i && i < 2) || (4 <= i && i < 6)) ? groupID(lane) : groupID(lane) + 8;
  const int col = i < 4 ? threadID_in_group(lane) * 2 + (i & 0x1)
                        : threadID_in_group(lane) * 2 + (i & 0x1) + 8;
  return {row, col};
}
// Figure 81: row = (threadID_in_group * 2) + (i & 0x1) for bi where i < 2, + 8 for i >= 2;
// col = groupID.
RC ptx_m16n8k16_b(int lane, int i) {
  const int row = i < 2 ? threadID_in_group(lane) * 2 + (i & 0x1)
                        : threadID_in_group(lane) * 2 + (i & 0x1) + 8;
  return {row, groupID(lane)};
}
// Figure 83: row = groupID for ci where i < 2, groupID + 8 for i >= 2;
// col = (threadID_in_group * 2) + (i & 0x1).
RC ptx_m16n8k16_c(int lane, int i) {
  return {i < 2 ? groupID(lane) : groupID(lane) + 8, threadID_in_group(lane) * 2 + (i & 0x1)};
}
// Figure 59: row = groupID, col = (threadID_in_group * 8) + i for ai, i = 0..7.
RC ptx_m8n8k32_a(int lane, int i) { return {groupID(lane), threadID_in_group(lane) * 8 + i}; }
// Figure 60: row = (threadID_in_group * 8) + i for bi, col = groupID.
RC ptx_m8n8k32_b(int lane, int i) { return {threadID_in_group(lane) * 8 + i, groupID(lane)}; }
// Figure 61: row = groupID, col = (threadID_in_group * 2) + i for ci, i = 0, 1.
RC ptx_m8n8k32_c(int lane, int i) { return {groupID(lane), threadID_in_group(lane) * 2 + i}; }

// ldmatrix destination (Figure 104): lane L gets, in register m, row L/4 of matrix m, elements
// 2*(L%4) and 2*(L%4)+1. With .trans it gets the same positions of the transposed matrix, i.e.
// element L/4 of stored rows 2*(L%4) and 2*(L%4)+1. Returns (stored row, position in that row).
RC ptx_ldsm_dest(int lane, int j, bool trans) {
  const int r = lane / 4, c = 2 * (lane % 4) + j;
  return trans ? RC{c, r} : RC{r, c};
}
// ldmatrix source table: the address of row r of matrix m comes from lane 8*m + r.
int ptx_ldsm_address_lane(int matrix, int row) { return 8 * matrix + row; }

struct MmaCase {
  const char* op;
  const char* operand;
  FragmentOp fop;
  FragmentOperand foperand;
  int rows, cols, count, regs, per_reg;
  RC (*ptx)(int, int);
};

// Registers and packing from the same tables: "four .f16x2 registers" (A), "two .f16x2" (B),
// "four .f32 registers" (C), "a single .b32 register containing eight .s4" (m8n8k32 A/B),
// "two .s32 registers" (m8n8k32 C).
const MmaCase kMmaCases[] = {
    {"mma.m16n8k16.f16", "a", FragmentOp::MmaM16n8k16F16, FragmentOperand::A, 16, 16, 8, 4, 2, ptx_m16n8k16_a},
    {"mma.m16n8k16.f16", "b", FragmentOp::MmaM16n8k16F16, FragmentOperand::B, 16, 8, 4, 2, 2, ptx_m16n8k16_b},
    {"mma.m16n8k16.f16", "c", FragmentOp::MmaM16n8k16F16, FragmentOperand::C, 16, 8, 4, 4, 1, ptx_m16n8k16_c},
    {"mma.m16n8k16.bf16", "a", FragmentOp::MmaM16n8k16Bf16, FragmentOperand::A, 16, 16, 8, 4, 2, ptx_m16n8k16_a},
    {"mma.m16n8k16.bf16", "b", FragmentOp::MmaM16n8k16Bf16, FragmentOperand::B, 16, 8, 4, 2, 2, ptx_m16n8k16_b},
    {"mma.m8n8k32.s4", "a", FragmentOp::MmaM8n8k32S4, FragmentOperand::A, 8, 32, 8, 1, 8, ptx_m8n8k32_a},
    {"mma.m8n8k32.s4", "b", FragmentOp::MmaM8n8k32S4, FragmentOperand::B, 32, 8, 8, 1, 8, ptx_m8n8k32_b},
    {"mma.m8n8k32.s4", "c", FragmentOp::MmaM8n8k32S4, FragmentOperand::C, 8, 8, 2, 2, 1, ptx_m8n8k32_c},
};

FragmentMap analyze_ok(FragmentRequest r) {
  auto m = analyze_fragment(r);
  EXPECT_TRUE(m.ok()) << m.error();
  return m.ok() ? *m : FragmentMap{};
}

test::CliResult cli(std::vector<std::string> args) {
  args.insert(args.begin(), {"sim", "fragment"});
  return test::run_gemmlab(args);
}

}  // namespace

TEST(Fragments, MmaMatchesPtxForEveryLaneAndElement) {
  for (const auto& c : kMmaCases) {
    SCOPED_TRACE(std::string(c.op) + " " + c.operand);
    const FragmentMap m = analyze_ok({c.fop, false, c.foperand});
    EXPECT_EQ(m.tile_rows, c.rows);
    EXPECT_EQ(m.tile_cols, c.cols);
    EXPECT_EQ(m.registers_per_lane, c.regs);
    EXPECT_EQ(m.elements_per_register, c.per_reg);
    ASSERT_EQ(m.elements.size(), size_t(32 * c.count));
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < c.count; ++i) {
        const auto& e = m.elements[lane * c.count + i];
        EXPECT_EQ(e.lane, lane);
        EXPECT_EQ(e.index, i);
        EXPECT_EQ(e.reg, i / c.per_reg);
        EXPECT_EQ(e.element, i % c.per_reg);
        const RC want = c.ptx(lane, i);
        EXPECT_EQ(e.at.row, want.row) << "lane " << lane << " element " << i;
        EXPECT_EQ(e.at.col, want.col) << "lane " << lane << " element " << i;
      }
  }
}

TEST(Fragments, MmaMatchesPtxThroughCli) {
  for (const auto& c : kMmaCases) {
    SCOPED_TRACE(std::string(c.op) + " " + c.operand);
    auto r = cli({"--op", c.op, "--operand", c.operand, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(out["tile"], json({c.rows, c.cols}));
    EXPECT_EQ(out["elements_columns"], json({"lane", "register", "element", "index", "row", "col"}));
    const auto& el = out["elements"];
    ASSERT_EQ(el.size(), size_t(32 * c.count));
    for (const auto& e : el) {
      const RC want = c.ptx(e[0], e[3]);
      EXPECT_EQ(e[4], want.row);
      EXPECT_EQ(e[5], want.col);
      EXPECT_EQ(e[1], int(e[3]) / c.per_reg);
    }
  }
}

TEST(Fragments, HalfAccumulatorsPackTwoPerRegister) {
  // "A vector expression containing two .f16x2 registers, with each register containing two .f16
  // elements from the matrix C": c0,c1 in register 0 and c2,c3 in register 1, same positions.
  const FragmentMap m = analyze_ok({FragmentOp::MmaM16n8k16F16, false, FragmentOperand::C, Accumulator::F16});
  EXPECT_EQ(m.registers_per_lane, 2);
  EXPECT_EQ(m.element_bits, 16);
  for (const auto& e : m.elements) {
    EXPECT_EQ(e.reg, e.index / 2);
    EXPECT_EQ(e.at.row, ptx_m16n8k16_c(e.lane, e.index).row);
    EXPECT_EQ(e.at.col, ptx_m16n8k16_c(e.lane, e.index).col);
  }
}

TEST(Fragments, LdmatrixAddressesFollowThePtxTable) {
  for (int num : {1, 2, 4}) {
    SCOPED_TRACE(num);
    const FragmentOp op = num == 1 ? FragmentOp::LdsmX1 : num == 2 ? FragmentOp::LdsmX2 : FragmentOp::LdsmX4;
    const FragmentMap m = analyze_ok({op, false});
    ASSERT_EQ(m.addresses.size(), 32u);
    EXPECT_EQ(m.tile_rows, 8 * num);
    EXPECT_EQ(m.tile_cols, 8);
    for (int matrix = 0; matrix < num; ++matrix)
      for (int row = 0; row < 8; ++row) {
        const auto& a = m.addresses[ptx_ldsm_address_lane(matrix, row)];
        EXPECT_TRUE(a.used);
        EXPECT_EQ(a.matrix, matrix);
        EXPECT_EQ(a.row, row);
      }
    // .x1 reads threads 0-7 only, .x2 threads 0-15 ("–" in the table).
    for (int lane = 8 * num; lane < 32; ++lane) EXPECT_FALSE(m.addresses[lane].used) << lane;
  }
}

TEST(Fragments, LdmatrixDestinationsFollowFigure104) {
  for (bool trans : {false, true})
    for (int num : {1, 2, 4}) {
      SCOPED_TRACE(std::to_string(num) + (trans ? ".trans" : ""));
      const FragmentOp op = num == 1 ? FragmentOp::LdsmX1 : num == 2 ? FragmentOp::LdsmX2 : FragmentOp::LdsmX4;
      const FragmentMap m = analyze_ok({op, trans});
      EXPECT_EQ(m.registers_per_lane, num);
      ASSERT_EQ(m.elements.size(), size_t(32 * num * 2));
      for (const auto& e : m.elements) {
        // Register m holds matrix m; the stacked tile's row 8m + r is matrix m's row r.
        EXPECT_EQ(e.matrix, e.reg);
        const RC d = ptx_ldsm_dest(e.lane, e.element, trans);
        EXPECT_EQ(e.at.row, 8 * e.reg + d.row) << "lane " << e.lane;
        EXPECT_EQ(e.at.col, d.col) << "lane " << e.lane;
      }
    }
  // Through the CLI, .x4.trans: lane 5 register 2 element 1 holds matrix 2, stored row 3, col 1.
  auto r = cli({"--op", "ldsm.x4.trans"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  const auto& e = out["elements"][5 * 8 + 2 * 2 + 1];
  EXPECT_EQ(e, json({5, 2, 1, 5, 2, 16 + 3, 1}));
}

// ldmatrix feeding mma.m16n8k16: run the PTX ldmatrix rules on the row addresses the library
// asks for, and check every lane ends up with exactly the elements the PTX mma tables give it.
TEST(Fragments, LdmatrixRowStartsDeliverTheMmaFragments) {
  struct Case {
    FragmentOp op;
    bool trans;
    FragmentOperand operand;
    int rows, cols;
  };
  const Case cases[] = {
      {FragmentOp::LdsmX4, false, FragmentOperand::A, 16, 16},
      {FragmentOp::LdsmX4, true, FragmentOperand::A, 16, 16},
      {FragmentOp::LdsmX2, false, FragmentOperand::B, 16, 8},
      {FragmentOp::LdsmX2, true, FragmentOperand::B, 16, 8},
      {FragmentOp::LdsmX4, false, FragmentOperand::B, 16, 16},
      {FragmentOp::LdsmX4, true, FragmentOperand::B, 16, 16},
  };
  for (const auto& c : cases) {
    const FragmentMap m = analyze_ok({c.op, c.trans, c.operand});
    SCOPED_TRACE(fragment_op_name(m.request) + " operand " + fragment_operand_name(c.operand));
    EXPECT_EQ(m.tile_rows, c.rows);
    EXPECT_EQ(m.tile_cols, c.cols);
    const int num = m.registers_per_lane;
    for (int lane = 0; lane < 32; ++lane)
      for (int reg = 0; reg < num; ++reg)
        for (int j = 0; j < 2; ++j) {
          // PTX ldmatrix: which stored row, which position in it.
          const RC d = ptx_ldsm_dest(lane, j, c.trans);
          const auto& src = m.addresses[ptx_ldsm_address_lane(reg, d.row)];
          ASSERT_TRUE(src.used);
          const RC got = m.row_runs_down ? RC{src.start.row + d.col, src.start.col}
                                         : RC{src.start.row, src.start.col + d.col};
          // PTX mma: element index i of register reg; for B.x4, registers 2,3 are the n 8..15 mma.
          RC want{};
          if (c.operand == FragmentOperand::A) {
            want = ptx_m16n8k16_a(lane, 2 * reg + j);
          } else {
            want = ptx_m16n8k16_b(lane, 2 * (reg % 2) + j);
            want.col += 8 * (reg / 2);
          }
          EXPECT_EQ(got, want) << "lane " << lane << " register " << reg << " element " << j;
          // And the library's own element list agrees.
          const auto& e = m.elements[(lane * num + reg) * 2 + j];
          EXPECT_EQ((RC{e.at.row, e.at.col}), want);
        }
  }
}

TEST(Fragments, SeedAddressFormulasAgree) {
  // Seed 004 (mma_base): A via ldmatrix.x4 at (lane & 15, (lane >> 4) << 3); B stored N x K via
  // ldmatrix.x2 at (n = lane & 7, k = ((lane >> 3) & 1) << 3).
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(ldsm_x4_a_row_start(lane), (FragCoord{lane & 15, (lane >> 4) << 3}));
    EXPECT_EQ(ldsm_x2_b_row_start(lane), (FragCoord{((lane >> 3) & 1) << 3, lane & 7}));
  }
}

// Every element of the tile is held by exactly one (lane, register, element).
TEST(Fragments, EveryTileElementHeldExactlyOnce) {
  std::vector<FragmentRequest> all;
  for (const auto& c : kMmaCases) all.push_back({c.fop, false, c.foperand});
  all.push_back({FragmentOp::MmaM16n8k16F16, false, FragmentOperand::C, Accumulator::F16});
  for (auto op : {FragmentOp::LdsmX1, FragmentOp::LdsmX2, FragmentOp::LdsmX4})
    for (bool t : {false, true}) all.push_back({op, t});
  for (bool t : {false, true}) {
    all.push_back({FragmentOp::LdsmX4, t, FragmentOperand::A});
    all.push_back({FragmentOp::LdsmX2, t, FragmentOperand::B});
    all.push_back({FragmentOp::LdsmX4, t, FragmentOperand::B});
  }
  for (const auto& r : all) {
    const FragmentMap m = analyze_ok(r);
    SCOPED_TRACE(fragment_op_name(r) + " " + fragment_operand_name(r.operand));
    std::map<RC, int> hits;
    std::set<std::tuple<int, int, int>> slots;
    for (const auto& e : m.elements) {
      ASSERT_GE(e.at.row, 0);
      ASSERT_LT(e.at.row, m.tile_rows);
      ASSERT_GE(e.at.col, 0);
      ASSERT_LT(e.at.col, m.tile_cols);
      hits[{e.at.row, e.at.col}]++;
      EXPECT_TRUE(slots.insert({e.lane, e.reg, e.element}).second);
    }
    EXPECT_EQ(hits.size(), size_t(m.tile_rows * m.tile_cols));
    for (const auto& [rc, n] : hits) EXPECT_EQ(n, 1) << rc.row << "," << rc.col;
    EXPECT_EQ(m.elements.size(), size_t(32 * m.registers_per_lane * m.elements_per_register));
  }
}

TEST(Fragments, OwnerOfAnElement) {
  // A(9, 8): row 9 = groupID + 8 -> groupID 1; col 8 = 2*tid + 0 + 8 -> tid 0, i = 6 -> lane 4.
  const FragmentMap a = analyze_ok({FragmentOp::MmaM16n8k16F16, false, FragmentOperand::A});
  auto o = fragment_owner(a, 9, 8);
  ASSERT_TRUE(o.ok()) << o.error();
  EXPECT_EQ(o->lane, 4);
  EXPECT_EQ(o->index, 6);
  EXPECT_EQ(o->reg, 3);
  EXPECT_FALSE(fragment_owner(a, 16, 0).ok());
  auto r = cli({"--op", "mma.m8n8k32.s4", "--operand", "b", "--element", "31,7"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // B(31, 7): col 7 = groupID, row 31 = 8*tid + i -> tid 3, i 7: lane 31.
  EXPECT_EQ(json::parse(r.out)["owner"], json({{"lane", 31}, {"register", 0}, {"element", 7}, {"index", 7}}));
}

TEST(Fragments, InvalidRequestsNameTheProblem) {
  struct Case {
    FragmentRequest r;
    const char* needle;
  };
  const Case cases[] = {
      {{FragmentOp::LdsmX4, false, FragmentOperand::C}, "accumulators"},
      {{FragmentOp::LdsmX2, false, FragmentOperand::A}, "use ldsm.x4"},
      {{FragmentOp::LdsmX1, false, FragmentOperand::B}, "use ldsm.x2"},
      {{FragmentOp::MmaM16n8k16F16, false, FragmentOperand::None}, "--operand"},
      {{FragmentOp::MmaM16n8k16F16, true, FragmentOperand::A}, "no .trans"},
      {{FragmentOp::MmaM16n8k16Bf16, false, FragmentOperand::C, Accumulator::F16}, ".f32"},
      {{FragmentOp::MmaM8n8k32S4, false, FragmentOperand::C, Accumulator::F16}, ".s32"},
  };
  for (const auto& c : cases) {
    auto m = analyze_fragment(c.r);
    ASSERT_FALSE(m.ok()) << c.needle;
    EXPECT_NE(m.error().find(c.needle), std::string::npos) << m.error();
  }
  EXPECT_FALSE(parse_fragment_op("mma.m16n8k16.f16.trans").ok());
  EXPECT_NE(parse_fragment_op("ldsm.x3").error().find("use ldsm.x1"), std::string::npos);
  EXPECT_FALSE(parse_fragment_operand("d").ok());
}

TEST(Fragments, CliRejectsMalformedInput) {
  const std::vector<std::vector<std::string>> bad = {
      {"--op", "ldsm.x3"},
      {"--op", "mma.m16n8k16.f16"},
      {"--op", "mma.m16n8k16.f16", "--operand", "d"},
      {"--op", "mma.m16n8k16.f16.trans", "--operand", "a"},
      {"--op", "ldsm.x4", "--operand", "c"},
      {"--op", "ldsm.x2", "--operand", "a"},
      {"--op", "mma.m16n8k16.f16", "--operand", "a", "--accumulator", "f16"},
      {"--op", "mma.m16n8k16.f16", "--operand", "c", "--accumulator", "f64"},
      {"--op", "mma.m16n8k16.f16", "--operand", "a", "--element", "16,0"},
      {"--op", "mma.m16n8k16.f16", "--operand", "a", "--element", "99999999999,0"},
      {"--op", "mma.m16n8k16.f16", "--operand", "a", "--element", "1"},
      {"--op", "mma.m16n8k16.f16", "--operand", "a", "--bogus", "1"},
      {"--operand", "a"},
      {"--op"},
  };
  for (const auto& args : bad) {
    auto r = cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << (args.size() > 1 ? args[1] : "");
    EXPECT_FALSE(r.err.empty());
    EXPECT_TRUE(r.out.empty());
  }
}

// The fragments view's picture: every element of the mma operand tile is held by exactly one
// lane, the one the PTX table names (A m16n8k16: a0 of lane 5 is (row 1, col 2)).
TEST(Fragments, ElementGridCoversTheTileOnce) {
  for (const auto& c : kMmaCases) {
    SCOPED_TRACE(std::string(c.op) + " " + c.operand);
    const FragmentMap m = analyze_ok({c.fop, false, c.foperand});
    const std::vector<int> grid = fragment_element_grid(m);
    ASSERT_EQ(grid.size(), size_t(c.rows) * c.cols);
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < c.count; ++i) {
        const RC at = c.ptx(lane, i);
        const int e = grid[size_t(at.row) * c.cols + at.col];
        ASSERT_GE(e, 0);
        EXPECT_EQ(m.elements[e].lane, lane);
        EXPECT_EQ(m.elements[e].index, i);
      }
  }
}
