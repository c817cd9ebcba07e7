// "The simulator replays exactly the kernel that runs", checked for the shared-memory instructions
// of GEMM Lab's own kernels. For every stage, every shared load and store of one k-tile (and the
// epilogue) is rebuilt lane by lane from the SAME header functions the kernel calls
// (gemmlab/simt_warp_tile.h, sliced_k_tile.h, fp16_smem_tile.h, thread_map.h, fragments.h, with
// the stage shapes of sim/include/gemmlab/fp16_shapes.h), for every warp of the block, and run through
// the bank model (banks.h). Two checks per stage:
//   1. each instruction costs what the isolated-warp hardware rule says (hardware_rules.md, the
//      probes of bank_probe_h200.txt), for every warp;
//   2. the instruction mix over the whole 4096^3 run gives the count ncu measured and the
//      wavefronts / conflicts per instruction ncu measured on the H200
//      (data/kernel_smem_ncu_h200.json: the committed CSV and FP16_NOTES.md), within 0.05 per
//      instruction; where a full kernel measures more than the isolated rule for a documented,
//      unexplained reason, the residue is asserted to be no larger than documented, and printed.
//
// What stays unexplained (ncu minus the isolated rules, per instruction; H200, 2026-11-22):
//   sliced-k STS.32 +0.127 and simt-tile STS.32 +0.068, all of it counted as "bank conflicts",
//     on stores whose 32 lanes hit 32 different banks (kernels/README.md, Notes for the simulator);
//   the 128-bit tile stores of stages 8 / 9 / 10 +0.21 / +0.14 / +0.30 on STS.128 that write 128
//     contiguous bytes per phase (FP16_NOTES.md guesses the other resident block's loads);
//   within the 0.05 tolerance: double-buffer / block-swizzle / split-k stores +0.014..0.016 on the
//     8/5 = 1.600 mix, stream-k +0.009 (loads) and +0.021 (stores; its shared fix-up state is not
//     modelled, so its instruction counts are not compared), epilogue loads +0.007, multistage
//     loads +0.0003. The model is the isolated-warp rule; it is not tuned to these residues.
//
// Addresses are byte offsets in the block's shared memory. Where the kernel has two separate
// __shared__ arrays (sliced-k, stages 8-10) their relative placement is ptxas's; both start on a
// 128-byte boundary (the fp16 arrays are __align__(128); sliced-k's are 4096 bytes each) and a
// common shift of all addresses by a multiple of 16 bytes only rotates the banks, so the costs
// below do not depend on it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "gemmlab/fp16_shapes.h"
#include "gemmlab/banks.h"
#include "gemmlab/fp16_smem_tile.h"
#include "gemmlab/simt_warp_tile.h"
#include "gemmlab/sliced_k_tile.h"
#include "gemmlab/thread_map.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

constexpr int kProblem = 4096;           // M = N = K of the ncu runs
constexpr double kTolerance = 0.05;      // wavefronts (or conflicts) per instruction

// The cost the isolated-warp measurements give this access pattern, and where that is written.
struct Rule {
  int wavefronts;
  int conflicts;
  const char* source;
};

// Rules quoted from sim/tests/data/hardware_rules.md (table rows) and bank_probe_h200.txt (probe
// names); "bank arithmetic" where the rule is the general one of hardware_rules.md
// (bank = word % 32, one wavefront per distinct word per bank and phase).
const Rule kLinear32{1, 0, "hardware_rules.md: LDS/STS.32 linear 1/0"};
const Rule kDistinctBanks32{1, 0, "bank arithmetic: 32 lanes, 32 different banks, 1/0"};
const Rule kLinear128{4, 0, "hardware_rules.md: LDS/STS.128 linear 4/0"};
const Rule kBroadcast128{2, 0, "hardware_rules.md: LDS.128 all lanes one address 2/0"};
const Rule kPairsT1_128{2, 0, "hardware_rules.md: LDS.128 lane T shares its address with T^1 2/0"};
const Rule kPairsT2_128{2, 0, "bank_probe_h200.txt: LDS.128 T shares with T^2 2/0"};
const Rule kRowsR2_32{4, 3,
                      "bank arithmetic: 8 rows 64 B apart, rows r and r+2 in the same 4 banks: "
                      "4 words per bank in the one 32-lane phase, 4/3"};
