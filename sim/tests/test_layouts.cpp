// Layouts against CUTLASS 4.7's own values (cutlass_layouts.json, TensorOpMultiplicand cases),
// through the library, the compile-time wrappers and `gemmlab sim layout`; plain layouts and the
// column-major-C swap against hand-worked values.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "gemmlab/layout_analysis.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

std::vector<json> tensorop_cases() { return test::cutlass_cases("tensor_op_multiplicand"); }

LayoutRequest tensorop_request(LayoutKind kind, int e0, int e1, int bits, int crosswise) {
  LayoutRequest r;
  r.kind = kind;
  r.extent0 = e0;
  r.extent1 = e1;
  r.element_bits = bits;
  r.crosswise = crosswise;
  return r;
}

test::CliResult layout_cli(std::vector<std::string> args) {
  args.insert(args.begin(), {"sim", "layout"});
  return test::run_gemmlab(args);
}

std::string pair(int a, int b) { return std::to_string(a) + "," + std::to_string(b); }

// The compile-time wrappers must give CUTLASS's values too (the kernels use them).
template <int Bits, int Crosswise>
std::vector<long long> wrapper_offsets(int C, int S) {
  const auto layout = TensorOpMultiplicand<Bits, Crosswise>::packed({C, S});
  std::vector<long long> v;
  for (int s = 0; s < S; ++s)
    for (int c = 0; c < C; ++c) v.push_back(layout({c, s}));
  return v;
}

}  // namespace

TEST(TensorOpMultiplicand, ReferenceHasCases) { EXPECT_EQ(tensorop_cases().size(), 4u); }

TEST(TensorOpMultiplicand, MatchesCutlassThroughLibrary) {
  for (const auto& c : tensorop_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 120));
    const int C = c["contiguous"], S = c["strided"];
    const std::vector<long long> want = c["offsets"];
    // TensorOpMultiplicand and its Crosswise wrapper (identical arithmetic in CUTLASS); the
    // Congruous wrapper too, except for CUTLASS's 32-bit specialisation.
    std::vector<LayoutKind> kinds = {LayoutKind::TensorOpMultiplicand, LayoutKind::TensorOpCrosswise};
    if (c["element_bits"] != 32) kinds.push_back(LayoutKind::TensorOpCongruous);
    for (auto kind : kinds) {
      auto r = analyze_layout(tensorop_request(kind, C, S, c["element_bits"], c["crosswise"]));
      ASSERT_TRUE(r.ok()) << r.error();
      EXPECT_EQ(r->offsets, want) << layout_kind_name(kind);
      EXPECT_EQ(r->ld, C);
    }
  }
}

TEST(TensorOpMultiplicand, CompileTimeWrappersMatchCutlass) {
  for (const auto& c : tensorop_cases()) {
    const int bits = c["element_bits"], cw = c["crosswise"], C = c["contiguous"], S = c["strided"];
    const std::vector<long long> want = c["offsets"];
    if (bits == 16 && cw == 32) EXPECT_EQ((wrapper_offsets<16, 32>(C, S)), want);
    else if (bits == 16 && cw == 64) EXPECT_EQ((wrapper_offsets<16, 64>(C, S)), want);
    else if (bits == 32 && cw == 32) EXPECT_EQ((wrapper_offsets<32, 32>(C, S)), want);
    else if (bits == 8 && cw == 64) EXPECT_EQ((wrapper_offsets<8, 64>(C, S)), want);
    else ADD_FAILURE() << "reference case without a wrapper instance: " << bits << "," << cw;
  }
}

