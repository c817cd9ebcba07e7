// The bank model against the measured table of sim/tests/data/hardware_rules.md (ncu on H100 and
// H200): every row is one test below, named after it, with the row's text in a comment. The
// addresses are built here from the row's description, never taken from the model.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "gemmlab/banks.h"
#include "gemmlab/swizzle.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

WarpRequest request(const char* op, const std::function<long long(int)>& address_of_lane) {
  WarpRequest r;
  auto parsed = parse_smem_op(op);
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  r.op = *parsed;
  for (int t = 0; t < kWarpLanes; ++t) r.addresses[t] = address_of_lane(t);
  return r;
}

struct WC {
  int wavefronts;
  int conflicts;
};

WC measure(const char* op, const std::function<long long(int)>& address_of_lane) {
  auto r = analyze_banks(request(op, address_of_lane));
  EXPECT_TRUE(r.ok()) << r.error();
  if (!r) return {-1, -1};
  return {r->wavefronts, r->conflicts};
}

// Asserts W/C for both the load and the store form, for rows that say "LDS/STS".
void expect_lds_sts(int bits, const std::function<long long(int)>& address_of_lane, WC want) {
  for (const char* kind : {"lds", "sts"}) {
    const std::string op = std::string(kind) + "." + std::to_string(bits);
    SCOPED_TRACE(op);
    const WC got = measure(op.c_str(), address_of_lane);
    EXPECT_EQ(got.wavefronts, want.wavefronts);
    EXPECT_EQ(got.conflicts, want.conflicts);
  }
}

void expect_wc(const char* op, const std::function<long long(int)>& address_of_lane, WC want) {
  SCOPED_TRACE(op);
  const WC got = measure(op, address_of_lane);
  EXPECT_EQ(got.wavefronts, want.wavefronts);
  EXPECT_EQ(got.conflicts, want.conflicts);
}

}  // namespace

// ---- hardware_rules.md, "Shared-memory banks": one test per table row.

// | LDS/STS.32 | linear | 1/0 |
TEST(BanksHardwareTable, Row01_Lds32Sts32_Linear) { expect_lds_sts(32, [](int t) { return 4 * t; }, {1, 0}); }

// | LDS/STS.32 | 8-byte stride | 2/1 |
TEST(BanksHardwareTable, Row02_Lds32Sts32_EightByteStride) {
  expect_lds_sts(32, [](int t) { return 8 * t; }, {2, 1});
}

// | LDS/STS.32 | 32 different words in one bank | 32/31 |
TEST(BanksHardwareTable, Row03_Lds32Sts32_ThirtyTwoWordsOneBank) {
  expect_lds_sts(32, [](int t) { return 128 * t; }, {32, 31});
}

// | LDS/STS.32 | all lanes one address | 1/0 |
TEST(BanksHardwareTable, Row04_Lds32Sts32_AllLanesOneAddress) {
  expect_lds_sts(32, [](int) { return 256; }, {1, 0});
}

// | LDS/STS.64 | linear | 2/0 |
TEST(BanksHardwareTable, Row05_Lds64Sts64_Linear) { expect_lds_sts(64, [](int t) { return 8 * t; }, {2, 0}); }

// | LDS/STS.64 | both half-warps identical | 2/0 |
TEST(BanksHardwareTable, Row06_Lds64Sts64_BothHalfWarpsIdentical) {
  expect_lds_sts(64, [](int t) { return 8 * (t % 16); }, {2, 0});
}

// | LDS/STS.64 | conflicts inside each half-warp only | 4/2 |
// Half warp 0: lanes 0-7 and 8-15 both hit banks 0-15 (words 128 B apart); half warp 1 the same
// on banks 16-31. Pairing lanes 0-7 with 16-23 would be conflict-free, but phases are fixed.
TEST(BanksHardwareTable, Row07_Lds64Sts64_ConflictsInsideEachHalfWarpOnly) {
  expect_lds_sts(64, [](int t) { return (t / 16) * 64 + ((t / 8) % 2) * 128 + 8 * (t % 8); }, {4, 2});
}