const Rule kLdsmRowsR2{16, 12,
                       "bank arithmetic (hardware_rules.md: one phase per 8x8 matrix): 8 rows 64 B "
                       "apart, 4 per bank group, 4 wavefronts per matrix, 16/12"};
const Rule kLdsmSwizzled{4, 0,
                         "hardware_rules.md: ldmatrix .x4 rows 16-byte chunk index XOR (row % 8) "
                         "(CuTe Swizzle<3,4,3> on bytes = Swizzle<3,3,3> on halves) 4/0"};
const Rule kCpAsync16{4, 0,
                      "hardware_rules.md: cp.async of 16 bytes modelled as STS.128, linear 4/0 "
                      "(ncu shows no wavefronts for it)"};

struct Instruction {
  std::string what;
  std::string op;  // parse_smem_op name
  long long per_warp = 0;  // executions per warp over the whole 4096^3 run
  Rule expect;
  std::function<long long(int warp, int lane)> address;  // byte address in the block's smem
  bool counted_by_ncu = true;  // false: LDGSTS (cp.async) has no shared-memory counters
};

struct StageModel {
  std::string stage;
  long long blocks = 0;  // launched at 4096^3
  int warps = 0;         // per block
  std::vector<Instruction> loads, stores;
  // Stream-k's fix-up state in shared memory is not modelled: its counts are not checked.
  bool complete = true;
};

// Byte offset of an element from the start of the host copy of the block's shared memory.
template <class T, class Base>
long long byte_of(const T& element, const Base& base) {
  return reinterpret_cast<const char*>(&element) - reinterpret_cast<const char*>(&base);
}

BankAnalysis analyze(const Instruction& in, int warp) {
  WarpRequest r;
  const auto op = parse_smem_op(in.op);
  EXPECT_TRUE(op.ok()) << op.error();
  r.op = *op;
  for (int lane = 0; lane < kWarpLanes; ++lane) r.addresses[lane] = in.address(warp, lane);
  const auto a = analyze_banks(r);
  EXPECT_TRUE(a.ok()) << in.what << ": " << a.error();
  return a.ok() ? *a : BankAnalysis{};
}

// ---- Stage 2, sliced-k: 32x32 threads (warp w = row ty = w), k slices of 32 --------------------
StageModel sliced_k() {
  namespace sk = sliced_k_tile;
  static sk::Tile smem[2];  // As, then Bs (static: the lambdas below use it after we return)
  const long long tiles = kProblem / sk::kTile;  // 128
  StageModel s{"sliced-k", (kProblem / sk::kTile) * (kProblem / sk::kTile), sk::kTile, {}, {}};
  // blockDim (32, 32): tx = lane, ty = warp.
  s.stores.push_back({"As[ty][tx] = A(m0 + tx, k0 + ty): STS.32", "sts.32", tiles, kLinear32,
                      [](int w, int l) { return byte_of(sk::a_at(smem[0], w, l), smem); }});
  s.stores.push_back({"Bs[ty][tx] = B(k0 + tx, n0 + ty): STS.32", "sts.32", tiles, kLinear32,
                      [](int w, int l) { return byte_of(sk::b_at(smem[1], w, l), smem); }});
  for (int k = 0; k < sk::kTile; ++k)
    s.loads.push_back({"As[k][tx], k " + std::to_string(k) + ": LDS.32", "lds.32", tiles,
                       kLinear32, [k](int, int l) { return byte_of(sk::a_at(smem[0], k, l), smem); }});
  // ptxas reads Bs[ty][k .. k+3] with one LDS.128 (kernels/README.md: 1.200 = four LDS.32 and one
  // LDS.128 per 4 k); the ncu instruction count (40 per warp and tile) confirms it below.
  for (int k = 0; k < sk::kTile; k += 4)
    s.loads.push_back({"Bs[ty][k..k+3], k " + std::to_string(k) + ": LDS.128 broadcast",
                       "lds.128", tiles, kBroadcast128,
                       [k](int w, int) { return byte_of(sk::b_at(smem[1], w, k), smem); }});
  return s;
}

// ---- Stages 3-7, the SIMT block: 128x128x8, 8 warps, 8x8 per thread ---------------------------
namespace st = simt_tile;

