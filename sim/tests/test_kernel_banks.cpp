// "The simulator replays exactly the kernel that runs", checked for the shared-memory instructions
// of GEMM Lab's own kernels. For every stage, every shared load and store of one k-tile (and the
// epilogue) is rebuilt lane by lane (gemmlab/kernel_smem_mix.h, the model the Measured view shows)
// from the SAME header functions the kernel calls
// (gemmlab/simt_warp_tile.h, sliced_k_tile.h, fp16_smem_tile.h, thread_map.h, fragments.h, with
// the stage shapes of sim/device/gemmlab/fp16_shapes.h), for every warp of the block, and run through
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
//     on stores whose 32 lanes hit 32 different banks (kernels/lab/KERNELS_NOTES.md, Notes for the simulator);
//   the 128-bit tile stores of stages 7 / 8 / 9 +0.21 / +0.14 / +0.30 on STS.128 that write 128
//     contiguous bytes per phase (FP16_NOTES.md guesses the other resident block's loads);
//   within the 0.05 tolerance: double-buffer / block-swizzle / split-k stores +0.014..0.016 on the
//     8/5 = 1.600 mix, stream-k +0.009 (loads) and +0.021 (stores; its shared fix-up state is not
//     modelled, so its instruction counts are not compared), epilogue loads +0.007, multistage
//     loads +0.0003. The model is the isolated-warp rule; it is not tuned to these residues.
//   Stage 12's rows are of its 256 x 128 build (retaken 2026-11-26; the 128 x 256 build measured
//     the same counts), as is the H100's capture (Stage12IssuesTheSameSharedMemoryInstructionsOnBothGpus).
// The Hopper GEMM stages (H100, 2026-11-25): stage tma's ldmatrix + staged epilogue match ncu
//   exactly (8,421,376 ldmatrix + 131,072 LDS.128 with 34,209,792 wavefronts; 524,288 STS.32; 0
//   conflicts); wgmma,
//   warp-specialized and cluster run no LSU shared-memory instruction (ncu 0); persistent's staged
//   C stores measure +0.304 wavefronts per STS.32 over the 1.000 of their 32 distinct banks, all
//   counted as conflicts (unexplained; the TMA store reading the other half is a guess).
//
// Addresses are byte offsets in the block's shared memory. Where the kernel has two separate
// __shared__ arrays (sliced-k, stages 7-9) their relative placement is ptxas's; both start on a
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
#include "gemmlab/kernel_smem_mix.h"
#include "gemmlab/fp16_smem_tile.h"
#include "gemmlab/simt_warp_tile.h"
#include "gemmlab/sliced_k_tile.h"
#include "gemmlab/thread_map.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

constexpr int kProblem = 4096;           // M = N = K of the ncu runs
constexpr double kTolerance = 0.05;      // wavefronts (or conflicts) per instruction

namespace st = simt_tile;
using Rule = SmemRule;
using Instruction = SmemInstruction;
using StageModel = StageSmemModel;

// Byte offset of an element from the start of a host copy of shared memory.
template <class T, class Base>
long long byte_of(const T& element, const Base& base) {
  return reinterpret_cast<const char*>(&element) - reinterpret_cast<const char*>(&base);
}

BankAnalysis analyze(const Instruction& in, int warp) {
  const auto a = analyze_smem_instruction(in, warp);
  EXPECT_TRUE(a.ok()) << in.what << ": " << a.error();
  return a.ok() ? *a : BankAnalysis{};
}

StageModel model_of(const std::string& stage) {
  auto m = stage_smem_model(*find_stage_desc(stage), {kProblem, kProblem, kProblem});
  EXPECT_TRUE(m.ok()) << stage << ": " << m.error();
  return m.ok() ? *m : StageModel{};
}

// Every stage with shared memory, as the simulator models it (gemmlab/kernel_smem_mix.h), but
// those whose row says SmemMix::Unmodelled: conv-wgmma and conv-wgmma-fused (their gathered
// cp.async copies and wgmma reads have no LSU counter to check; see ConvWgmmaSaysItIsNotModelled),
// fp8-tensor and fp8-block (their D staging is not rebuilt yet) and wgmma-split-k (no ncu capture
// yet); and the dispatcher, whose launches are other rows' kernels. The Hopper GEMM stages' TMA writes and wgmma reads are not LSU
// instructions: what they keep is stage 15's ldmatrix and staged epilogue, and stage 19's STS of
// C into the TMA store's boxes.
std::vector<StageModel> all_stages() {
  std::vector<StageModel> v;
  for (const StageDesc& s : stage_table())
    if (s.has_tile() && s.smem_mix != SmemMix::Unmodelled && s.schedule != BlockSchedule::Dispatch)
      v.push_back(model_of(s.id));
  return v;
}
bool hopper_gemm(const StageModel& s) { return required_sm(find_stage_desc(s.stage)->track) == 90; }

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
  const auto t = smem_mix_totals(s, instructions);
  EXPECT_TRUE(t.ok()) << t.error();
  return t.ok() ? Prediction{t->instructions, t->wavefronts, t->conflicts} : Prediction{};
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
  if (instructions.empty()) {
    // wgmma reads the TMA's boxes and C leaves from registers: no LSU instruction, and ncu agrees.
    EXPECT_EQ((*m)["instructions"].get<long long>(), 0);
    EXPECT_EQ((*m)["wavefronts"].get<long long>(), 0);
    std::printf("  %-13s %-5s  no LSU shared-memory instruction; ncu 0 instructions, 0 wavefronts\n",
                s.stage.c_str(), direction.c_str());
    return;
  }
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

