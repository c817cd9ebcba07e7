// The Hopper shared-memory layouts (gemmlab/gmma_layout.h, gemmlab/tma_map.h) on the host: every
// layout against CuTe's own values (cute_hopper_layouts.json, CUTLASS 4.x GMMA::Layout_*_Atom tiled
// to shape), the descriptor's canonical form against the layout it describes, the TMA box against
// the K-major layout it feeds, and the wgmma accumulator fragment against CuTe's CLayout.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>

#include "gemmlab/fragment_analysis.h"
#include "gemmlab/gmma_analysis.h"
#include "gemmlab/tma_map.h"
#include "support.h"

using namespace gemmlab;

namespace {

gmma::TileLayout layout(gmma::Swizzle s, gmma::Major m, int bits, int rows, int cols) {
  auto t = make_gmma_layout(s, m, bits, rows, cols);
  if (!t) throw std::runtime_error(t.error());
  return *t;
}

}  // namespace

TEST(GmmaLayout, EveryLayoutMatchesCute) {
  int cases = 0;
  for (const auto& c : test::cute_hopper_reference()["cases"]) {
    if (c["kind"] != "gmma_layout") continue;
    SCOPED_TRACE(c["major"].get<std::string>() + " " + c["swizzle"].get<std::string>() + " " + c["shape"].dump());
    auto s = parse_gmma_swizzle(c["swizzle"]);
    auto m = parse_gmma_major(c["major"]);
    ASSERT_TRUE(s && m);
    auto t = make_gmma_layout(*s, *m, c["element_bits"], c["shape"][0], c["shape"][1]);
    ASSERT_TRUE(t) << t.error();
    EXPECT_EQ(gmma_layout_offsets(*t), c["offsets"].get<std::vector<long long>>());
    ++cases;
  }
  EXPECT_EQ(cases, 8);
}

// Each layout is a bijection onto [0, R*C): no two elements share a byte.
TEST(GmmaLayout, EveryElementHasItsOwnPlace) {
  for (int s = 0; s < 4; ++s)
    for (auto m : {gmma::Major::K, gmma::Major::MN})
      for (int bits : {8, 16, 32}) {
        const gmma::TileLayout t = layout(gmma::Swizzle(s), m, bits, 128, 128);
        std::set<long long> seen;
        for (long long o : gmma_layout_offsets(t)) {
          EXPECT_GE(o, 0);
          EXPECT_LT(o, 128 * 128);
          seen.insert(o);
        }
        EXPECT_EQ(seen.size(), 128u * 128u) << s << " " << int(m) << " " << bits;
      }
}

// Shared memory 16 bytes at a time: every chunk holds one run of 8 halves; in the K-major 128B
// layout the 8 rows of a core matrix (one chunk each) sit in 8 different bank groups, and without
// the swizzle a plain 128-byte-row box would put them all in one.
TEST(GmmaLayout, ChunksAndBankGroups) {
  const gmma::TileLayout t = layout(gmma::Swizzle::B128, gmma::Major::K, 16, 64, 64);
  const std::vector<SmemChunk> chunks = gmma_smem_chunks(t);
  ASSERT_EQ(chunks.size(), 512u);
  std::set<std::pair<int, int>> starts;
  for (const auto& c : chunks) starts.insert({c.row, c.col});
  EXPECT_EQ(starts.size(), 512u);
  EXPECT_EQ(chunks[8 + 0].row, 1);   // byte 128: row 1 ...
  EXPECT_EQ(chunks[8 + 0].col, 8);   // ... chunk 1 (k 8..15) moved to the front
  for (int r0 = 0; r0 < 64; r0 += 8)
    for (int k = 0; k < 64; k += 8) {
      std::set<int> groups;
      for (int r = r0; r < r0 + 8; ++r) groups.insert(chunks[t.byte_offset(r, k) / 16].bank_group);
      EXPECT_EQ(groups.size(), 8u);
    }
  const gmma::TileLayout mn = layout(gmma::Swizzle::B32, gmma::Major::MN, 16, 32, 16);
  const auto mc = gmma_smem_chunks(mn);
  EXPECT_EQ(mc[1].row, 8);  // an MN-major chunk runs along rows: (8..15, 0)
  EXPECT_EQ(mc[1].col, 0);
}