// Fragment loads of one k step from stage `stage`: A rows +0 / +16, B columns +0 / +32.
void simt_fragment_loads(StageModel& s, const st::SmemStage* smem, int stage, int k,
                         long long per_warp) {
  const std::string at = "stage " + std::to_string(stage) + ", k " + std::to_string(k);
  for (int i = 0; i < 2; ++i) {
    s.loads.push_back({"A fragment rows +" + std::to_string(16 * i) + ", " + at + ": LDS.128",
                       "lds.128", per_warp, kPairsT2_128, [=](int w, int l) {
                         const st::TileCoord o = st::thread_tile_origin(32 * w + l);
                         return byte_of(st::fragment_a(smem[stage], k, o, i), smem[0]);
                       }});
    s.loads.push_back({"B fragment columns +" + std::to_string(32 * i) + ", " + at + ": LDS.128",
                       "lds.128", per_warp, kPairsT1_128, [=](int w, int l) {
                         const st::TileCoord o = st::thread_tile_origin(32 * w + l);
                         return byte_of(st::fragment_b(smem[stage], k, o, i), smem[0]);
                       }});
  }
}

// TileLoader::store of one k-tile into stage `stage`, as fp32_simt.cuh writes it.
template <int kAccess>
void simt_tile_stores(StageModel& s, const st::SmemStage* smem, int stage, long long per_warp) {
  using AMap = typename st::ThreadMaps<kAccess>::A;
  using BMap = typename st::ThreadMaps<kAccess>::B;
  const std::string at = ", stage " + std::to_string(stage);
  auto a_first = [=](int w, int l) {  // byte address of &s.A[0][0] + a_sts
    return byte_of(smem[stage].A[0][0], smem[0]) + 4LL * st::store_a(AMap::initial_offset(32 * w + l));
  };
  auto b_first = [=](int w, int l) {
    return byte_of(smem[stage].B[0][0], smem[0]) + 4LL * st::store_b(BMap::initial_offset(32 * w + l));
  };
  if constexpr (kAccess == 4) {
    s.stores.push_back({"A float4 (4 m of one k)" + at + ": STS.128", "sts.128", per_warp,
                        kLinear128, a_first});
    for (int v = 0; v < 4; ++v)
      s.stores.push_back({"B k + " + std::to_string(v) + " of one n (the transpose)" + at +
                              ": STS.32",
                          "sts.32", per_warp, kDistinctBanks32,
                          [=](int w, int l) { return b_first(w, l) + 4LL * st::smem_b(v, 0); }});
  } else {
    for (int i = 0; i < st::kLoads; ++i) {
      s.stores.push_back({"A access " + std::to_string(i) + at + ": STS.32", "sts.32", per_warp,
                          kLinear32, [=](int w, int l) {
                            return a_first(w, l) + 4LL * st::smem_a(i * AMap::kDeltaS, 0);
                          }});
      s.stores.push_back({"B access " + std::to_string(i) + " (the transpose)" + at + ": STS.32",
                          "sts.32", per_warp, kDistinctBanks32, [=](int w, int l) {
                            return b_first(w, l) + 4LL * st::smem_b(0, i * BMap::kDeltaS);
                          }});
    }
  }
}

constexpr long long kSimtBlocks = (kProblem / st::kTileM) * (kProblem / st::kTileN);  // 1024
constexpr long long kSimtTiles = kProblem / st::kTileK;                               // 512

// Stage 3: one stage, scalar loads (fp32/03_simt_tile.cu: TileLoader<1>), load / sync / store / sync.
StageModel simt_tile_stage() {
  static st::SmemStage smem[1];
  StageModel s{"simt-tile", kSimtBlocks, st::kThreads / 32, {}, {}};
  for (int k = 0; k < st::kTileK; ++k) simt_fragment_loads(s, smem, 0, k, kSimtTiles);
  simt_tile_stores<1>(s, smem, 0, kSimtTiles);
  return s;
}