// CUTLASS's RowMajor*/ColumnMajor* wrappers: RowMajor maps (row, column) to PitchLinearCoord
// (column, row) and packs with extent.column(); ColumnMajor maps to (row, column), packs with
// extent.row(). So the pitch-linear reference (C x S) is the row-major view of an S x C matrix and
// the column-major view of a C x S matrix.
TEST(TensorOpMultiplicand, MatrixViewsMatchCutlass) {
  for (const auto& c : tensorop_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 120));
    const int bits = c["element_bits"], cw = c["crosswise"], C = c["contiguous"], S = c["strided"];
    const std::vector<long long> ref = c["offsets"];
    auto rm = analyze_layout(tensorop_request(LayoutKind::TensorOpCrosswiseRowMajor, S, C, bits, cw));
    ASSERT_TRUE(rm.ok()) << rm.error();
    EXPECT_EQ(rm->offsets, ref);  // offsets[row*C + col] with row = s, col = c
    auto cm = analyze_layout(tensorop_request(LayoutKind::TensorOpCrosswiseColumnMajor, C, S, bits, cw));
    ASSERT_TRUE(cm.ok()) << cm.error();
    for (int row = 0; row < C; ++row)  // offsets[row*S + col] with row = c, col = s
      for (int col = 0; col < S; ++col) EXPECT_EQ(cm->offsets[row * S + col], ref[col * C + row]);
    if (bits != 32) {
      auto crm = analyze_layout(tensorop_request(LayoutKind::TensorOpCongruousRowMajor, S, C, bits, cw));
      ASSERT_TRUE(crm.ok()) << crm.error();
      EXPECT_EQ(crm->offsets, ref);
    }
  }
  // The compile-time matrix views agree with the same reference.
  const auto ref16 = tensorop_cases()[0];
  ASSERT_EQ(ref16["element_bits"], 16);
  ASSERT_EQ(ref16["crosswise"], 32);
  const auto rm = RowMajorTensorOpMultiplicandCrosswise<16, 32>::packed(8, 32);
  const auto cm = ColumnMajorTensorOpMultiplicandCongruous<16, 32>::packed(32, 8);
  for (int s = 0; s < 8; ++s)
    for (int c = 0; c < 32; ++c) {
      EXPECT_EQ(rm(s, c), ref16["offsets"][s * 32 + c]);
      EXPECT_EQ(cm(c, s), ref16["offsets"][s * 32 + c]);
    }
}

TEST(TensorOpMultiplicand, MatchesCutlassThroughCli) {
  for (const auto& c : tensorop_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 120));
    const int bits = c["element_bits"], cw = c["crosswise"], C = c["contiguous"], S = c["strided"];
    auto r = layout_cli({"--kind", "tensorop-multiplicand", "--element-bits", std::to_string(bits),
                         "--crosswise", std::to_string(cw), "--shape", pair(C, S), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(out["offsets"], c["offsets"]);
    EXPECT_EQ(out["elements_per_access"], 128 / bits);
    // Row-major crosswise view of the S x C matrix: same list.
    auto v = layout_cli({"--kind", "tensorop-crosswise-rowmajor", "--element-bits",
                         std::to_string(bits), "--crosswise", std::to_string(cw), "--shape",
                         pair(S, C)});
    ASSERT_EQ(v.exit_code, 0) << v.err;
    EXPECT_EQ(json::parse(v.out)["offsets"], c["offsets"]);
  }
}

// CUTLASS's TensorOpMultiplicandCongruous<32, Crosswise> specialisation (TF32 NT), worked by hand
// from its source: offset = (c ^ 2s) * 4 + s * stride + tc * 32 + ts * stride * 4 + coord.c % 4
// with tc = c/32, ts = s/4, c = (c % 32) / 4, s = s % 4.
TEST(TensorOpMultiplicand, Congruous32Specialisation) {
  auto r = analyze_layout(tensorop_request(LayoutKind::TensorOpCongruous, 64, 8, 32, 32));
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->congruous32);
  // (c=4, s=1): vector 1 ^ 2 = 3 -> 12, + 1 * 64 = 76.
  EXPECT_EQ(r->offsets[1 * 64 + 4], 76);
  // (c=0, s=2): vector 0 ^ 4 = 4 -> 16, + 2 * 64 = 144.
  EXPECT_EQ(r->offsets[2 * 64 + 0], 144);
  // (c=33, s=5): tc 1, ts 1, vector 0 ^ 2 = 2 -> 8, + 1*64 + 32 + 1*64*4 + 1 = 361.
  EXPECT_EQ(r->offsets[5 * 64 + 33], 361);
  // The matrix views use it too: ColumnMajor congruous 64x8 (rows x cols) is the same tile.
  auto cm = analyze_layout(tensorop_request(LayoutKind::TensorOpCongruousColumnMajor, 64, 8, 32, 32));
  ASSERT_TRUE(cm.ok()) << cm.error();
  EXPECT_EQ(cm->offsets[33 * 8 + 5], 361);
  // The compile-time specialisation agrees.
  EXPECT_EQ((TensorOpMultiplicandCongruous<32, 32>::packed({64, 8})({33, 5})), 361);
}