// | LDS/STS.128 | linear | 4/0 |
TEST(BanksHardwareTable, Row08_Lds128Sts128_Linear) {
  expect_lds_sts(128, [](int t) { return 16 * t; }, {4, 0});
}

// | LDS/STS.128 | 32 rows 128 B apart | 32/28 |
TEST(BanksHardwareTable, Row09_Lds128Sts128_ThirtyTwoRows128BApart) {
  expect_lds_sts(128, [](int t) { return 128 * t; }, {32, 28});
}

// | LDS/STS.128 | conflicts inside each quarter-warp only | 8/4 |
// In each quarter, lanes 0-3 and 4-7 hit the same 16 banks 128 B apart; quarters 0/2 use banks
// 0-15 and 1/3 banks 16-31 of different rows, so regrouping across quarters would not conflict.
TEST(BanksHardwareTable, Row10_Lds128Sts128_ConflictsInsideEachQuarterWarpOnly) {
  expect_lds_sts(128,
                 [](int t) {
                   const int q = t / 8, j = t % 8;
                   return 256 * (q / 2) + 64 * (q % 2) + 128 * (j / 4) + 16 * (j % 4);
                 },
                 {8, 4});
}

// | LDS.128 | lane T shares its address with T^1 | 2/0 |
TEST(BanksHardwareTable, Row11_Lds128_LaneTSharesAddressWithTXor1) {
  expect_wc("lds.128", [](int t) { return 16 * (t / 2); }, {2, 0});
}

// | LDS.128 | all lanes one address | 2/0 |
TEST(BanksHardwareTable, Row12_Lds128_AllLanesOneAddress) {
  expect_wc("lds.128", [](int) { return 512; }, {2, 0});
}

// | ldmatrix .x1 / .x2 / .x4 | rows 16 B apart | 1/0, 2/0, 4/0 |
TEST(BanksHardwareTable, Row13_Ldmatrix_Rows16BApart) {
  expect_wc("ldsm.x1", [](int t) { return 16 * t; }, {1, 0});
  expect_wc("ldsm.x2", [](int t) { return 16 * t; }, {2, 0});
  expect_wc("ldsm.x4", [](int t) { return 16 * t; }, {4, 0});
}

// | ldmatrix .x1 | rows 128 B apart | 8/7 |
TEST(BanksHardwareTable, Row14_LdmatrixX1_Rows128BApart) {
  expect_wc("ldsm.x1", [](int t) { return 128 * t; }, {8, 7});
}

// | ldmatrix .x4 (and .trans) | rows 128 B apart | 32/28 |
TEST(BanksHardwareTable, Row15_LdmatrixX4AndTrans_Rows128BApart) {
  expect_wc("ldsm.x4", [](int t) { return 128 * t; }, {32, 28});
  expect_wc("ldsm.x4.trans", [](int t) { return 128 * t; }, {32, 28});
}

// | ldmatrix .x4 | each 8-address group 2-way conflicted | 8/4 |
// Rows 0-3 of each matrix are 16 B apart, rows 4-7 the same banks one 128-byte line further.
TEST(BanksHardwareTable, Row16_LdmatrixX4_EachGroupTwoWayConflicted) {
  expect_wc("ldsm.x4",
            [](int t) { return 1024 * (t / 8) + 128 * ((t % 8) / 4) + 16 * (t % 4); }, {8, 4});
}

// | ldmatrix .x4 | rows 128 B apart, 16-byte chunk index XOR (row % 8) (CuTe Swizzle<3,4,3> on
// bytes) | 4/0 |
TEST(BanksHardwareTable, Row17_LdmatrixX4_Rows128BApartSwizzle343OnBytes) {
  const Swizzle<3, 4, 3> swizzle;
  expect_wc("ldsm.x4", [&](int t) { return swizzle(128 * t); }, {4, 0});
  // The same addresses written out: chunk 0 of row r moves to chunk r % 8.
  expect_wc("ldsm.x4", [](int t) { return 128 * t + 16 * (t % 8); }, {4, 0});
}