// Stages 4-7: mainloop_pipelined, two stages; at 4096^3 the 128-bit loads (ab_vector_ok: M, K
// multiples of 4): TileLoader<4>. Tile t is read from stage t % 2; the prologue stores tile 0 to
// stage 0 and reads its k 0; tile t stores tile t+1 (zeros after the last) to stage (t+1) % 2.
StageModel pipelined(const std::string& stage, bool complete = true) {
  static st::SmemStage smem[2];
  StageModel s{stage, kSimtBlocks, st::kThreads / 32, {}, {}, complete};
  for (int buffer = 0; buffer < 2; ++buffer) {
    for (int k = 0; k < st::kTileK; ++k)
      simt_fragment_loads(s, smem, buffer, k, kSimtTiles / 2 + (buffer == 0 && k == 0 ? 1 : 0));
    simt_tile_stores<4>(s, smem, buffer, kSimtTiles / 2 + (buffer == 0 ? 1 : 0));
  }
  return s;
}

// ---- Stages 8-10: fp16, 128x128x32, 8 warps of 64x32, one register-staged buffer ---------------
namespace f16 = kernels::fp16;
namespace ft = fp16_tile;

template <class Shape>
struct WarpOrigin {  // as sync_tile_kernel / MultistageMainloop compute it
  static int m(int warp) { return (warp / Shape::kWarpsN) * Shape::kWarpM; }
  static int n(int warp) { return (warp % Shape::kWarpsN) * Shape::kWarpN; }
};


// OperandTileCopy's stores of one operand tile (kRows rows) at byte `base`: STS.128 from
// registers (stages 8-10) or cp.async 16 bytes (stages 11-12), one per thread-map access.
template <class Layout, int kRows, int kTileK, int kThreads>
void operand_stores(StageModel& s, const std::string& what, const std::string& op, long long base,
                    long long per_warp, Rule rule, bool counted) {
  using ThreadMap = ft::OperandThreadMap<kRows, kTileK, kThreads>;
  for (int i = 0; i < ThreadMap::kAccesses; ++i)
    s.stores.push_back({what + ", access " + std::to_string(i), op, per_warp, rule,
                        [=](int w, int l) {
                          const PitchCoord start = ThreadMap::Map::initial_offset(32 * w + l);
                          return base + 2LL * ft::tile_store_offset<Layout, ThreadMap>(start, i);
                        },
                        counted});
}

template <class Stage>
StageModel sync_stage(const std::string& name, Rule fragment_rule) {
  using S = typename Stage::Shape;
  using Layout = ft::SmemOperandLayout<S::kTileK, Stage::kSwizzled>;
  using Origin = WarpOrigin<S>;
  constexpr long long kB = 2LL * S::kTileM * S::kTileK;  // sB after sA (8 KB each)
  constexpr int kMmaM = S::kWarpM / 16, kMmaN = S::kWarpN / 8;
  const long long tiles = kProblem / S::kTileK;  // 128
  StageModel s{name, (kProblem / S::kTileM) * (kProblem / S::kTileN), S::kThreads / 32, {}, {}};
  for (int kk = 0; kk < S::kTileK; kk += 16) {
    const std::string at = ", k step " + std::to_string(kk);
    if constexpr (Stage::kLoad == f16::FragmentLoad::Lds32) {
      for (int mi = 0; mi < kMmaM; ++mi)
        for (int r = 0; r < 4; ++r)
          s.loads.push_back({"A m16 tile " + std::to_string(mi) + " register " + std::to_string(r) +
                                 at + ": LDS.32",
                             "lds.32", tiles, fragment_rule, [=](int w, int l) {
                               return 2LL * ft::lds32_a_offset<Layout>(Origin::m(w), mi, kk, l, r);
                             }});
      for (int ni = 0; ni < kMmaN; ++ni)
        for (int r = 0; r < 2; ++r)
          s.loads.push_back({"B n8 tile " + std::to_string(ni) + " register " + std::to_string(r) +
                                 at + ": LDS.32",
                             "lds.32", tiles, fragment_rule, [=](int w, int l) {
                               return kB +
                                      2LL * ft::lds32_b_offset<Layout>(Origin::n(w), ni, kk, l, r);
                             }});
    } else {
      auto lane_offsets = [](int w, int l) {
        return ft::LdsmLaneOffsets::of<Layout>(Origin::m(w), Origin::n(w), l);
      };
      for (int mi = 0; mi < kMmaM; ++mi)
        s.loads.push_back({"A m16 tile " + std::to_string(mi) + at + ": ldmatrix.x4", "ldsm.x4",
                           tiles, fragment_rule, [=](int w, int l) {
                             return 2LL * ft::ldsm_step_offset<S::kTileK>(lane_offsets(w, l).a, kk,
                                                                           mi);
                           }});
      for (int nj = 0; nj < kMmaN / 2; ++nj)
        s.loads.push_back({"B n16 pair " + std::to_string(nj) + at + ": ldmatrix.x4", "ldsm.x4",
                           tiles, fragment_rule, [=](int w, int l) {
                             return kB + 2LL * ft::ldsm_step_offset<S::kTileK>(
                                                   lane_offsets(w, l).b, kk, nj);
                           }});
    }
  }
  operand_stores<Layout, S::kTileM, S::kTileK, S::kThreads>(s, "A tile", "sts.128", 0, tiles,
                                                            kLinear128, true);
  operand_stores<Layout, S::kTileN, S::kTileK, S::kThreads>(s, "B tile", "sts.128", kB, tiles,
                                                            kLinear128, true);
  return s;
}