// The descriptor's own canonical form (PTX ISA, from its fields alone) reaches the byte the layout
// put each element of the k step at, for every swizzle, major, element size, row block and k step.
TEST(GmmaLayout, DescriptorReadsWhatTheLayoutWrote) {
  int checked = 0;
  for (int s = 0; s < 4; ++s)
    for (auto m : {gmma::Major::K, gmma::Major::MN})
      for (int bits : {8, 16, 32}) {
        if (m == gmma::Major::MN && bits != 16) continue;
        const gmma::TileLayout t = layout(gmma::Swizzle(s), m, bits, 128, 128);
        const int k_step = 256 / bits;
        for (int row0 = 0; row0 < t.rows; row0 += 64)
          for (int k0 = 0; k0 < t.cols; k0 += k_step) {
            auto d = describe_gmma_operand(t, row0, 64, k0);
            ASSERT_TRUE(d) << d.error();
            for (int r = 0; r < 64; ++r)
              for (int k = 0; k < k_step; ++k, ++checked)
                ASSERT_EQ(gmma::descriptor_address(d->bits, m, bits, r, k), t.byte_offset(row0 + r, k0 + k))
                    << gmma_major_name(m) << " " << gmma_swizzle_name(gmma::Swizzle(s)) << " " << bits
                    << "-bit row0 " << row0 << " k0 " << k0 << " (" << r << "," << k << ")";
          }
      }
  EXPECT_EQ(checked, 16 * 2 * 64 * 128);  // 16 layouts x 2 row blocks x 64 rows x 128 K
}

// The CUTLASS convention for the fields: 128B K-major 64x64 halves -> LBO 16 (unused), SBO 1024;
// no swizzle K-major 64 x 16 -> LBO 8 rows x 16 B x 8 = 1024 (the next core matrix along K), SBO 128.
TEST(GmmaLayout, DescriptorFields) {
  auto d = describe_gmma_operand(layout(gmma::Swizzle::B128, gmma::Major::K, 16, 64, 64), 0, 64, 16);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->start, 32u);
  EXPECT_EQ(d->leading, 16u);
  EXPECT_EQ(d->stride, 1024u);
  EXPECT_EQ(d->layout_field, 1);
  EXPECT_EQ(d->cores.size(), 16u);  // 8 row groups x 2 core matrices of 8 halves
  EXPECT_EQ(d->cores[1].byte, 48u);  // rows 0-7, k 24: chunk 3 of row 0
  auto n = describe_gmma_operand(layout(gmma::Swizzle::None, gmma::Major::K, 16, 64, 16), 0, 64, 0);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->leading, 1024u);
  EXPECT_EQ(n->stride, 128u);
  EXPECT_EQ(n->layout_field, 0);
  auto mn = describe_gmma_operand(layout(gmma::Swizzle::B64, gmma::Major::MN, 16, 64, 32), 0, 64, 16);
  ASSERT_TRUE(mn);
  EXPECT_EQ(mn->leading, 512u);       // the next 32 N (one atom down)
  EXPECT_EQ(mn->stride, 2u * 512u);   // the next 8 K: two atoms down the 64 rows
  EXPECT_EQ(mn->layout_field, 2);
  EXPECT_FALSE(describe_gmma_operand(layout(gmma::Swizzle::B128, gmma::Major::K, 16, 64, 64), 8, 64, 0));
  EXPECT_FALSE(describe_gmma_operand(layout(gmma::Swizzle::B128, gmma::Major::K, 16, 64, 64), 0, 64, 8));
  EXPECT_FALSE(describe_gmma_operand(layout(gmma::Swizzle::B128, gmma::Major::MN, 32, 64, 64), 0, 64, 0));
}

TEST(GmmaLayout, RulesAreNamed) {
  auto t = make_gmma_layout(gmma::Swizzle::B128, gmma::Major::K, 16, 64, 32);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().find("K of 64"), std::string::npos) << t.error();
  EXPECT_FALSE(make_gmma_layout(gmma::Swizzle::B32, gmma::Major::MN, 16, 8, 8));
  EXPECT_FALSE(make_gmma_layout(gmma::Swizzle::None, gmma::Major::K, 4, 8, 8));
  EXPECT_FALSE(make_gmma_layout(gmma::Swizzle::None, gmma::Major::K, 16, 1 << 20, 8));
  EXPECT_FALSE(parse_gmma_swizzle("128"));
  EXPECT_FALSE(parse_gmma_major("k"));
  EXPECT_EQ(*parse_wgmma_shape("m64n256k16"), 256);
  EXPECT_EQ(*parse_wgmma_shape("m64n8k16"), 8);
  for (const char* bad : {"m64n12k16", "m64n264k16", "m64n0k16", "m64n016k16", "m128n64k16", "m64n64k8", "m64nk16"})
    EXPECT_FALSE(parse_wgmma_shape(bad)) << bad;
}

