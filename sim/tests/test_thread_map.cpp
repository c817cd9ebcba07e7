// Thread maps against CUTLASS 4.7's own values (cutlass_layouts.json), through the library and
// through `gemmlab sim threadmap`.
#include <gtest/gtest.h>

#include "gemmlab/thread_map_analysis.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

ThreadMapParams params_of(const json& c) {
  ThreadMapParams p;
  p.kind = c["kind"] == "stripmined" ? ThreadMapKind::Stripmined : ThreadMapKind::WarpRaked;
  p.shape_c = c["shape"][0];
  p.shape_s = c["shape"][1];
  p.threads = c["threads"];
  p.access = c["elements_per_access"];
  if (c.contains("warp_arrangement")) {
    p.warp_c = c["warp_arrangement"][0];
    p.warp_s = c["warp_arrangement"][1];
  }
  return p;
}

std::vector<json> thread_map_cases() {
  auto v = test::cutlass_cases("stripmined");
  auto w = test::cutlass_cases("warp_raked");
  v.insert(v.end(), w.begin(), w.end());
  return v;
}

}  // namespace

TEST(ThreadMap, ReferenceHasCases) { EXPECT_EQ(thread_map_cases().size(), 11u); }

TEST(ThreadMap, MatchesCutlassThroughLibrary) {
  for (const auto& c : thread_map_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 160));
    auto r = analyze_thread_map(params_of(c));
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->geometry.iterations.c, c["iterations"][0]);
    EXPECT_EQ(r->geometry.iterations.s, c["iterations"][1]);
    EXPECT_EQ(r->geometry.delta.c, c["delta"][0]);
    EXPECT_EQ(r->geometry.delta.s, c["delta"][1]);
    ASSERT_EQ(r->initial_offsets.size(), c["offsets"].size());
    for (size_t t = 0; t < r->initial_offsets.size(); ++t) {
      EXPECT_EQ(r->initial_offsets[t].c, c["offsets"][t][0]) << "thread " << t;
      EXPECT_EQ(r->initial_offsets[t].s, c["offsets"][t][1]) << "thread " << t;
    }
  }
}

TEST(ThreadMap, MatchesCutlassThroughCli) {
  for (const auto& c : thread_map_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 160));
    std::vector<std::string> args = {
        "sim", "threadmap", "--map", c["kind"] == "stripmined" ? "stripmined" : "warp-raked",
        "--shape", std::to_string(int(c["shape"][0])) + "," + std::to_string(int(c["shape"][1])),
        "--threads", std::to_string(int(c["threads"])),
        "--access", std::to_string(int(c["elements_per_access"])), "--json"};
    if (c.contains("warp_arrangement")) {
      args.push_back("--warp-arrangement");
      args.push_back(std::to_string(int(c["warp_arrangement"][0])) + "," +
                     std::to_string(int(c["warp_arrangement"][1])));
    }
    auto r = test::run_gemmlab(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(out["iterations"], c["iterations"]);
    EXPECT_EQ(out["delta"], c["delta"]);
    EXPECT_EQ(out["offsets"], c["offsets"]);
  }
}

// Every element of a tile is moved exactly once when the shape divides evenly: the property
// that makes a thread map a correct loader.
TEST(ThreadMap, EveryElementExactlyOnce) {
  for (const auto& c : thread_map_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 160));
    auto r = analyze_thread_map(params_of(c));
    ASSERT_TRUE(r.ok());
    const int C = c["shape"][0], S = c["shape"][1];
    std::vector<int> hits(C * S, 0);
    for (const auto& a : r->accesses) {
      ASSERT_TRUE(a.in_tile);
      hits[a.element.s * C + a.element.c]++;
    }
    for (int h : hits) EXPECT_EQ(h, 1);
  }
}

TEST(ThreadMap, IteratorOrderIsStridedThenContiguousThenVector) {
  // (64,64) tile, 128 threads, 8 halves per access: Iterations (1,4), Delta (1,16).
  auto r = analyze_thread_map({ThreadMapKind::Stripmined, 64, 64, 128, 8});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->elements_per_thread(), 32);
  EXPECT_EQ(r->accesses_per_thread(), 4);  // one per vector: Iterations (1,4)
  // Thread 9 starts at (8,1): vector element v walks contiguous first, then s jumps 16 rows.
  const auto* t9 = &r->accesses[9 * 32];
  EXPECT_EQ(t9[0].element, (PitchCoord{8, 1}));
  EXPECT_EQ(t9[7].element, (PitchCoord{15, 1}));
  EXPECT_EQ(t9[8].element, (PitchCoord{8, 17}));
  EXPECT_EQ(t9[8].s, 1);
  EXPECT_EQ(t9[31].element, (PitchCoord{15, 49}));
  // The 8 halves of a vector are one access: the view's "1 access shown" draws all of them.
  EXPECT_EQ(r->index_in_thread(9 * 32 + 0), 0);
  EXPECT_EQ(r->index_in_thread(9 * 32 + 7), 0);
  EXPECT_EQ(r->index_in_thread(9 * 32 + 8), 1);
  EXPECT_EQ(r->index_in_thread(9 * 32 + 31), 3);
  EXPECT_EQ(r->index_in_thread(10 * 32), 0);
  EXPECT_EQ(r->first_element(9, 1), 9u * 32 + 8);  // thread 9's second vector starts at (8,17)
  EXPECT_EQ(r->accesses[r->first_element(9, 1)].element, (PitchCoord{8, 17}));
}