// ---- Stages 11-12: cp.async multistage (kStages buffers of A tile then B tile, swizzled) --------
// load_step(stage, kk): 4 ldmatrix.x4 of A and kMmaN / 2 of B. The prologue loads step 0 of stage
// 0; in tile t step 0 loads step 1 of stage t % kStages and the last step loads step 0 of stage
// (t+1) % kStages. issue_tile copies tile t (zero-filled past K) into stage t % kStages: the
// prologue tiles 0 .. kStages-2, then one per loop tile.
template <class S>
void multistage_mainloop(StageModel& s) {
  using Layout = ft::SmemOperandLayout<S::kTileK, S::kSwizzled>;
  using Origin = WarpOrigin<S>;
  constexpr int kStageBytes = S::kStageHalves * 2, kBOffsetBytes = S::kBOffsetHalves * 2;
  constexpr int kMmaM = S::kWarpM / 16, kMmaN = S::kWarpN / 8;
  static_assert(S::kStepsPerTile == 2, "the counts below are for two k16 steps per tile");
  const int tiles = kProblem / S::kTileK;  // 128
  for (int stage = 0; stage < S::kStages; ++stage) {
    // Reads of the stage: step 1 by tiles t = stage mod kStages, step 0 by tiles t with
    // (t+1) % kStages == stage, plus the prologue's step 0 of stage 0.
    const long long reads = tiles / S::kStages;
    for (int step = 0; step < S::kStepsPerTile; ++step) {
      const int kk = 16 * step;
      const long long per_warp = reads + (stage == 0 && step == 0 ? 1 : 0);
      const std::string at = ", stage " + std::to_string(stage) + ", k step " + std::to_string(kk);
      auto lane_offsets = [](int w, int l) {
        return ft::LdsmLaneOffsets::of<Layout>(Origin::m(w), Origin::n(w), l);
      };
      for (int mi = 0; mi < kMmaM; ++mi)
        s.loads.push_back({"A m16 tile " + std::to_string(mi) + at + ": ldmatrix.x4", "ldsm.x4",
                           per_warp, kLdsmSwizzled, [=](int w, int l) {
                             const std::uint32_t a_base = 2u * lane_offsets(w, l).a;
                             return stage * kStageBytes +
                                    (long long)ft::ldsm_step_offset<S::kTileK, 2>(a_base, kk, mi);
                           }});
      for (int nj = 0; nj < kMmaN / 2; ++nj)
        s.loads.push_back({"B n16 pair " + std::to_string(nj) + at + ": ldmatrix.x4", "ldsm.x4",
                           per_warp, kLdsmSwizzled, [=](int w, int l) {
                             const std::uint32_t b_base = kBOffsetBytes + 2u * lane_offsets(w, l).b;
                             return stage * kStageBytes +
                                    (long long)ft::ldsm_step_offset<S::kTileK, 2>(b_base, kk, nj);
                           }});
    }
    const int issued = tiles + S::kStages - 1;  // 131 tiles issued for 128
    const long long copies = issued / S::kStages + (stage < issued % S::kStages ? 1 : 0);
    const std::string at = ", stage " + std::to_string(stage);
    operand_stores<Layout, S::kTileM, S::kTileK, S::kThreads>(
        s, "A tile" + at + ": cp.async 16 B", "ldgsts.16", stage * kStageBytes, copies, kCpAsync16,
        false);
    operand_stores<Layout, S::kTileN, S::kTileK, S::kThreads>(
        s, "B tile" + at + ": cp.async 16 B", "ldgsts.16", stage * kStageBytes + kBOffsetBytes,
        copies, kCpAsync16, false);
  }
}