// ---- Phases and lanes, as hardware_rules.md describes them.

TEST(Banks, PhasesFollowTheFixedSplit) {
  auto lds64 = analyze_banks(request("lds.64", [](int t) { return 8 * t; }));
  ASSERT_TRUE(lds64.ok());
  ASSERT_EQ(lds64->phase_count, 2);
  EXPECT_EQ(lds64->phases[0].lanes, 0x0000ffffu);  // lanes 0-15
  EXPECT_EQ(lds64->phases[1].lanes, 0xffff0000u);  // lanes 16-31
  auto lds128 = analyze_banks(request("lds.128", [](int t) { return 16 * t; }));
  ASSERT_TRUE(lds128.ok());
  ASSERT_EQ(lds128->phase_count, 4);
  EXPECT_EQ(lds128->phases[2].lanes, 0x00ff0000u);  // lanes 16-23
  EXPECT_FALSE(lds128->paired_lanes);
  auto ldsm = analyze_banks(request("ldsm.x2", [](int t) { return 16 * t; }));
  ASSERT_TRUE(ldsm.ok());
  ASSERT_EQ(ldsm->phase_count, 2);
  EXPECT_EQ(ldsm->phases[1].lanes, 0x0000ff00u);  // matrix 1: lanes 8-15
}

// 32 lanes, 128 B apart, LDS.32: every word in bank 0, listed once per word.
TEST(Banks, PhaseListsDistinctWordsPerBank) {
  auto r = analyze_banks(request("lds.32", [](int t) { return 128 * t; }));
  ASSERT_TRUE(r.ok());
  const BankPhase& p = r->phases[0];
  EXPECT_EQ(p.words_in_bank[0], 32);
  EXPECT_EQ(p.words_in_bank[1], 0);
  ASSERT_EQ(p.word_count, 32);
  EXPECT_EQ(p.words[5].word, 5 * 32);  // lane 5: byte 640 = word 160
  EXPECT_EQ(r->lanes[5].bank(), 0);
}

// A 128-bit access covers 4 words: lane 1 of a linear LDS.128 holds bytes 16..31 = banks 4-7.
TEST(Banks, MultiWordAccessCountsEveryWord) {
  auto r = analyze_banks(request("lds.128", [](int t) { return 16 * t; }));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->words_per_lane, 4);
  EXPECT_EQ(r->lanes[1].bank(), 4);
  const BankPhase& q0 = r->phases[0];
  EXPECT_EQ(q0.word_count, 32);  // 8 lanes x 4 words, all distinct
  for (int b = 0; b < kSmemBanks; ++b) EXPECT_EQ(q0.words_in_bank[b], 1) << "bank " << b;
}

// Inactive lanes take no part: "32 different words in one bank" with half the lanes off.
TEST(Banks, MaskSwitchesLanesOff) {
  auto req = request("lds.32", [](int t) { return 128 * t; });
  req.mask = 0x0000ffffu;
  auto r = analyze_banks(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 16);
  EXPECT_EQ(r->conflicts, 15);
  EXPECT_FALSE(r->lanes[16].active);
  EXPECT_EQ(r->lanes[16].phase, -1);

  req.mask = 0;  // nothing active: no wavefront at all
  r = analyze_banks(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 0);
  EXPECT_EQ(r->conflicts, 0);

  // An inactive lane's register may hold anything: its address is not checked.
  auto odd = request("lds.64", [](int t) { return t == 3 ? 5 : 8 * t; });
  odd.mask = ~(1u << 3);
  EXPECT_TRUE(analyze_banks(odd).ok());
}

// Same word to many lanes is free: two words in bank 0, each read by 16 lanes, cost 2, not 32.
TEST(Banks, BroadcastOnLoads) {
  auto r = analyze_banks(request("lds.32", [](int t) { return (t % 2) * 128; }));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 2);
  EXPECT_EQ(r->conflicts, 1);
  ASSERT_EQ(r->phases[0].word_count, 2);
  EXPECT_EQ(r->phases[0].words[0].lanes, 16);
}