TEST(ThreadMap, WarpStripedInterleavesWarps) {
  // 4 warps on a (64,32) fp16 tile, 8 halves per access, warps (8,4): each warp's passes are 16
  // rows apart, where warp-raked would give each warp 8 consecutive rows.
  auto striped = analyze_thread_map({ThreadMapKind::WarpStriped, 64, 32, 128, 8, 8, 4});
  ASSERT_TRUE(striped.ok()) << striped.error();
  EXPECT_EQ(striped->geometry.iterations, (PitchCoord{1, 2}));
  EXPECT_EQ(striped->geometry.delta, (PitchCoord{64, 16}));
  EXPECT_EQ(striped->initial_offsets[32], (PitchCoord{0, 4}));
  auto raked = analyze_thread_map({ThreadMapKind::WarpRaked, 64, 32, 128, 8, 8, 4});
  ASSERT_TRUE(raked.ok());
  EXPECT_EQ(raked->geometry.delta, (PitchCoord{64, 4}));
  EXPECT_EQ(raked->initial_offsets[32], (PitchCoord{0, 8}));
}

TEST(ThreadMap, InvalidConfigurationsNameTheirRule) {
  struct Case {
    ThreadMapParams p;
    const char* needle;
  };
  const Case cases[] = {
      {{ThreadMapKind::Stripmined, 100, 8, 256, 8}, "divisible by kElementsPerAccess"},
      {{ThreadMapKind::Stripmined, 96, 8, 64, 1}, "divisible by number of iterations"},
      {{ThreadMapKind::Stripmined, 0, 8, 64, 1}, "positive"},
      {{ThreadMapKind::WarpRaked, 32, 128, 128, 8, 4, 4}, "exactly 32 threads"},
      {{ThreadMapKind::WarpRaked, 32, 128, 100, 8, 4, 8}, "multiple of 32"},
      {{ThreadMapKind::WarpRaked, 24, 128, 128, 8, 4, 8}, "WarpThreadArrangement::kContiguous"},
      {{ThreadMapKind::WarpRaked, 32, 12, 128, 8, 4, 8}, "WarpThreadArrangement::kStrided"},
      {{ThreadMapKind::WarpRaked, 32, 8, 256, 8, 4, 8}, "iterations must be non-zero"},
      {{ThreadMapKind::Stripmined, 128, 8, 2048, 1}, "1024"},
  };
  for (const auto& c : cases) {
    auto r = analyze_thread_map(c.p);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find(c.needle), std::string::npos) << r.error();
  }
}

TEST(ThreadMap, CliRejectsMalformedInput) {
  const std::vector<std::vector<std::string>> bad = {
      {"sim", "threadmap", "--map", "diagonal", "--shape", "128,8", "--threads", "256"},
      {"sim", "threadmap", "--map", "stripmined", "--shape", "128", "--threads", "256"},
      {"sim", "threadmap", "--map", "stripmined", "--shape", "128,x", "--threads", "256"},
      {"sim", "threadmap", "--map", "stripmined", "--shape", "128,8"},
      {"sim", "threadmap", "--map", "stripmined", "--shape", "128,8", "--threads", "256",
       "--bogus", "1"},
      {"sim", "threadmap", "--map", "warp-raked", "--shape", "32,128", "--threads", "128"},
      {"sim", "threadmap", "--map", "stripmined", "--shape", "99999999,99999999", "--threads",
       "256"},
      {"sim", "threadmap", "--map"},
      {"sim", "nosuchcommand"},
  };
  for (const auto& args : bad) {
    auto r = test::run_gemmlab(args);
    EXPECT_EQ(r.exit_code, 2) << args[3];
    EXPECT_FALSE(r.err.empty());
    EXPECT_TRUE(r.out.empty());
  }
}

// The thread map view's picture: each element's access, and accesses past the tile counted.
TEST(ThreadMap, OwnersAndIndexInThread) {
  ThreadMapParams p;  // CUTLASS 00_basic_gemm's A loader: (128, 8), 256 threads, scalar
  p.kind = ThreadMapKind::Stripmined;
  p.shape_c = 128, p.shape_s = 8, p.threads = 256, p.access = 1;
  auto r = analyze_thread_map(p);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->accesses_per_thread(), 4);  // Iterations (1, 4)
  const ThreadMapOwners o = thread_map_owners(*r);
  ASSERT_EQ(o.access.size(), 128u * 8u);
  EXPECT_EQ(o.outside, 0);
  // Element (c 5, s 2): thread 5 + 128 * (2 % 2) = 5, its access s = 1 (Delta (1, 2)).
  const int a = o.access[2 * 128 + 5];
  ASSERT_GE(a, 0);
  EXPECT_EQ(r->accesses[a].thread, 5);
  EXPECT_EQ(r->accesses[a].s, 1);
  EXPECT_EQ(r->index_in_thread(static_cast<size_t>(a)), 1);
  // 32 x 5 with 64 threads: Iterations (1, 3) round 5 rows up to 6, so the last pass of the
  // threads on row 1 falls past the tile: 192 accesses, 160 elements, 32 outside.
  p.shape_c = 32, p.shape_s = 5, p.threads = 64;
  auto q = analyze_thread_map(p);
  ASSERT_TRUE(q.ok()) << q.error();
  const ThreadMapOwners oq = thread_map_owners(*q);
  long long covered = 0;
  for (int x : oq.access) covered += x >= 0;
  EXPECT_EQ(covered, 32 * 5);
  EXPECT_EQ(oq.outside, 32);
  EXPECT_EQ(q->accesses.size(), 192u);
}