StageModel multistage() {
  using S = f16::MultistageStage::Shape;
  StageModel s{"multistage", (kProblem / S::kTileM) * (kProblem / S::kTileN), S::kThreads / 32,
               {}, {}};
  multistage_mainloop<S>(s);
  return s;
}

// Stage 12: the main loop, then StagedEpilogue: per warp and pass (16 columns), 32 STS.32 of the
// accumulators into the warp's buffer, then 8 LDS.128 reading 4 rows per lane back.
StageModel epilogue() {
  using S = f16::EpilogueStage::Shape;
  using L = ft::StagedEpilogueLayout<S::kWarpM>;
  const long long m_tiles = kProblem / S::kTileM, n_tiles = kProblem / S::kTileN;
  StageModel s{"epilogue", m_tiles * n_tiles, S::kThreads / 32, {}, {}};
  multistage_mainloop<S>(s);
  static std::vector<float> smem(size_t(S::kThreads / 32) * L::kCols * L::kPitch);
  constexpr int kPasses = S::kWarpN / L::kCols;
  for (int mi = 0; mi < S::kWarpM / 16; ++mi)
    for (int nn = 0; nn < L::kCols / 8; ++nn)
      for (int i = 0; i < 4; ++i)
        s.stores.push_back({"staged c" + std::to_string(i) + " of 16x8 tile (" + std::to_string(mi) +
                                "," + std::to_string(nn) + "): STS.32",
                            "sts.32", kPasses, kDistinctBanks32, [=](int w, int l) {
                              const float* staged = smem.data() + L::buffer(w);
                              return byte_of(staged[L::write(mi, nn, l, i)], smem[0]);
                            }});
  for (int it = 0; it < L::kCols / 2; ++it)
    s.loads.push_back({"staged read-back, iteration " + std::to_string(it) + ": LDS.128",
                       "lds.128", kPasses, kLinear128, [=](int w, int l) {
                         const float* staged = smem.data() + L::buffer(w);
                         return byte_of(*L::read_address(staged, L::read_col(it, l), L::read_row(l)),
                                        smem[0]);
                       }});
  return s;
}

std::vector<StageModel> all_stages() {
  std::vector<StageModel> v;
  v.push_back(sliced_k());
  v.push_back(simt_tile_stage());
  v.push_back(pipelined("double-buffer"));
  v.push_back(pipelined("block-swizzle"));
  v.push_back(pipelined("split-k"));  // one slice at 4096^3: the double-buffer loop
  v.push_back(pipelined("stream-k", false));
  v.push_back(sync_stage<f16::MmaSyncStage>("mma-sync", kRowsR2_32));
  v.push_back(sync_stage<f16::LdmatrixStage>("ldmatrix", kLdsmRowsR2));
  v.push_back(sync_stage<f16::SmemSwizzleStage>("smem-swizzle", kLdsmSwizzled));
  v.push_back(multistage());
  v.push_back(epilogue());
  return v;
}

const json& measurements() {
  static const json data = [] {
    std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/kernel_smem_ncu_h200.json");
    EXPECT_TRUE(in.good()) << "missing sim/tests/data/kernel_smem_ncu_h200.json";
    return json::parse(in);
  }();
  return data;
}

const json* measurement(const std::string& stage, const std::string& direction) {
  for (const json& m : measurements()["measurements"])
    if (m["stage"] == stage && m["direction"] == direction) return &m;
  return nullptr;
}

// The simulator's totals for one direction over the whole run (ncu-counted instructions only).
struct Prediction {
  long long instructions = 0;
  long long wavefronts = 0;
  long long conflicts = 0;
  double wavefronts_per_instruction() const { return double(wavefronts) / instructions; }
  double conflicts_per_instruction() const { return double(conflicts) / instructions; }
};