// A layout of a packed tile must be a permutation of [0, C*S): every element gets its own slot.
TEST(TensorOpMultiplicand, PackedLayoutsArePermutations) {
  const LayoutKind kinds[] = {LayoutKind::TensorOpMultiplicand, LayoutKind::TensorOpCongruous};
  for (auto kind : kinds)
    for (int bits : {4, 8, 16, 32})
      for (int cw = 128 / bits; cw <= 1024 / bits; cw *= 2)
        for (int c_mult : {1, 2, 3})
          for (int S : {8, 16, 24}) {
            // CUTLASS's 32-bit congruous specialisation works on 32-element blocks.
            const bool congruous32 = kind == LayoutKind::TensorOpCongruous && bits == 32;
            const int C = congruous32 ? 32 * c_mult : cw * c_mult;
            auto r = analyze_layout(tensorop_request(kind, C, S, bits, cw));
            ASSERT_TRUE(r.ok()) << bits << " " << cw << " " << C << "x" << S << ": " << r.error();
            std::vector<long long> sorted = r->offsets;
            std::sort(sorted.begin(), sorted.end());
            std::vector<long long> iota(sorted.size());
            std::iota(iota.begin(), iota.end(), 0);
            EXPECT_EQ(sorted, iota) << layout_kind_name(kind) << " " << bits << "-bit crosswise "
                                    << cw << " " << C << "x" << S;
          }
}

TEST(TensorOpMultiplicand, InvalidConfigurationsNameTheirRule) {
  struct Case {
    int bits, cw, C, S;
    long long ld;
    const char* needle;
  };
  const Case cases[] = {
      {64, 16, 16, 8, 0, "4, 8, 16 or 32-bit"},
      {16, 0, 64, 8, 0, "positive number"},
      {16, 128, 128, 8, 0, "no large than one shared memory cache line"},
      {16, 4, 64, 8, 0, "shorter than one 128-bit access"},
      {16, 48, 48, 8, 0, "must divide the 128-byte line"},
      {16, 32, 48, 8, 0, "multiple of Crosswise (32)"},
      {16, 32, 32, 7, 0, "multiple of kFactor (2)"},
      {16, 64, 128, 8, 64, "at least the contiguous extent"},
      {16, 32, 64, 8, 80, "--ld 80) must be a multiple of Crosswise"},
  };
  for (const auto& c : cases) {
    auto req = tensorop_request(LayoutKind::TensorOpMultiplicand, c.C, c.S, c.bits, c.cw);
    req.ld = c.ld;
    auto r = analyze_layout(req);
    ASSERT_FALSE(r.ok()) << c.needle;
    EXPECT_NE(r.error().find(c.needle), std::string::npos) << r.error();
  }
  auto r32 = analyze_layout(tensorop_request(LayoutKind::TensorOpCongruous, 48, 8, 32, 32));
  ASSERT_FALSE(r32.ok());
  EXPECT_NE(r32.error().find("multiple of 32"), std::string::npos) << r32.error();
  auto r32cw = analyze_layout(tensorop_request(LayoutKind::TensorOpCongruous, 64, 8, 32, -5));
  ASSERT_FALSE(r32cw.ok());
  EXPECT_NE(r32cw.error().find("positive number"), std::string::npos) << r32cw.error();
}

// ---- Plain layouts, worked by hand ----------------------------------------------------------