// On stores one lane wins: 32 lanes writing one word cost one wavefront (table row 4, STS).
TEST(Banks, StoreOneLaneWins) {
  auto r = analyze_banks(request("sts.32", [](int) { return 64; }));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 1);
  EXPECT_EQ(r->phases[0].word_count, 1);
  EXPECT_EQ(r->phases[0].words[0].lanes, 32);
  EXPECT_FALSE(smem_op_is_load(r->op));
}

// The pairing of rows 11 and 12 is reported, with the half-warp phases it implies; stores with
// the same addresses keep four phases (bank_probe_h200.txt: "STS.128 T shares with T^1" 4/0).
TEST(Banks, PairedLanesAreReportedForLoadsOnly) {
  auto lds = analyze_banks(request("lds.128", [](int t) { return 16 * (t / 2); }));
  ASSERT_TRUE(lds.ok());
  EXPECT_TRUE(lds->paired_lanes);
  ASSERT_EQ(lds->phase_count, 2);
  EXPECT_EQ(lds->phases[1].lanes, 0xffff0000u);
  EXPECT_EQ(lds->note, nullptr);
  auto sts = analyze_banks(request("sts.128", [](int t) { return 16 * (t / 2); }));
  ASSERT_TRUE(sts.ok());
  EXPECT_FALSE(sts->paired_lanes);
  EXPECT_EQ(sts->phase_count, 4);
}

// Every probe measured with ncu on an H200 (sim/bench/bank_probe.cu), as recorded in
// sim/tests/data/bank_probe_h200.txt: op, mask, 32 addresses -> W/C.
TEST(BanksHardwareProbes, EveryMeasuredProbeMatches) {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/bank_probe_h200.txt");
  ASSERT_TRUE(in) << "cannot open bank_probe_h200.txt";
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    for (size_t start = 0;;) {
      const size_t bar = line.find('|', start);
      f.push_back(line.substr(start, bar - start));
      if (bar == std::string::npos) break;
      start = bar + 1;
    }
    ASSERT_EQ(f.size(), 7u) << line;
    SCOPED_TRACE(f[0]);
    ASSERT_EQ(f[5], "1") << "the probe must have run exactly one instruction";
    WarpRequest req;
    auto op = parse_smem_op(f[1]);
    ASSERT_TRUE(op.ok()) << op.error();
    req.op = *op;
    req.mask = static_cast<std::uint32_t>(std::stoul(f[2], nullptr, 16));
    std::stringstream addresses(f[6]);
    std::string a;
    int lane = 0;
    while (std::getline(addresses, a, ',') && lane < kWarpLanes) req.addresses[lane++] = std::stoll(a);
    ASSERT_EQ(lane, kWarpLanes);
    auto r = analyze_banks(req);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->wavefronts, std::stoi(f[3]));
    EXPECT_EQ(r->conflicts, std::stoi(f[4]));
    ++checked;
  }
  EXPECT_EQ(checked, 33);
}

TEST(Banks, CpAsyncIsModelledAsStsAndSaysNcuCannotVerify) {
  for (const char* op : {"ldgsts.4", "ldgsts.8", "ldgsts.16"}) {
    SCOPED_TRACE(op);
    const int bytes = std::string(op) == "ldgsts.4" ? 4 : std::string(op) == "ldgsts.8" ? 8 : 16;
    auto r = analyze_banks(request(op, [&](int t) { return bytes * t; }));
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_NE(r->note, nullptr);
    EXPECT_NE(std::string(r->note).find("ncu cannot verify"), std::string::npos);
  }
  auto r = analyze_banks(request("ldgsts.16", [](int t) { return 128 * t; }));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::string(r->note).rfind("modelled as STS.128; ncu cannot verify", 0), 0u);
  EXPECT_EQ(r->wavefronts, 32);  // as STS.128, row 9: 32 rows 128 B apart
  EXPECT_EQ(r->conflicts, 28);
}