Prediction predict(const StageModel& s, const std::vector<Instruction>& instructions) {
  Prediction p;
  for (const Instruction& in : instructions) {
    if (!in.counted_by_ncu) continue;
    for (int w = 0; w < s.warps; ++w) {
      const BankAnalysis a = analyze(in, w);
      p.instructions += s.blocks * in.per_warp;
      p.wavefronts += s.blocks * in.per_warp * a.wavefronts;
      p.conflicts += s.blocks * in.per_warp * a.conflicts;
    }
  }
  return p;
}

// One failure per instruction, naming the first warp that breaks the rule.
void expect_rules(const StageModel& s, const std::vector<Instruction>& instructions) {
  for (const Instruction& in : instructions)
    for (int w = 0; w < s.warps; ++w) {
      const BankAnalysis a = analyze(in, w);
      if (a.wavefronts == in.expect.wavefronts && a.conflicts == in.expect.conflicts) continue;
      ADD_FAILURE() << s.stage << ", " << in.what << ", warp " << w << ": the model says "
                    << a.wavefronts << "/" << a.conflicts << ", the rule "
                    << in.expect.wavefronts << "/" << in.expect.conflicts << " ("
                    << in.expect.source << ")";
      break;
    }
}

// Measured per-instruction values: raw sums where the CSV has them, else the notes' ratios.
double measured_ratio(const json& m, const char* sum, const char* ratio) {
  if (m.contains(sum) && m.contains("instructions") && m["instructions"].get<long long>() > 0)
    return m[sum].get<double>() / m["instructions"].get<double>();
  return m.contains(ratio) ? m[ratio].get<double>() : -1.0;
}

void expect_matches_ncu(const StageModel& s, const std::string& direction,
                        const std::vector<Instruction>& instructions) {
  SCOPED_TRACE(s.stage + " " + direction);
  const json* m = measurement(s.stage, direction);
  ASSERT_NE(m, nullptr) << "no ncu measurement for " << s.stage << " " << direction;
  const Prediction p = predict(s, instructions);
  if (m->contains("not_counted")) {
    // ncu saw no instruction of this kind: nothing to compare, and the simulator says so.
    EXPECT_EQ((*m)["instructions"].get<long long>(), 0);
    EXPECT_EQ(p.instructions, 0);
    for (const Instruction& in : instructions) EXPECT_NE(analyze(in, 0).note, nullptr) << in.what;
    std::printf("  %-13s %-5s  ncu counts nothing (cp.async); sim %s %d/%d per instruction\n",
                s.stage.c_str(), direction.c_str(), instructions.front().op.c_str(),
                instructions.front().expect.wavefronts, instructions.front().expect.conflicts);
    return;
  }
  ASSERT_GT(p.instructions, 0);
  if (s.complete && m->contains("instructions")) {
    EXPECT_EQ(p.instructions, (*m)["instructions"].get<long long>())
        << "the modelled instruction mix is not what ran";
  }
  const double sim_w = p.wavefronts_per_instruction(), sim_c = p.conflicts_per_instruction();
  const double ncu_w = measured_ratio(*m, "wavefronts", "wavefronts_per_instruction");
  const double ncu_c = measured_ratio(*m, "conflicts", "conflicts_per_instruction");
  ASSERT_GE(ncu_w, 0.0);
  std::printf("  %-13s %-5s %11lld inst  sim %6.3f W (%5.3f C) / inst   ncu %6.3f W",
              s.stage.c_str(), direction.c_str(), p.instructions, sim_w, sim_c, ncu_w);
  if (ncu_c >= 0) std::printf(" (%5.3f C)", ncu_c);
  if (m->contains("unexplained_excess_up_to")) {
    // The isolated rule is the model; the full kernel measures more, for a documented reason
    // nobody has explained. The residue must be an excess, and no larger than documented.
    const double residue = ncu_w - sim_w;
    std::printf("   residue +%.3f (documented, unexplained)\n", residue);
    EXPECT_GE(residue, -kTolerance);
    EXPECT_LE(residue, (*m)["unexplained_excess_up_to"].get<double>() + 1e-9)
        << (*m)["why"].get<std::string>();
  } else {
    std::printf("\n");
    EXPECT_NEAR(sim_w, ncu_w, kTolerance) << "wavefronts per instruction; " << (*m)["source"];
    if (ncu_c >= 0) {
      EXPECT_NEAR(sim_c, ncu_c, kTolerance) << "conflicts per instruction; " << (*m)["source"];
    }
  }
}

}  // namespace