TEST(PlainLayouts, RowColumnPitchPadded) {
  auto off = [](LayoutKind k, int e0, int e1, long long ld = 0, int pad = 0) {
    LayoutRequest r;
    r.kind = k;
    r.extent0 = e0;
    r.extent1 = e1;
    r.ld = ld;
    r.pad = pad;
    auto res = analyze_layout(r);
    EXPECT_TRUE(res.ok()) << res.error();
    return res.ok() ? res->offsets : std::vector<long long>{};
  };
  using V = std::vector<long long>;
  // 2x3 row-major: rows contiguous.
  EXPECT_EQ(off(LayoutKind::RowMajor, 2, 3), (V{0, 1, 2, 3, 4, 5}));
  // 2x3 row-major with ld 10: the second row starts at 10.
  EXPECT_EQ(off(LayoutKind::RowMajor, 2, 3, 10), (V{0, 1, 2, 10, 11, 12}));
  // 2x3 column-major (listed row by row): (r,c) -> r + 2c.
  EXPECT_EQ(off(LayoutKind::ColumnMajor, 2, 3), (V{0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(off(LayoutKind::ColumnMajor, 2, 3, 4), (V{0, 4, 8, 1, 5, 9}));
  // Pitch-linear (C=3, S=2), ld 5.
  EXPECT_EQ(off(LayoutKind::PitchLinear, 3, 2, 5), (V{0, 1, 2, 5, 6, 7}));
  // Padded (C=4, S=2) + 2 elements per row: ld 6.
  EXPECT_EQ(off(LayoutKind::Padded, 4, 2, 0, 2), (V{0, 1, 2, 3, 6, 7, 8, 9}));
  static_assert(PitchLinearLayout{40}({3, 1}) == 43);  // a 32-wide half row padded by 8
}

TEST(PlainLayouts, ThroughCli) {
  auto r = layout_cli({"--kind", "columnmajor", "--shape", "2,3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["offsets"], json({0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(out["ld"], 2);
  EXPECT_EQ(out["order"], "offsets[row*COLS + col]");
  auto p = layout_cli({"--kind", "padded", "--shape", "4,2", "--pad", "2"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(json::parse(p.out)["offsets"], json({0, 1, 2, 3, 6, 7, 8, 9}));
}

TEST(PlainLayouts, InvalidInputNamesTheProblem) {
  struct Case {
    LayoutRequest r;
    const char* needle;
  };
  const Case cases[] = {
      {{LayoutKind::RowMajor, 0, 4}, "must be positive"},
      {{LayoutKind::RowMajor, 2048, 2048}, "more than 1M elements"},
      {{LayoutKind::RowMajor, 4, 8, 6}, "smaller than the contiguous extent"},
      {{LayoutKind::ColumnMajor, 8, 4, 6}, "smaller than the contiguous extent"},
      {{LayoutKind::RowMajor, 4, 8, 0, 2}, "--pad applies to --kind padded only"},
      {{LayoutKind::Padded, 4, 8, 16, 2}, "takes --pad, not --ld"},
      {{LayoutKind::Padded, 4, 8, 0, -1}, "--pad -1"},
      {{LayoutKind::RowMajor, 4, 8, 0, 0, 16, 0}, "apply to tensorop kinds only"},
  };
  for (const auto& c : cases) {
    auto r = analyze_layout(c.r);
    ASSERT_FALSE(r.ok()) << c.needle;
    EXPECT_NE(r.error().find(c.needle), std::string::npos) << r.error();
  }
}

TEST(Layouts, CliRejectsMalformedInput) {
  const std::vector<std::vector<std::string>> bad = {
      {"--kind", "diagonal", "--shape", "4,4"},
      {"--kind", "rowmajor", "--shape", "4"},
      {"--kind", "rowmajor", "--shape", "4,x"},
      {"--kind", "rowmajor"},
      {"--shape", "4,4"},
      {"--kind", "rowmajor", "--shape", "4,4", "--ld", "0"},
      {"--kind", "rowmajor", "--shape", "4,4", "--ld", "-8"},
      {"--kind", "rowmajor", "--shape", "4,4", "--crosswise", "32"},
      {"--kind", "rowmajor", "--shape", "99999999999,4"},
      {"--kind", "rowmajor", "--shape", "100000,100000"},
      {"--kind", "padded", "--shape", "4,4"},
      {"--kind", "tensorop-multiplicand", "--shape", "32,8", "--element-bits", "16"},
      {"--kind", "tensorop-multiplicand", "--shape", "32,8", "--element-bits", "16", "--crosswise", "48"},
      {"--kind", "tensorop-multiplicand", "--shape", "32,8", "--element-bits", "12", "--crosswise", "32"},
      {"--kind", "rowmajor", "--shape", "4,4", "--bogus", "1"},
  };
  for (const auto& args : bad) {
    auto r = layout_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1];
    EXPECT_FALSE(r.err.empty());
    EXPECT_TRUE(r.out.empty());
  }
}

// ---- Seed 002: the ColumnMajor-C specialisation of device::Gemm --------------------------------

TEST(ColumnMajorCSwap, UnderlyingGemmIsRowMajorC) {
  // Seed 002's example: A, B, C all ColumnMajor (lda = M, ldb = K, ldc = M).
  GemmLayouts g{128, 64, 32, {MatrixOrder::ColumnMajor, 128}, {MatrixOrder::ColumnMajor, 32},
                {MatrixOrder::ColumnMajor, 128}};
  auto e = explain_column_major_c_swap(g);
  ASSERT_TRUE(e.ok()) << e.error();
  const auto& u = e->underlying;
  // UnderlyingOperator = Gemm<ElementB, LayoutTranspose<LayoutB>, ElementA,
  // LayoutTranspose<LayoutA>, ElementC, RowMajor, ...> on problem (n, m, k).
  EXPECT_EQ(u.m, 64);
  EXPECT_EQ(u.n, 128);
  EXPECT_EQ(u.k, 32);
  EXPECT_EQ(u.a.order, MatrixOrder::RowMajor);
  EXPECT_EQ(u.a.ld, 32);
  EXPECT_EQ(u.b.order, MatrixOrder::RowMajor);
  EXPECT_EQ(u.b.ld, 128);
  EXPECT_EQ(u.c.order, MatrixOrder::RowMajor);
  EXPECT_EQ(u.c.ld, 128);
  EXPECT_GE(e->steps.size(), 4u);
  // No byte moves: C'(i, j) is C(j, i); A'(i, kk) is B(kk, i); B'(kk, j) is A(j, kk).
  for (int i = 0; i < u.m; ++i)
    for (int j = 0; j < u.n; ++j)
      ASSERT_EQ(matrix_offset(u.c.order, u.c.ld, i, j), matrix_offset(g.c.order, g.c.ld, j, i));
  for (int i = 0; i < u.m; ++i)
    for (int kk = 0; kk < u.k; ++kk)
      ASSERT_EQ(matrix_offset(u.a.order, u.a.ld, i, kk), matrix_offset(g.b.order, g.b.ld, kk, i));
  for (int kk = 0; kk < u.k; ++kk)
    for (int j = 0; j < u.n; ++j)
      ASSERT_EQ(matrix_offset(u.b.order, u.b.ld, kk, j), matrix_offset(g.a.order, g.a.ld, j, kk));
}

TEST(ColumnMajorCSwap, RowMajorCIsUnchangedAndBadLdIsRefused) {
  GemmLayouts g{16, 8, 4, {MatrixOrder::RowMajor, 4}, {MatrixOrder::RowMajor, 8}, {MatrixOrder::RowMajor, 8}};
  auto e = explain_column_major_c_swap(g);
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_EQ(e->underlying.m, 16);
  EXPECT_EQ(e->underlying.a.ld, 4);
  g.a = {MatrixOrder::ColumnMajor, 8};  // A is 16 x 4 column-major: ld must be >= 16
  auto bad = explain_column_major_c_swap(g);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("ld must be at least 16"), std::string::npos) << bad.error();
  GemmLayouts empty = g;
  empty.m = 0;
  EXPECT_FALSE(explain_column_major_c_swap(empty).ok());
}