// ldmatrix .x1 reads lanes 0-7, .x2 lanes 0-15 (PTX ISA, ldmatrix): 8, 16 or 32 addresses give
// the same answer, and the ignored lanes' addresses are not checked.
TEST(Banks, LdmatrixX1AndX2UseOnlyTheirAddressLanes) {
  for (int count : {8, 16, 32}) {
    auto req = request("ldsm.x1", [](int t) { return t < 8 ? 128 * t : 3; });  // 3: misaligned
    req.address_count = count;
    auto r = analyze_banks(req);
    ASSERT_TRUE(r.ok()) << count << ": " << r.error();
    EXPECT_EQ(r->wavefronts, 8);  // row 14
    EXPECT_EQ(r->conflicts, 7);
    EXPECT_EQ(r->phase_count, 1);
    EXPECT_FALSE(r->lanes[8].active);
  }
  auto x2 = request("ldsm.x2", [](int t) { return 16 * t; });
  x2.address_count = 8;
  auto bad = analyze_banks(x2);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("16 or 32"), std::string::npos) << bad.error();
}

TEST(Banks, LdmatrixNeedsTheWholeWarp) {
  auto req = request("ldsm.x4", [](int t) { return 16 * t; });
  req.mask = 0x7fffffffu;
  auto r = analyze_banks(req);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("0xffffffff"), std::string::npos) << r.error();
}

TEST(Banks, MisalignedAddressesAreErrors) {
  struct Case {
    const char* op;
    int lane;
    long long address;
    const char* needs;
  };
  for (const Case& c : {Case{"lds.64", 3, 4 + 8 * 3, "multiple of 8"},
                        Case{"sts.128", 7, 8 + 16 * 7, "multiple of 16"},
                        Case{"lds.32", 0, 2, "multiple of 4"},
                        Case{"ldsm.x4", 9, 8 + 16 * 9, "16-byte row"}}) {
    SCOPED_TRACE(c.op);
    const int width = std::string(c.op) == "lds.64" ? 8 : std::string(c.op) == "lds.32" ? 4 : 16;
    auto req = request(c.op, [&](int t) { return t == c.lane ? c.address : width * t; });
    auto r = analyze_banks(req);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("lane " + std::to_string(c.lane)), std::string::npos) << r.error();
    EXPECT_NE(r.error().find(c.needs), std::string::npos) << r.error();
  }
}

TEST(Banks, AddressesOutsideSharedMemoryAreErrors) {
  // The last 16 bytes of 228 KB (232448 bytes) are fine; one access further is not.
  EXPECT_TRUE(analyze_banks(request("lds.128", [](int) { return 232432; })).ok());
  EXPECT_TRUE(analyze_banks(request("lds.32", [](int) { return 232444; })).ok());
  auto past = analyze_banks(request("lds.32", [](int t) { return t == 31 ? 232448 : 0; }));
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.error().find("lane 31"), std::string::npos) << past.error();
  EXPECT_NE(past.error().find("228 KB"), std::string::npos) << past.error();
  auto negative = analyze_banks(request("lds.32", [](int t) { return t == 2 ? -4 : 0; }));
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().find("negative"), std::string::npos) << negative.error();
}

TEST(Banks, OpNamesRoundTrip) {
  for (const char* name : {"lds.32", "lds.64", "lds.128", "sts.32", "sts.64", "sts.128", "ldsm.x1",
                           "ldsm.x2", "ldsm.x4", "ldsm.x1.trans", "ldsm.x2.trans", "ldsm.x4.trans",
                           "ldgsts.4", "ldgsts.8", "ldgsts.16"}) {
    auto op = parse_smem_op(name);
    ASSERT_TRUE(op.ok()) << name;
    EXPECT_EQ(smem_op_name(*op), name);
  }
  auto bad = parse_smem_op("lds.256");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("lds.256"), std::string::npos);
}

// ---- The CLI.

namespace {

std::string join_addresses(const std::function<long long(int)>& address_of_lane, int n = 32) {
  std::string s;
  for (int t = 0; t < n; ++t) s += (t ? "," : "") + std::to_string(address_of_lane(t));
  return s;
}

}  // namespace