TEST(KernelBanks, ConvWgmmaSaysItIsNotModelled) {
  for (const char* id : {"conv-wgmma", "conv-wgmma-fused"}) {
    const auto m = stage_smem_model(*find_stage_desc(id), {kProblem, kProblem, kProblem});
    ASSERT_FALSE(m.ok()) << id;
    EXPECT_NE(m.error().find("no shared-memory model yet"), std::string::npos) << m.error();
  }
}

// The persistent stage's model needs tiles computed whole: 8192^3 has a stream-k tail on 132 SMs.
TEST(KernelBanks, PersistentModelRefusesTheStreamKTail) {
  const auto m = stage_smem_model(*find_stage_desc("persistent"), {8192, 8192, 8192});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().find("stream-k tail"), std::string::npos) << m.error();
}

// ---- 1. Every instruction costs what its isolated-warp rule says, in every warp -------------

TEST(KernelBanks, EveryInstructionFollowsItsHardwareRule) {
  for (const StageModel& s : all_stages()) {
    SCOPED_TRACE(s.stage);
    if (!hopper_gemm(s)) {
      EXPECT_FALSE(s.loads.empty());
      EXPECT_FALSE(s.stores.empty());
    }
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

// SIMT fragment reads: both cost 2/0, for different reasons (kernels/lab/KERNELS_NOTES.md, Notes for the
// simulator): A pairs lanes T and T^2, B pairs T and T^1 (RowMajorInterleaved<2>).
TEST(KernelBanks, SimtFragmentReadsPairDifferently) {
  const StageModel s = model_of("simt-tile");
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
  const StageModel plain = model_of("ldmatrix");
  const StageModel swizzled = model_of("smem-swizzle");
  for (int w : {0, 7}) {
    const BankAnalysis p = analyze(plain.loads.front(), w);
    const BankAnalysis z = analyze(swizzled.loads.front(), w);
    EXPECT_EQ(p.wavefronts, 16);
    EXPECT_EQ(p.conflicts, 12);
    EXPECT_EQ(z.wavefronts, 4);
    EXPECT_EQ(z.conflicts, 0);
  }
}

// The model the Measured view sets beside an ncu CSV: the same mix at any size of whole tiles,
// and a message naming the rule otherwise.
TEST(KernelBanks, MixForOtherSizesAndRefusals) {
  auto mix = stage_smem_mix(*find_stage_desc("smem-swizzle"), {8192, 8192, 8192});
  ASSERT_TRUE(mix.ok()) << mix.error();
  EXPECT_DOUBLE_EQ(mix->load.wavefronts_per_instruction(), 4.0);
  EXPECT_EQ(mix->load.instructions, 8 * 12582912LL);  // 4x the blocks, 2x the k tiles of 4096^3
  auto naive = stage_smem_mix(*find_stage_desc("naive"), {4096, 4096, 4096});
  ASSERT_FALSE(naive.ok());
  EXPECT_NE(naive.error().find("no shared-memory instructions"), std::string::npos) << naive.error();
  auto ragged = stage_smem_mix(*find_stage_desc("epilogue"), {4000, 4096, 4096});
  ASSERT_FALSE(ragged.ok());
  EXPECT_NE(ragged.error().find("M a multiple of 256, N of 128, K of 128"), std::string::npos) << ragged.error();
}

// Stage 12 as built now (256 x 128 tile) on both GPUs: the bench's ncu captures of 2026-11-27
// (11:0xZ, both GPUs) issue the same shared-memory instructions (8 warps of 64 x 64 on 512
// blocks at 4096^3): the same LDS.128 and STS.32 counts and store wavefronts, and load wavefronts
// (ldmatrix and LDS.128) within 0.001 per instruction of each other, the two GPUs' residue above
// the bank rule (+0.007, the table above) differing by less than that.
TEST(KernelBanks, Stage12IssuesTheSameSharedMemoryInstructionsOnBothGpus) {
  auto capture = [](const std::string& file) {
    for (const test::NcuLaunch& l : test::read_ncu_csv_launches(file))
      if (const StageDesc* s = stage_of_kernel(l.kernel); s && s->id == std::string("epilogue")) return l;
    ADD_FAILURE() << "no stage 12 launch in " << file;
    return test::NcuLaunch{};
  };
  const test::NcuLaunch h200 = capture("assets/results/nvidia-h200-ncu.csv");
  const test::NcuLaunch h100 = capture("assets/results/nvidia-h100-80gb-hbm3-ncu.csv");
  const StageDesc& e = *find_stage_desc("epilogue");
  EXPECT_TRUE(stage_as_measured(e, h200.kernel).current) << h200.kernel;
  EXPECT_TRUE(stage_as_measured(e, h100.kernel).current) << h100.kernel;
  for (const char* exact : {"smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
                            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}) {
    SCOPED_TRACE(exact);
    ASSERT_TRUE(h200.metrics.count(exact) && h100.metrics.count(exact));
    EXPECT_EQ(h200.metrics.at(exact), h100.metrics.at(exact));
  }
  // The model of the current build gives the store count both measured, and the load instructions
  // the wavefronts are divided by.
  auto mix = stage_smem_mix(e, {4096, 4096, 4096});
  ASSERT_TRUE(mix.ok()) << mix.error();
  EXPECT_EQ(double(mix->store.instructions), h100.metrics.at("smsp__sass_inst_executed_op_shared_st.sum"));
  const char* loads = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
  ASSERT_TRUE(h200.metrics.count(loads) && h100.metrics.count(loads));
  const double per_instruction = 1.0 / double(mix->load.instructions);  // 8,552,448 (ldmatrix + LDS.128)
  EXPECT_NEAR(h200.metrics.at(loads) * per_instruction, h100.metrics.at(loads) * per_instruction, 1e-3);
  // 34,271,238 / 34,267,831: 4.0072 / 4.0068 per instruction
}