// ---- 1. Every instruction costs what its isolated-warp rule says, in every warp -------------

TEST(KernelBanks, EveryInstructionFollowsItsHardwareRule) {
  for (const StageModel& s : all_stages()) {
    SCOPED_TRACE(s.stage);
    EXPECT_FALSE(s.loads.empty());
    EXPECT_FALSE(s.stores.empty());
    expect_rules(s, s.loads);
    expect_rules(s, s.stores);
  }
}

// ---- 2. The mix over the 4096^3 run against ncu ----------------------------------------------

TEST(KernelBanks, MixMatchesNcuOnH200) {
  std::printf("  stage         dir   instructions  simulator (wavefronts, conflicts) vs ncu, H200\n");
  for (const StageModel& s : all_stages()) {
    expect_matches_ncu(s, "load", s.loads);
    expect_matches_ncu(s, "store", s.stores);
  }
}

// The SIMT kernel addresses its stage two ways: flat float offsets for the stores (smem_a/b, as
// TileLoader keeps them in registers) and 2-D array elements for the fragment reads. They must be
// the same layout.
TEST(KernelBanks, SimtFlatOffsetsAreTheArrayLayout) {
  static st::SmemStage stage;
  for (int k = 0; k < st::kTileK; ++k) {
    for (int m = 0; m < st::kTileM; ++m)
      ASSERT_EQ(byte_of(stage.A[k][m], stage.A[0][0]), 4LL * st::smem_a(k, m)) << k << "," << m;
    for (int n = 0; n < st::kBRow; ++n)
      ASSERT_EQ(byte_of(stage.B[k][n], stage.B[0][0]), 4LL * st::smem_b(k, n)) << k << "," << n;
  }
}

// ---- Named cases the lessons lean on (the same instructions as above, spelled out) -----------

// SIMT fragment reads: both cost 2/0, for different reasons (kernels/README.md, Notes for the
// simulator): A pairs lanes T and T^2, B pairs T and T^1 (RowMajorInterleaved<2>).
TEST(KernelBanks, SimtFragmentReadsPairDifferently) {
  const StageModel s = simt_tile_stage();
  const Instruction* a = nullptr;
  const Instruction* b = nullptr;
  for (const Instruction& in : s.loads) {
    if (!a && in.what.rfind("A fragment", 0) == 0) a = &in;
    if (!b && in.what.rfind("B fragment", 0) == 0) b = &in;
  }
  ASSERT_TRUE(a && b);
  for (int w : {0, 5}) {
    const BankAnalysis ra = analyze(*a, w), rb = analyze(*b, w);
    EXPECT_TRUE(ra.paired_lanes);
    EXPECT_TRUE(rb.paired_lanes);
    EXPECT_EQ(ra.lanes[0].address, ra.lanes[2].address);  // T^2
    EXPECT_NE(ra.lanes[0].address, ra.lanes[1].address);
    EXPECT_EQ(rb.lanes[0].address, rb.lanes[1].address);  // T^1
    EXPECT_EQ(ra.wavefronts, 2);
    EXPECT_EQ(rb.wavefronts, 2);
  }
}

// Lesson 09: the same ldmatrix.x4, unswizzled 16/12 (FP16_NOTES: 16.000, 12.00 conflicts),
// swizzled 4/0 (4.000).
TEST(KernelBanks, SwizzleTakesLdmatrixFrom16To4) {
  const StageModel plain = sync_stage<f16::LdmatrixStage>("ldmatrix", kLdsmRowsR2);
  const StageModel swizzled = sync_stage<f16::SmemSwizzleStage>("smem-swizzle", kLdsmSwizzled);
  for (int w : {0, 7}) {
    const BankAnalysis p = analyze(plain.loads.front(), w);
    const BankAnalysis z = analyze(swizzled.loads.front(), w);
    EXPECT_EQ(p.wavefronts, 16);
    EXPECT_EQ(p.conflicts, 12);
    EXPECT_EQ(z.wavefronts, 4);
    EXPECT_EQ(z.conflicts, 0);
  }
}
