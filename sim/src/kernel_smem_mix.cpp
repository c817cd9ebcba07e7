#include "gemmlab/kernel_smem_mix.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/device_presets.h"
#include "gemmlab/fp16_shapes.h"
#include "gemmlab/fp16_smem_tile.h"
#include "gemmlab/gmma_desc.h"
#include "gemmlab/hopper_shapes.h"
#include "gemmlab/persistent_schedule.h"
#include "gemmlab/simt_warp_tile.h"
#include "gemmlab/sliced_k_tile.h"
#include "gemmlab/thread_map.h"

namespace gemmlab {
namespace {

// Rules quoted from sim/tests/data/hardware_rules.md (table rows) and bank_probe_h200.txt (probe
// names); "bank arithmetic" where the rule is the general one of hardware_rules.md
// (bank = word % 32, one wavefront per distinct word per bank and phase).
const SmemRule kLinear32{1, 0, "hardware_rules.md: LDS/STS.32 linear 1/0"};
const SmemRule kDistinctBanks32{1, 0, "bank arithmetic: 32 lanes, 32 different banks, 1/0"};
const SmemRule kLinear128{4, 0, "hardware_rules.md: LDS/STS.128 linear 4/0"};
const SmemRule kBroadcast128{2, 0, "hardware_rules.md: LDS.128 all lanes one address 2/0"};
const SmemRule kPairsT1_128{2, 0, "hardware_rules.md: LDS.128 lane T shares its address with T^1 2/0"};
const SmemRule kPairsT2_128{2, 0, "bank_probe_h200.txt: LDS.128 T shares with T^2 2/0"};
const SmemRule kRowsR2_32{4, 3,
                      "bank arithmetic: 8 rows 64 B apart, rows r and r+2 in the same 4 banks: "
                      "4 words per bank in the one 32-lane phase, 4/3"};
const SmemRule kLdsmRowsR2{16, 12,
                       "bank arithmetic (hardware_rules.md: one phase per 8x8 matrix): 8 rows 64 B "
                       "apart, 4 per bank group, 4 wavefronts per matrix, 16/12"};
const SmemRule kLdsmSwizzled{4, 0,
                         "hardware_rules.md: ldmatrix .x4 rows 16-byte chunk index XOR (row % 8) "
                         "(CuTe Swizzle<3,4,3> on bytes = Swizzle<3,3,3> on halves) 4/0"};
const SmemRule kCpAsync16{4, 0,
                      "hardware_rules.md: cp.async of 16 bytes modelled as STS.128, linear 4/0 "
                      "(ncu shows no wavefronts for it)"};

// Byte offset of an element from the start of the host copy of the block's shared memory.
template <class T, class Base>
long long byte_of(const T& element, const Base& base) {
  return reinterpret_cast<const char*>(&element) - reinterpret_cast<const char*>(&base);
}

// ---- Stage 3, sliced-k: 32x32 threads (warp w = row ty = w), k slices of 32 --------------------
StageSmemModel sliced_k(GemmCoord p) {
  namespace sk = sliced_k_tile;
  static sk::Tile smem[2];  // As, then Bs (static: the lambdas below use it after we return)
  const long long tiles = p.k / sk::kTile;  // 128 at 4096^3
  StageSmemModel s{"", 1LL * (p.m / sk::kTile) * (p.n / sk::kTile), sk::kTile, {}, {}};
  // blockDim (32, 32): tx = lane, ty = warp.
  s.stores.push_back({"As[ty][tx] = A(m0 + tx, k0 + ty): STS.32", "sts.32", tiles, kLinear32,
                      [](int w, int l) { return byte_of(sk::a_at(smem[0], w, l), smem); }});
  s.stores.push_back({"Bs[ty][tx] = B(k0 + tx, n0 + ty): STS.32", "sts.32", tiles, kLinear32,
                      [](int w, int l) { return byte_of(sk::b_at(smem[1], w, l), smem); }});
  for (int k = 0; k < sk::kTile; ++k)
    s.loads.push_back({"As[k][tx], k " + std::to_string(k) + ": LDS.32", "lds.32", tiles,
                       kLinear32, [k](int, int l) { return byte_of(sk::a_at(smem[0], k, l), smem); }});
  // ptxas reads Bs[ty][k .. k+3] with one LDS.128 (kernels/lab/KERNELS_NOTES.md: 1.200 = four LDS.32 and one
  // LDS.128 per 4 k); the ncu instruction count (40 per warp and tile) confirms it below.
  for (int k = 0; k < sk::kTile; k += 4)
    s.loads.push_back({"Bs[ty][k..k+3], k " + std::to_string(k) + ": LDS.128 broadcast",
                       "lds.128", tiles, kBroadcast128,
                       [k](int w, int) { return byte_of(sk::b_at(smem[1], w, k), smem); }});
  return s;
}

// ---- Stages 5, 6, 11, 13a, 13b, the SIMT block: 128x128x8, 8 warps, 8x8 per thread ------------
namespace st = simt_tile;

// Fragment loads of one k step from stage `stage`: A rows +0 / +16, B columns +0 / +32.
void simt_fragment_loads(StageSmemModel& s, const st::SmemStage* smem, int stage, int k,
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
void simt_tile_stores(StageSmemModel& s, const st::SmemStage* smem, int stage, long long per_warp) {
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

long long simt_blocks(GemmCoord p) { return 1LL * (p.m / st::kTileM) * (p.n / st::kTileN); }  // 1024 at 4096^3
long long simt_tiles(GemmCoord p) { return p.k / st::kTileK; }                                    // 512

// Stage 5: one stage, scalar loads (fp32/05_simt_tile/simt_tile.cu: TileLoader<1>), load / sync / store / sync.
StageSmemModel simt_tile_stage(GemmCoord p) {
  static st::SmemStage smem[1];
  StageSmemModel s{"", simt_blocks(p), st::kThreads / 32, {}, {}};
  for (int k = 0; k < st::kTileK; ++k) simt_fragment_loads(s, smem, 0, k, simt_tiles(p));
  simt_tile_stores<1>(s, smem, 0, simt_tiles(p));
  return s;
}

// Stages 6, 11, 13a, 13b: mainloop_pipelined, two stages; at 4096^3 the 128-bit loads (ab_vector_ok: M, K
// multiples of 4): TileLoader<4>. Tile t is read from stage t % 2; the prologue stores tile 0 to
// stage 0 and reads its k 0; tile t stores tile t+1 (zeros after the last) to stage (t+1) % 2.
StageSmemModel pipelined(const std::string& stage, GemmCoord p, bool complete) {
  static st::SmemStage smem[2];
  StageSmemModel s{stage, simt_blocks(p), st::kThreads / 32, {}, {}, complete};
  const long long half = simt_tiles(p) / 2;  // an even number of k tiles (stage_smem_model checks)
  for (int buffer = 0; buffer < 2; ++buffer) {
    for (int k = 0; k < st::kTileK; ++k)
      simt_fragment_loads(s, smem, buffer, k, half + (buffer == 0 && k == 0 ? 1 : 0));
    simt_tile_stores<4>(s, smem, buffer, half + (buffer == 0 ? 1 : 0));
  }
  return s;
}

// ---- Stages 7-9: fp16, 128x128x32, 8 warps of 64x32, one register-staged buffer ---------------
namespace f16 = kernels::fp16;
namespace ft = fp16_tile;

template <class Shape>
struct WarpOrigin {  // as sync_tile_kernel / MultistageMainloop compute it
  static int m(int warp) { return (warp / Shape::kWarpsN) * Shape::kWarpM; }
  static int n(int warp) { return (warp % Shape::kWarpsN) * Shape::kWarpN; }
};


// OperandTileCopy's stores of one operand tile (kRows rows) at byte `base`: STS.128 from
// registers (stages 7-9) or cp.async 16 bytes (stages 10 and 12), one per thread-map access.
template <class Layout, int kRows, int kTileK, int kThreads>
void operand_stores(StageSmemModel& s, const std::string& what, const std::string& op, long long base,
                    long long per_warp, SmemRule rule, bool counted) {
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
StageSmemModel sync_stage(const std::string& name, SmemRule fragment_rule, GemmCoord p) {
  using S = typename Stage::Shape;
  using Layout = ft::SmemOperandLayout<S::kTileK, Stage::kSwizzled>;
  using Origin = WarpOrigin<S>;
  constexpr long long kB = 2LL * S::kTileM * S::kTileK;  // sB after sA (8 KB each)
  constexpr int kMmaM = S::kWarpM / 16, kMmaN = S::kWarpN / 8;
  const long long tiles = p.k / S::kTileK;  // 128 at 4096^3
  StageSmemModel s{name, 1LL * (p.m / S::kTileM) * (p.n / S::kTileN), S::kThreads / 32, {}, {}};
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

// ---- Stages 10, 12 and 15: the multistage loop (kStages buffers of A tile then B tile, swizzled) --------
// load_step(stage, kk): 4 ldmatrix.x4 of A and kMmaN / 2 of B. The prologue loads step 0 of stage
// 0; in tile t step j loads step j+1 of stage t % kStages and the last step loads step 0 of stage
// (t+1) % kStages. issue_tile copies tile t (zero-filled past K) into stage t % kStages: the
// prologue tiles 0 .. kStages-2, then one per loop tile: 256 threads' cp.async (stages 10, 12) or
// one TMA box per operand (stage 15: no LSU instruction at all, kTmaCopies).
template <class S, bool kTmaCopies = false>
void multistage_mainloop(StageSmemModel& s, GemmCoord p) {
  using Layout = ft::SmemOperandLayout<S::kTileK, S::kSwizzled>;
  using Origin = WarpOrigin<S>;
  constexpr int kStageBytes = S::kStageHalves * 2, kBOffsetBytes = S::kBOffsetHalves * 2;
  constexpr int kMmaM = S::kWarpM / 16, kMmaN = S::kWarpN / 8;
  const int tiles = p.k / S::kTileK;  // a multiple of kStages (stage_smem_model checks)
  for (int stage = 0; stage < S::kStages; ++stage) {
    // Reads of each step of the stage: steps 1.. by tiles t = stage mod kStages, step 0 by tiles t
    // with (t+1) % kStages == stage, plus the prologue's step 0 of stage 0.
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
    if constexpr (kTmaCopies) continue;  // the copy engine writes the stage: no LSU instruction
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

StageSmemModel multistage(GemmCoord p) {
  using S = f16::MultistageStage::Shape;
  StageSmemModel s{"", 1LL * (p.m / S::kTileM) * (p.n / S::kTileN), S::kThreads / 32,
               {}, {}};
  multistage_mainloop<S>(s, p);
  return s;
}

// Stages 12 and 15: the main loop, then StagedEpilogue: per warp and pass (16 columns), 32 STS.32
// of the accumulators into the warp's buffer, then 8 LDS.128 reading 4 rows per lane back.
template <class S, bool kTmaCopies>
StageSmemModel staged_epilogue(const std::string& name, GemmCoord p) {
  using L = ft::StagedEpilogueLayout<S::kWarpM>;
  const long long m_tiles = p.m / S::kTileM, n_tiles = p.n / S::kTileN;
  StageSmemModel s{name, m_tiles * n_tiles, S::kThreads / 32, {}, {}};
  multistage_mainloop<S, kTmaCopies>(s, p);
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

// Stages 16-18 read A and B with wgmma straight from the TMA's boxes and store C from registers
// to global memory: no LSU shared-memory instruction (ncu: 0 and 0), on each stage's own tile.
StageSmemModel no_lsu_instructions(const StageDesc& stage, GemmCoord p) {
  return StageSmemModel{stage.id, 1LL * (p.m / stage.tile_m) * (p.n / stage.tile_n), stage.threads / 32, {}, {}};
}

// Stage 19: per output tile, each consumer warp (8 per block: 2 warpgroups) stores its 128
// accumulators with STS.32 into the swizzled C staging boxes (gmma::c_staging_offset), 16 per
// 32-column chunk q, in slot q % kStagingSlots of its consumer's buffer; the TMA store reads them
// back (no LSU). A narrowed tile (persistent_schedule.h: 240 or 248 columns) stores 120 or 124
// per thread in the same places; the rows' total is the same, so the counts below per 128 x 256
// tile of C hold for the whole problem either way.
StageSmemModel persistent_epilogue(GemmCoord p) {
  using S = kernels::hopper::PersistentStage::Shape;
  constexpr int kStaging = kernels::hopper::PersistentStage::kStagingBytesPerConsumer;
  constexpr int kSlots = kernels::hopper::PersistentStage::kStagingSlots;
  constexpr int kChunks = S::kTileN / tma::kCBoxCols, kPerChunk = S::kAccumulators / kChunks;
  StageSmemModel s{"", 1LL * (p.m / S::kTileM) * (p.n / S::kTileN), 4 * S::kConsumers, {}, {}};
  for (int i = 0; i < S::kAccumulators; ++i) {
    const int q = i / kPerChunk;
    s.stores.push_back({"d" + std::to_string(i) + " -> C staging, chunk " + std::to_string(q) + ": STS.32", "sts.32", 1,
                        kDistinctBanks32, [=](int w, int l) {
                          const int consumer = w / 4, thread = 32 * (w % 4) + l;
                          return 1LL * consumer * kStaging + (q % kSlots) * 2 * tma::kCBoxBytes +
                                 gmma::c_staging_offset(thread, i);
                        }});
  }
  return s;
}

// The conv rows' Multistage mix: a conv stage at its largest tile is stage 10's kernel on the
// implicit GEMM: the same thread map, layout and instructions (a vector in the padding is still
// written, zero-filled), and int8 / int4 move the same bytes as fp16. Its A rows come from other
// addresses, which only global memory sees.
static_assert(conv::kTiles[0].m == f16::MultistageStage::Shape::kTileM &&
              conv::kTiles[0].n == f16::MultistageStage::Shape::kTileN &&
              conv::kTileKBytes / 2 == f16::MultistageStage::Shape::kTileK &&
              conv::kStages == f16::MultistageStage::Shape::kStages &&
              conv::kTiles[0].warp_m == f16::MultistageStage::Shape::kWarpM &&
              conv::kTiles[0].warp_n == f16::MultistageStage::Shape::kWarpN);

// The multiple of K the mix's per-stage counts need: whole rounds of the multistage buffers, an
// even number of k tiles for the SIMT double buffer.
int k_multiple(const StageDesc& stage) {
  switch (stage.smem_mix) {
    case SmemMix::SimtDoubleBuffer:
    case SmemMix::SimtDoubleBufferStreamK: return 2 * stage.tile_k;
    case SmemMix::Multistage: return stage.tile_k * f16::MultistageStage::Shape::kStages;
    case SmemMix::StagedEpilogue: return stage.tile_k * f16::EpilogueStage::Shape::kStages;
    case SmemMix::StagedEpilogueTma: return stage.tile_k * kernels::hopper::TmaStage::Shape::kStages;
    default: return stage.tile_k;
  }
}

// The persistent epilogue's stream-k tail stores split tiles once per piece; modelled only where
// there is none on the GPUs the committed measurements ran on (the H100's and the H200's 132 SMs:
// 66 clusters).
Expected<StageSmemModel> persistent_mix(const StageDesc& stage, GemmCoord p) {
  const int sms = device_preset("h100")->sms;
  const persistent::Plan plan = persistent::make_plan(p.m / stage.tile_m, p.n / stage.tile_n, stage.cluster_m,
                                                      stage.raster_param, p.k / stage.tile_k, sms / stage.cluster_m, true);
  if (plan.tail_units != 0)
    return Error{std::string("the shared-memory model of ") + stage.id +
                 " covers problems without a stream-k tail (on " + std::to_string(sms) + " SMs); " +
                 std::to_string(plan.tail_units) + " units of this one are split"};
  StageSmemModel s = persistent_epilogue(p);
  s.stage = stage.id;
  return s;
}

}  // namespace

Expected<StageSmemModel> stage_smem_model(const StageDesc& stage, GemmCoord p) {
  const std::string id = stage.id;
  if (!stage.has_tile() || stage.smem_mix == SmemMix::None)
    return Error{"stage " + id + " reads A and B straight from global memory: no shared-memory instructions"};
  if (p.m <= 0 || p.n <= 0 || p.k <= 0) return Error{"the problem must be positive in m, n and k"};
  const int k_mult = k_multiple(stage);
  if (p.m % stage.tile_m != 0 || p.n % stage.tile_n != 0 || p.k % k_mult != 0)
    return Error{"the shared-memory model of " + id + " covers problems of whole tiles: M a multiple of " +
                 std::to_string(stage.tile_m) + ", N of " + std::to_string(stage.tile_n) + ", K of " +
                 std::to_string(k_mult) + " (ragged edges take predicated paths it does not model)"};
  StageSmemModel s;
  switch (stage.smem_mix) {
    case SmemMix::SlicedK: s = sliced_k(p); break;
    case SmemMix::SimtSingleBuffer: s = simt_tile_stage(p); break;
    // Split-k at one slice and block-swizzle run the double-buffer loop; stream-k too, plus fix-up
    // state in shared memory that is not modelled.
    case SmemMix::SimtDoubleBuffer: s = pipelined(id, p, true); break;
    case SmemMix::SimtDoubleBufferStreamK: s = pipelined(id, p, false); break;
    case SmemMix::MmaSyncLds32: s = sync_stage<f16::MmaSyncStage>(id, kRowsR2_32, p); break;
    case SmemMix::MmaSyncLdmatrix: s = sync_stage<f16::LdmatrixStage>(id, kLdsmRowsR2, p); break;
    case SmemMix::MmaSyncLdmatrixSwizzled: s = sync_stage<f16::SmemSwizzleStage>(id, kLdsmSwizzled, p); break;
    case SmemMix::Multistage: s = multistage(p); break;
    case SmemMix::StagedEpilogue: s = staged_epilogue<f16::EpilogueStage::Shape, false>(id, p); break;
    case SmemMix::StagedEpilogueTma: s = staged_epilogue<kernels::hopper::TmaStage::Shape, true>(id, p); break;
    case SmemMix::NoLsu: s = no_lsu_instructions(stage, p); break;
    case SmemMix::PersistentEpilogue: return persistent_mix(stage, p);
    case SmemMix::None:
    case SmemMix::Unmodelled: return Error{"stage " + id + " has no shared-memory model yet"};
  }
  s.stage = id;
  return s;
}

Expected<BankAnalysis> analyze_smem_instruction(const SmemInstruction& in, int warp) {
  WarpRequest r;
  auto op = parse_smem_op(in.op);
  if (!op) return Error{in.what + ": " + op.error()};
  r.op = *op;
  for (int lane = 0; lane < kWarpLanes; ++lane) r.addresses[lane] = in.address(warp, lane);
  auto a = analyze_banks(r);
  if (!a) return Error{in.what + ": " + a.error()};
  return *a;
}

Expected<SmemMixTotals> smem_mix_totals(const StageSmemModel& s, const std::vector<SmemInstruction>& instructions) {
  SmemMixTotals t;
  for (const SmemInstruction& in : instructions) {
    if (!in.counted_by_ncu) continue;
    for (int w = 0; w < s.warps; ++w) {
      auto a = analyze_smem_instruction(in, w);
      if (!a) return Error{a.error()};
      t.instructions += s.blocks * in.per_warp;
      t.wavefronts += s.blocks * in.per_warp * a->wavefronts;
      t.conflicts += s.blocks * in.per_warp * a->conflicts;
    }
  }
  return t;
}

Expected<StageSmemMix> stage_smem_mix(const StageDesc& stage, GemmCoord problem) {
  auto model = stage_smem_model(stage, problem);
  if (!model) return Error{model.error()};
  auto load = smem_mix_totals(*model, model->loads);
  if (!load) return Error{load.error()};
  auto store = smem_mix_totals(*model, model->stores);
  if (!store) return Error{store.error()};
  return StageSmemMix{*load, *store, model->complete};
}

}  // namespace gemmlab