TEST(BanksCli, RoundTripMatchesTable) {
  // Row 9: LDS.128, 32 rows 128 B apart -> 32/28 in four quarter-warp phases of 8 wavefronts.
  auto r = test::run_gemmlab({"sim", "banks", "--op", "lds.128", "--addresses",
                              join_addresses([](int t) { return 128 * t; })});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["op"], "lds.128");
  EXPECT_EQ(out["wavefronts"], 32);
  EXPECT_EQ(out["conflicts"], 28);
  ASSERT_EQ(out["phases"].size(), 4u);
  const json& q1 = out["phases"][1];
  EXPECT_EQ(q1["lanes"], json({8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(q1["banks"][0], 0);
  EXPECT_EQ(q1["words"][0], 8 * 32);  // lane 8: byte 1024
  EXPECT_EQ(q1["words_per_bank"][0].size(), 8u);
  EXPECT_EQ(q1["wavefronts"], 8);
  EXPECT_EQ(q1["conflicts"], 7);
  EXPECT_FALSE(out.contains("note"));

  // Row 11 through the CLI, with the note-free paired rule.
  r = test::run_gemmlab({"sim", "banks", "--op", "lds.128", "--addresses",
                         join_addresses([](int t) { return 16 * (t / 2); })});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["wavefronts"], 2);
  EXPECT_EQ(json::parse(r.out)["paired_lanes"], true);
}

TEST(BanksCli, MaskLdmatrixCountAndNote) {
  auto r = test::run_gemmlab({"sim", "banks", "--op", "lds.32", "--mask", "0xff", "--addresses",
                              join_addresses([](int t) { return 128 * t; })});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["wavefronts"], 8);
  EXPECT_EQ(json::parse(r.out)["phases"][0]["lanes"].size(), 8u);

  r = test::run_gemmlab({"sim", "banks", "--op", "ldsm.x1", "--addresses",
                         join_addresses([](int t) { return 128 * t; }, 8)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["wavefronts"], 8);  // row 14
  EXPECT_EQ(json::parse(r.out)["address_lanes"], 8);

  r = test::run_gemmlab({"sim", "banks", "--op", "ldgsts.16", "--addresses",
                         join_addresses([](int t) { return 16 * t; })});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["note"].get<std::string>().rfind(
                "modelled as STS.128; ncu cannot verify", 0),
            0u);
}

TEST(BanksCli, BadInputExitsTwoWithAMessageAndNoOutput) {
  const std::string linear32 = join_addresses([](int t) { return 4 * t; });
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  const std::vector<Case> cases = {
      {{"--op", "lds.256", "--addresses", linear32}, "unknown op"},
      {{"--op", "lds.32", "--addresses", "0,4,x"}, "not an integer"},
      {{"--op", "lds.32", "--addresses", "0,4,8"}, "takes 32 addresses"},
      {{"--op", "lds.32", "--addresses", linear32 + ",128"}, "at most 32"},
      {{"--op", "lds.32", "--addresses", linear32, "--mask", "0x1ffffffff"}, "32 bits"},
      {{"--op", "lds.32", "--addresses", linear32, "--mask", "lots"}, "not a number"},
      {{"--op", "lds.64", "--addresses", linear32}, "multiple of 8"},
      {{"--op", "lds.32", "--addresses", join_addresses([](int t) { return 232448 + 4 * t; })},
       "228 KB"},
      {{"--op", "lds.32", "--addresses", "9223372036854775804," + linear32.substr(2)}, "228 KB"},
      {{"--op", "lds.32"}, "missing --addresses"},
      {{"--addresses", linear32}, "missing required option --op"},
      {{"--op", "lds.32", "--addresses", linear32, "--colour", "red"}, "unknown option '--colour'"},
      {{"--op", "ldsm.x4", "--addresses", join_addresses([](int t) { return 16 * t; }), "--mask",
        "0xffff"},
       "0xffffffff"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"sim", "banks"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    SCOPED_TRACE(c.message);
    auto r = test::run_gemmlab(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}