// A 128B TMA box of 64-half rows writes each element where the K-major 128B layout says: the
// copy engine and the tensor core agree on the swizzle. And for 64B / 32B boxes of their spans.
TEST(TmaMap, BoxLandsInTheKMajorLayout) {
  for (int s = 1; s < 4; ++s) {
    tma::TensorMap2D m;
    m.swizzle = gmma::Swizzle(s);
    m.box[0] = gmma::span_bytes(m.swizzle) / 2;
    m.box[1] = 64;
    auto c = tma::copy_box(m, 64, 128);
    ASSERT_TRUE(c) << c.error();
    const gmma::TileLayout t = layout(m.swizzle, gmma::Major::K, 16, 64, m.box[0]);
    for (const auto& e : c->elements) ASSERT_EQ(e.smem_byte, t.byte_offset(e.j, e.i)) << e.i << "," << e.j;
    EXPECT_EQ(c->in_bounds, m.box[0] * 64);
    EXPECT_EQ(c->transaction_bytes, 64 * gmma::span_bytes(m.swizzle));
  }
}

// A box hanging over the corner of a 100 x 70 tensor: only the 36 x 6 elements inside are read;
// the rest are filled, and the transaction still counts the whole box.
TEST(TmaMap, OutOfBoundsElementsAreFilled) {
  tma::TensorMap2D m;
  m.dims[0] = 100;
  m.dims[1] = 70;
  m.row_stride_bytes = 208;
  m.box[1] = 8;
  auto c = tma::copy_box(m, 64, 64);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->in_bounds, 36 * 6);
  EXPECT_EQ(c->transaction_bytes, 8 * 128);
  EXPECT_FALSE(c->elements[7 * 64 + 0].in_bounds);
  EXPECT_TRUE(c->elements[5 * 64 + 35].in_bounds);
  EXPECT_FALSE(c->elements[5 * 64 + 36].in_bounds);
  EXPECT_EQ(tma::copy_box(m, -64, -8)->in_bounds, 0);
}

TEST(TmaMap, DriverRulesAreNamed) {
  tma::TensorMap2D m;
  m.row_stride_bytes = 8190;  // K = 4095 halves
  EXPECT_NE(tma::check_tensor_map(m).find("multiple of 16"), std::string::npos);
  m = {};
  m.box[1] = 257;
  EXPECT_NE(tma::check_tensor_map(m).find("1..256"), std::string::npos);
  m = {};
  m.box[0] = 32;  // 64-byte rows under the 128-byte swizzle
  EXPECT_NE(tma::check_tensor_map(m).find("128-byte swizzle"), std::string::npos);
  m.swizzle = gmma::Swizzle::None;
  EXPECT_EQ(tma::check_tensor_map(m), "");
  m.box[0] = 4;  // 8 bytes
  EXPECT_NE(tma::check_tensor_map(m).find("multiple of 16 bytes"), std::string::npos);
  EXPECT_FALSE(tma::copy_box(tma::TensorMap2D{}, 1LL << 31, 0));
}

// CuTe's CLayout of SM90_64xNx16_F32F16F16_SS for N = 16 and 128, thread by thread, register by
// register, through the fragment analysis the Fragments view draws.
TEST(WgmmaFragment, AccumulatorMatchesCute) {
  int cases = 0;
  for (const auto& c : test::cute_hopper_reference()["cases"]) {
    if (c["kind"] != "wgmma_accumulator") continue;
    FragmentRequest r;
    r.op = FragmentOp::WgmmaM64nNk16F16;
    r.wgmma_n = c["n"];
    r.operand = FragmentOperand::C;
    auto m = analyze_fragment(r);
    ASSERT_TRUE(m) << m.error();
    const auto& want = c["thread_value_to_mn"];
    ASSERT_EQ(want.size(), 128u);
    EXPECT_EQ(m->tile_rows, 64);
    EXPECT_EQ(m->tile_cols, r.wgmma_n);
    ASSERT_EQ(m->elements.size(), 128u * want[0].size());
    for (const auto& e : m->elements) {
      const auto& mn = want[e.lane][e.index];
      ASSERT_EQ(e.at, (FragCoord{mn[0], mn[1]})) << "thread " << e.lane << " d" << e.index;
    }
    ++cases;
  }
  EXPECT_EQ(cases, 2);
}

// A from registers: each warp's 16 rows, 8 halves per thread, every element of 64 x 16 once.
TEST(WgmmaFragment, AFromRegistersCoversTheTileOnce) {
  FragmentRequest r;
  r.op = FragmentOp::WgmmaM64nNk16F16;
  r.wgmma_n = 64;
  r.operand = FragmentOperand::A;
  auto m = analyze_fragment(r);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->registers_per_lane, 4);
  std::set<std::pair<int, int>> seen;
  for (const auto& e : m->elements) {
    EXPECT_EQ(e.at.row / 16, e.lane / 32);
    seen.insert({e.at.row, e.at.col});
  }
  EXPECT_EQ(seen.size(), 64u * 16u);
  EXPECT_EQ(m->elements.size(), 64u * 16u);
  r.operand = FragmentOperand::B;
  auto b = analyze_fragment(r);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().find("shared memory"), std::string::npos);
  r.operand = FragmentOperand::C;
  r.wgmma_n = 12;
  EXPECT_FALSE(analyze_fragment(r));
}
