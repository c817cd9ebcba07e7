// The one description of each stage (stages.def -> gemmlab/stage_desc.h) and the one launch plan
// built from it (gemmlab/launch_plan.h), checked against what ncu measured of the kernels on the
// H200 (the committed CSVs: kernel names, registers, shared memory, block size, grid size) and
// against the CLI, which must give the same numbers as the library the views call.
#include <gtest/gtest.h>

#include <cmath>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "gemmlab/launch_plan.h"
#include "support.h"

using namespace gemmlab;

namespace {

TEST(StageTable, EveryStageIsDescribed) {
  std::set<std::string> ids;
  for (const StageDesc& s : stage_table()) {
    SCOPED_TRACE(s.id);
    EXPECT_TRUE(ids.insert(s.id).second) << "duplicate id";
    EXPECT_EQ(stage_index(s.id), &s - stage_table().data());
    EXPECT_GT(std::string(s.kernel).size(), 3u);
    // Every stage has its lesson and its folder.
    const std::string root = std::string(GEMMLAB_TEST_DATA) + "/../../..";
    EXPECT_TRUE(std::filesystem::is_directory(root + "/lessons/" + s.lesson)) << s.lesson;
    EXPECT_TRUE(std::filesystem::is_directory(root + "/kernels/stages/" + s.folder)) << s.folder;
    EXPECT_GT(s.threads, 0);
    EXPECT_GT(s.regs, 0);
    EXPECT_LE(s.regs, 255);
    if (s.has_tile()) {
      EXPECT_GT(s.smem, 0);
      // Every stage with a tile has a launch the simulator can replay (the dispatcher's: on a device).
      auto spec = stage_launch_spec(s, {1024, 1024, 1024}, *device_preset("h100"));
      ASSERT_TRUE(spec.ok()) << spec.error();
      auto plan = plan_launch(*spec, *device_preset("h100"));
      EXPECT_TRUE(plan.ok()) << plan.error();
    } else {
      EXPECT_FALSE(stage_launch_spec(s, {1024, 1024, 1024}).ok());
    }
  }
  EXPECT_EQ(ids.size(), std::size(kStageTable));
  EXPECT_EQ(ids.size(), stage_table().size());
}

// The label is the lesson's number (a letter where one lesson teaches several stages, in row
// order) and the short name: one name and number per stage everywhere.
TEST(StageTable, NumberAndNameComeFromTheLesson) {
  EXPECT_STREQ(find_stage_desc("naive-uncoalesced")->name, "2a naive, uncoalesced");
  EXPECT_STREQ(find_stage_desc("naive")->number, "2b");
  EXPECT_STREQ(find_stage_desc("sliced-k")->name, "3 sliced-k");
  EXPECT_STREQ(find_stage_desc("smem-swizzle")->name, "9 smem swizzle");
  EXPECT_STREQ(find_stage_desc("block-swizzle")->number, "11");
  EXPECT_STREQ(find_stage_desc("split-k")->number, "13a");
  EXPECT_STREQ(find_stage_desc("stream-k")->name, "13b stream-k");
  EXPECT_STREQ(find_stage_desc("conv-fp16")->number, "14a");
  EXPECT_STREQ(find_stage_desc("conv-wgmma")->number, "14d");
  EXPECT_STREQ(find_stage_desc("conv-wgmma-fused")->number, "14e");
  EXPECT_STREQ(find_stage_desc("tma")->number, "15");
  // Lesson 19 teaches the persistent stage and the dispatcher that picks among the ladder's launches.
  EXPECT_STREQ(find_stage_desc("persistent")->name, "19a persistent blocks");
  EXPECT_STREQ(find_stage_desc("auto")->name, "19c dispatcher");
  // A track's stages by number, for the messages that name them (conv_picture, the conv view).
  EXPECT_EQ(stage_numbers_of(StageTrack::conv_int8), "14b");
  EXPECT_EQ(stage_numbers_of(StageTrack::conv_hopper), "14d");
  EXPECT_EQ(stage_numbers_of(StageTrack::conv_fused), "14e");
  EXPECT_EQ(stage_numbers_of(StageTrack::fp16), "7, 8, 9, 10, 12");
  // Every number is its lesson folder's ("09-swizzle" -> "9"), unique, and the folder's prefix.
  std::set<std::string> numbers;
  for (const StageDesc& s : stage_table()) {
    SCOPED_TRACE(s.id);
    EXPECT_TRUE(numbers.insert(s.number).second);
    const std::string lesson = s.lesson, number = s.number, folder = s.folder;
    EXPECT_EQ(std::stoi(lesson), std::stoi(number));
    EXPECT_EQ(std::string(s.name), number + " " + s.short_name);
    const std::string leaf = folder.substr(folder.find('/') + 1);
    EXPECT_EQ(std::stoi(leaf), std::stoi(number));
    EXPECT_EQ(folder.substr(0, folder.find('/')), is_conv(s.track) ? "conv" : is_fp8(s.track) ? "fp8" : track_name(s.track));
    // A folder that names a letter ("13a_split_k") names the number's.
    if (const char letter = stage_rows::folder_letter(s.folder)) {
      EXPECT_EQ(number.back(), letter);
    }
  }
  // Stage 20a is the fp8 lesson's first: its folder gives the letter while it is the lesson's only row.
  EXPECT_STREQ(find_stage_desc("fp8-tensor")->number, "20a");
  EXPECT_STREQ(find_stage_desc("fp8-tensor")->name, "20a FP8 per-tensor scales");
  EXPECT_STREQ(find_stage_desc("fp8-block")->name, "20b FP8 block scales, FP32 promotion");
  EXPECT_STREQ(find_stage_desc("wgmma-split-k")->name, "19b wgmma split-K");
  EXPECT_EQ(stage_rows::folder_letter("fp8/20a_fp8_tensor"), 'a');
  EXPECT_EQ(stage_rows::folder_letter("fp32/02_naive"), 0);
  EXPECT_EQ(stage_rows::folder_letter("hopper/15_tma"), 0);
  EXPECT_EQ(stage_numbers_of(StageTrack::fp8), "20a");
}

// The track table: one row per track, with its operands, GPU and reference.
TEST(TrackTable, EveryTrackHasOneRowAndAReference) {
  EXPECT_EQ(std::size(kTrackTable), 10u);
  for (const TrackDesc& t : kTrackTable) {
    SCOPED_TRACE(t.name);
    EXPECT_EQ(&track_desc(t.track), &t);
    EXPECT_EQ(find_track(t.name), &t);
    ASSERT_NE(find_reference(t.reference), nullptr);
    EXPECT_EQ(&track_reference(t.track), find_reference(t.reference));
    EXPECT_EQ(t.conv, t.peer != nullptr);  // the convolutions also time cuDNN
    EXPECT_FALSE(stages_of_track(t.track).empty());
  }
  EXPECT_EQ(find_track("int8"), nullptr);
  EXPECT_STREQ(track_desc(StageTrack::hopper).reference, "cublas-fp16");
  EXPECT_STREQ(track_desc(StageTrack::conv_int4).rate_unit, "TOP/s");
  EXPECT_EQ(track_desc(StageTrack::fp32).tolerance, 1e-5);
  EXPECT_EQ(conv_track(conv::Element::S8), StageTrack::conv_int8);
  EXPECT_EQ(gemm_reference(StageTrack::fp32)->kind, ReferenceKind::CublasSgemm);
  EXPECT_EQ(gemm_reference(StageTrack::conv_fp16), nullptr);
  // The FP8 tracks: e4m3 operands, bf16 D row-major, sm_90, each with its cuBLASLt reference.
  for (StageTrack fp8 : {StageTrack::fp8, StageTrack::fp8_block}) {
    const TrackDesc& t = track_desc(fp8);
    EXPECT_TRUE(is_fp8(fp8));
    EXPECT_EQ(t.required_sm, 90);
    EXPECT_EQ(t.element_bytes, 1);
    EXPECT_EQ(t.c_element_bytes, 2);
    EXPECT_EQ(t.c_order, MatrixOrder::RowMajor);
    EXPECT_FALSE(t.checked_by_reference);
    EXPECT_STREQ(t.rate_unit, "TFLOP/s");
    EXPECT_EQ(operand_track(fp8), fp8);
    EXPECT_EQ(gemm_reference(fp8), &track_reference(fp8));
  }
  EXPECT_STREQ(find_track("fp8-block")->reference, "cublaslt-fp8-block");
  EXPECT_EQ(gemm_reference(StageTrack::fp8)->kind, ReferenceKind::CublasLtFp8);
  EXPECT_EQ(gemm_reference(StageTrack::fp8_block)->kind, ReferenceKind::CublasLtFp8Block);
  EXPECT_FALSE(is_fp8(StageTrack::hopper));
  EXPECT_TRUE(track_desc(StageTrack::hopper).checked_by_reference);
  EXPECT_EQ(track_desc(StageTrack::fp16).c_element_bytes, 4);
  // The stages of a track in ladder order.
  const auto fp16 = stages_of_track(StageTrack::fp16);
  ASSERT_EQ(fp16.size(), 5u);
  EXPECT_STREQ(fp16.front()->id, "mma-sync");
  EXPECT_STREQ(fp16.back()->id, "epilogue");
}

// References are rows too: ids distinct from every stage's.
TEST(ReferenceTable, ReferencesAreRowsWithOwnIds) {
  EXPECT_EQ(std::size(kReferenceTable), 7u);
  for (const ReferenceDesc& r : kReferenceTable) {
    SCOPED_TRACE(r.id);
    EXPECT_EQ(find_stage_desc(r.id), nullptr);
    EXPECT_EQ(&reference_of_kind(r.kind), &r);
  }
  EXPECT_STREQ(find_reference("cudnn")->name, "cuDNN (graph API)");
  EXPECT_EQ(find_reference("cublaslt-fp8")->track, StageTrack::fp8);
  EXPECT_EQ(find_reference("cublaslt-fp8-block")->math, MathOp::WgmmaE4m3);
  // The fused track's peer: cuDNN's conv -> bias -> residual -> ReLU graph, fp16 out; its ratio
  // still divides by im2col + cuBLAS, which every build has.
  EXPECT_STREQ(track_desc(StageTrack::conv_fused).peer, "cudnn-fused");
  EXPECT_EQ(find_reference("cudnn-fused")->kind, ReferenceKind::CudnnFused);
  EXPECT_EQ(track_reference(StageTrack::conv_fused).kind, ReferenceKind::Im2colCublas);
  // fp16 output: the fp32 conv's tolerance plus one fp16 rounding (2^-11 relative).
  EXPECT_DOUBLE_EQ(track_desc(StageTrack::conv_fused).tolerance - track_desc(StageTrack::conv_hopper).tolerance,
                   std::ldexp(1.0, -11));
  EXPECT_EQ(find_reference("naive"), nullptr);
}

// The simulator's behaviour is in the rows: cluster multicast, the persistent schedule, the
// shared-memory mix.
TEST(StageTable, SimulatorBehaviourIsTyped) {
  int persistent = 0, clusters = 0, dispatchers = 0;
  for (const StageDesc& s : stage_table()) {
    persistent += s.schedule == BlockSchedule::Persistent;
    dispatchers += s.schedule == BlockSchedule::Dispatch;
    clusters += s.cluster_m > 1;
    EXPECT_EQ(s.smem_mix == SmemMix::None, !s.has_tile()) << s.id;
  }
  EXPECT_EQ(persistent, 3);  // stages 19a, 20a and 20b
  EXPECT_EQ(dispatchers, 1);
  EXPECT_EQ(clusters, 5);  // stages 18, 19a, 19c's facts of its default pick (19a's), 20a and 20b
  EXPECT_EQ(find_stage_desc("cluster")->cluster_m, 2);
  EXPECT_EQ(find_stage_desc("persistent")->schedule, BlockSchedule::Persistent);
  EXPECT_EQ(find_stage_desc("smem-swizzle")->smem_mix, SmemMix::MmaSyncLdmatrixSwizzled);
  EXPECT_EQ(find_stage_desc("conv-int8")->smem_mix, SmemMix::Multistage);
  // A row with a cluster and no persistent schedule: multicast only, the grid's order.
  auto spec = stage_launch_spec(*find_stage_desc("cluster"), {4096, 4096, 4096});
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->l2.multicast_b, 2);
  EXPECT_FALSE(spec->l2.multicast_rank_linear);
  EXPECT_EQ(spec->persistent_cluster_m, 0);
  auto ps = stage_launch_spec(*find_stage_desc("persistent"), {4096, 4096, 4096});
  ASSERT_TRUE(ps.ok());
  EXPECT_EQ(ps->l2.multicast_b, 2);
  EXPECT_TRUE(ps->l2.multicast_rank_linear);
  EXPECT_EQ(ps->persistent_cluster_m, 2);
  EXPECT_EQ(ps->persistent_stride, 8);
  // A copy of a row with other behaviour behaves otherwise: nothing looks at the id.
  StageDesc twin = *find_stage_desc("wgmma");
  twin.cluster_m = 4;
  auto tw = stage_launch_spec(twin, {4096, 4096, 4096});
  ASSERT_TRUE(tw.ok());
  EXPECT_EQ(tw->l2.multicast_b, 4);
}

// The Hopper stages read the fp16 problem, need an sm_90, and their tiles are whole TMA boxes.
TEST(StageTable, HopperStagesAreFp16ProblemsOnSm90) {
  const StageDesc& t = *find_stage_desc("tma");
  EXPECT_EQ(t.track, StageTrack::hopper);
  EXPECT_EQ(operand_track(t.track), StageTrack::fp16);
  EXPECT_EQ(required_sm(t.track), 90);
  EXPECT_EQ(required_sm(StageTrack::fp16), 0);
  EXPECT_EQ(t.element_bytes(), 2);
  EXPECT_EQ(t.a_order(), MatrixOrder::RowMajor);
  EXPECT_EQ(t.loads, GlobalLoad::Tma);
  EXPECT_EQ(t.tile_k, 64);
  // 4 stages x (128 + 256) x 64 halves + 1024 alignment + 8 mbarriers of 8 bytes
  EXPECT_EQ(t.smem, 196608 + 1024 + 64);
  EXPECT_STREQ(track_name(t.track), "hopper");
}

// Stage 20a: the e4m3 problem (1-byte operands, bf16 D row-major) on stage 19's machinery.
TEST(StageTable, Fp8TensorIsAnE4m3ProblemOnSm90) {
  const StageDesc& s = *find_stage_desc("fp8-tensor");
  EXPECT_EQ(s.track, StageTrack::fp8);
  EXPECT_STREQ(s.lesson, "20-fp8");
  EXPECT_STREQ(s.folder, "fp8/20a_fp8_tensor");
  EXPECT_EQ(stage_of_kernel("void gemmlab::kernels::fp8::fp8_tensor_kernel<(gemmlab::kernels::fp8::Epilogue)1>(...)"),
            &s);
  EXPECT_EQ(s.element_bytes(), 1);
  EXPECT_EQ(s.c_element_bytes(), 2);
  EXPECT_EQ(s.c_order(), MatrixOrder::RowMajor);
  EXPECT_EQ(s.math, MathOp::WgmmaE4m3);
  // 128 x 256 x 128 (k in bytes), 3 warpgroups, 4 x 48 KB stages + 2 x 16 KB D staging + 1 KB + barriers.
  EXPECT_EQ(s.tile_m, 128);
  EXPECT_EQ(s.tile_n, 256);
  EXPECT_EQ(s.tile_k, 128);
  EXPECT_EQ(s.threads, 384);
  EXPECT_EQ(s.smem, 4 * 49152 + 2 * 16384 + 1024 + 64);
  EXPECT_EQ(s.cluster_m, 2);
  EXPECT_EQ(ladder_previous(s), nullptr);  // the first of its ladder
}

// The stage each one is timed against in the bench: the one before it with the same operands.
TEST(StageTable, LadderPreviousIsTheStageBeforeWithTheSameOperands) {
  auto previous = [](const char* id) -> std::string {
    const StageDesc* p = ladder_previous(*find_stage_desc(id));
    return p ? p->id : "none";
  };
  EXPECT_EQ(previous("naive-uncoalesced"), "none");  // the fp32 ladder's first
  EXPECT_EQ(previous("naive"), "naive-uncoalesced");
  EXPECT_EQ(previous("simt-tile"), "sliced-k");
  EXPECT_EQ(previous("mma-sync"), "none");  // fp16 operands: a ladder of its own
  EXPECT_EQ(previous("ldmatrix"), "mma-sync");
  EXPECT_EQ(previous("tma"), "epilogue");  // the hopper track solves the fp16 problem
  EXPECT_EQ(previous("warp-specialized"), "wgmma");
  EXPECT_EQ(previous("cluster"), "warp-specialized");
  EXPECT_EQ(previous("persistent"), "cluster");
  EXPECT_EQ(previous("conv-int8"), "none");  // the conv bench compares im2col + cuBLAS and cuDNN
  EXPECT_EQ(previous("conv-wgmma"), "none");
  EXPECT_EQ(previous("fp8-tensor"), "none");  // the e4m3 problem: a ladder of its own
  EXPECT_EQ(previous("fp8-block"), "none");   // and the block-scaled one another
  EXPECT_EQ(previous("wgmma-split-k"), "persistent");
  EXPECT_EQ(previous("auto"), "wgmma-split-k");
  // A copy of a table entry (the kernels' StageInfo) finds the same stage.
  const StageDesc copy = *find_stage_desc("wgmma");
  ASSERT_NE(ladder_previous(copy), nullptr);
  EXPECT_STREQ(ladder_previous(copy)->id, "tma");
  int firsts = 0;
  for (const StageDesc& s : stage_table()) firsts += !is_conv(s.track) && !ladder_previous(s);
  EXPECT_EQ(firsts, 4);  // naive-uncoalesced, mma-sync, fp8-tensor, fp8-block
}

// The conv stages: one per element type, listed at their largest tile (stage 10's), lesson 14.
TEST(StageTable, ConvStagesAreImplicitGemms) {
  const StageDesc& f = *find_stage_desc("conv-fp16");
  EXPECT_TRUE(is_conv(f.track));
  EXPECT_FALSE(is_conv(StageTrack::hopper));
  EXPECT_EQ(conv_element(f.track), conv::Element::F16);
  EXPECT_EQ(conv_element(find_stage_desc("conv-int8")->track), conv::Element::S8);
  EXPECT_EQ(conv_element(find_stage_desc("conv-int4")->track), conv::Element::S4);
  EXPECT_EQ(conv_track(conv::Element::S4), StageTrack::conv_int4);
  EXPECT_STREQ(track_name(find_stage_desc("conv-int8")->track), "conv-int8");
  EXPECT_STREQ(f.lesson, "14-implicit-gemm");
  EXPECT_EQ(f.tile_m, 128);
  EXPECT_EQ(f.tile_n, 128);
  EXPECT_EQ(f.tile_k, 32);
  EXPECT_EQ(f.threads, 256);
  EXPECT_EQ(f.smem, 65536);  // 4 stages x (128 + 128) rows x 64 bytes
  EXPECT_EQ(stage_of_kernel("void gemmlab::kernels::conv::conv_fprop_kernel<8, gemmlab::kernels::fp16::"
                            "MultistageShape<128, 64, 32, 4, 64, 32>>(const __half *, const __half *, float *, "
                            "gemmlab::conv::Shape, float, float)"),
            find_stage_desc("conv-int8"));
}

TEST(StageTable, ValuesComeFromTheKernelsConstants) {
  const StageDesc& e = *find_stage_desc("epilogue");
  EXPECT_EQ(e.tile_m, 256);
  EXPECT_EQ(e.tile_n, 128);
  EXPECT_EQ(e.tile_k, 32);
  EXPECT_EQ(e.smem, 98304);  // 4 stages x (256 + 128) x 32 halves
  EXPECT_EQ(e.threads, 256);  // 8 warps of 64 x 64
  EXPECT_EQ(e.raster, OrderKind::Serpentine);
  EXPECT_EQ(e.raster_param, 8);
  EXPECT_EQ(e.loads, GlobalLoad::CpAsync);
  const StageDesc& b = *find_stage_desc("block-swizzle");
  EXPECT_EQ(b.raster, OrderKind::Identity);
  EXPECT_EQ(b.raster_param, 8);
  EXPECT_EQ(b.smem, 16640);  // two 8320-byte SIMT stages
  EXPECT_EQ(find_stage_desc("simt-tile")->smem, 8320);
  EXPECT_EQ(find_stage_desc("sliced-k")->threads, 1024);
  EXPECT_EQ(find_stage_desc("split-k")->partition, Partition::SplitKParallel);
  EXPECT_EQ(find_stage_desc("stream-k")->partition, Partition::StreamK);
  EXPECT_EQ(find_stage_desc("mma-sync")->smem, 16384);
  EXPECT_EQ(find_stage_desc("nope"), nullptr);
}

TEST(StageTable, NcuKernelNamesFindTheirStage) {
  const std::pair<const char*, const char*> names[] = {
      {"void unnamed>::double_buffer_kernel<4>(int, int, int, float, const float *, const float *, float, float *, bool)",
       "double-buffer"},
      {"void (anonymous namespace)::block_swizzle_kernel<1>(int, int, int, float, const float *)", "block-swizzle"},
      {"void gemmlab::kernels::(anonymous namespace)::naive_kernel<false>(int, int, int, float)", "naive-uncoalesced"},
      {"void naive_kernel<1>(int, int, int, float)", "naive"},
      {"void sync_tile_kernel<SyncTileShape<32>, 0, 0, 1>(const __half *, const __half *)", "mma-sync"},
      {"void sync_tile_kernel<SyncTileShape<32>, 1, 0, 1>(const __half *, const __half *)", "ldmatrix"},
      {"void sync_tile_kernel<SyncTileShape<32>, 1, 1, 1>(const __half *, const __half *)", "smem-swizzle"},
      {"void multistage_kernel<MultistageShape<128, 128, 32, 4, 64, 32>, 1, 1>(const __half *)", "multistage"},
      {"void staged_epilogue_kernel<MultistageShape<256, 128, 32, 4, 64, 64, 1>, 1, 1, 1>(const __half *)", "epilogue"},
      {"void unnamed>::split_k_kernel<4>(int, int, int)", "split-k"},
      // 19b, 19d and 19e run one kernel template; the tile and stages tell them apart (the longer pattern wins).
      {"void gemmlab::kernels::hopper::split_k_wgmma_kernel<gemmlab::kernels::hopper::WgmmaShape<64, 128, 4, false>>("
       "CUtensorMap_st, CUtensorMap_st, float *, float *, int, int, int, float, float, int)",
       "wgmma-split-k"},
      {"void gemmlab::kernels::hopper::split_k_wgmma_kernel<gemmlab::kernels::hopper::WgmmaShape<128, 128, 3, false>>("
       "CUtensorMap_st, CUtensorMap_st, float *, float *, int, int, int, float, float, int)",
       "wgmma-split-k-128"},
      {"void gemmlab::kernels::hopper::split_k_wgmma_kernel<gemmlab::kernels::hopper::WgmmaShape<64, 128, 8, false>>("
       "CUtensorMap_st, CUtensorMap_st, float *, float *, int, int, int, float, float, int)",
       "wgmma-deep"},
      {"void gemmlab::kernels::hopper::split_k_wgmma_kernel<gemmlab::kernels::hopper::WgmmaShape<128, 128, 6, false>>("
       "CUtensorMap_st, CUtensorMap_st, float *, float *, int, int, int, float, float, int)",
       "wgmma-deep-128"},
  };
  for (const auto& [name, id] : names) {
    const StageDesc* s = stage_of_kernel(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_STREQ(s->id, id) << name;
  }
  EXPECT_EQ(stage_of_kernel("void unnamed>::split_k_reduce_kernel(long long, int, float, float)"), nullptr);
  EXPECT_EQ(stage_of_kernel("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x256x64_cublas"), nullptr);
  EXPECT_EQ(stage_of_kernel(""), nullptr);
}

// What ncu measured of each kernel it profiled: the stage found from the kernel's name, its
// block size, registers, shared memory, and the grid the launch plan predicts.
// `earlier_builds`: how many of the file's captures are of an earlier build of their stage.
void expect_matches_ncu(const std::string& file, int& earlier_builds) {
  int sections = 0;
  earlier_builds = 0;
  for (const auto& [key, sec] : test::read_ncu_csv_sections(file, "# stage=")) {
    SCOPED_TRACE(file + ": " + key);
    const std::string id = key.substr(0, key.find(' '));
    const StageDesc* registered = stage_of_kernel(sec.kernel);
    ASSERT_NE(registered, nullptr) << sec.kernel;
    EXPECT_EQ(registered->id, id);
    // The stage as this capture's kernel was built (stage 12's captures before 2026-11-26 are of
    // its 128 x 256 tile); registers are known for the current build only.
    const MeasuredStage built = stage_as_measured(*registered, sec.kernel);
    const StageDesc* s = &built.desc;
    const auto& m = sec.metrics;
    if (m.count("launch__registers_per_thread") && built.current) {
      EXPECT_EQ(m.at("launch__registers_per_thread"), s->regs);
    }
    if (!built.current) ++earlier_builds;
    if (m.count("launch__block_size")) {
      EXPECT_EQ(m.at("launch__block_size"), s->threads);
    }
    if (m.count("launch__shared_mem_per_block_static")) {
      EXPECT_EQ(m.at("launch__shared_mem_per_block_static") + m.at("launch__shared_mem_per_block_dynamic"), s->smem);
    }
    // "size=4096" or "size=128x256x8192"
    std::string size = key.substr(key.find("size=") + 5);
    size = size.substr(0, size.find(' '));
    GemmCoord p;
    if (size.find('x') == std::string::npos) {
      p = {std::stoi(size), std::stoi(size), std::stoi(size)};
    } else {
      const size_t x1 = size.find('x'), x2 = size.find('x', x1 + 1);
      p = {std::stoi(size.substr(0, x1)), std::stoi(size.substr(x1 + 1, x2 - x1 - 1)), std::stoi(size.substr(x2 + 1))};
    }
    auto plan = plan_launch(*stage_launch_spec(*s, p), *device_preset("h200"));
    ASSERT_TRUE(plan.ok()) << plan.error();
    if (m.count("launch__grid_size")) {
      EXPECT_EQ(m.at("launch__grid_size"), double(plan->plan.blocks.size()));
    }
    ++sections;
  }
  EXPECT_GT(sections, 5) << file;
}

TEST(StageTable, MatchesWhatNcuMeasuredOfTheKernels) {
  // Stage 12's rows in l2_ncu_h200.csv (4096^3 and 8192^3) were retaken with its 256 x 128 build
  // (2026-11-26); the single launch 128x256x8192 of l2_runs_h200.csv is of its 128 x 256 build.
  int earlier = -1;
  expect_matches_ncu("l2_ncu_h200.csv", earlier);
  EXPECT_EQ(earlier, 0);
  expect_matches_ncu("l2_runs_h200.csv", earlier);
  EXPECT_EQ(earlier, 1);
}

// A kernel's name says how it was built: stage 12 until 2026-11-26 (128 x 256), now (256 x 128,
// the loop's barrier after the mma: the seventh parameter), and as ncu's source page spells it.
TEST(StageTable, AStageAsItsMeasuredKernelWasBuilt) {
  const StageDesc& e = *find_stage_desc("epilogue");
  const MeasuredStage before = stage_as_measured(e, "void staged_epilogue_kernel<MultistageShape<128, 256, 32, 4, 64, 64>, 1>(const __half *)");
  EXPECT_FALSE(before.current);
  EXPECT_EQ(before.desc.tile_m, 128);
  EXPECT_EQ(before.desc.tile_n, 256);
  EXPECT_EQ(before.desc.tile_k, 32);
  EXPECT_EQ(before.desc.threads, 256);  // 2 x 4 warps of 64 x 64
  EXPECT_EQ(before.desc.smem, 98304);
  EXPECT_EQ(before.desc.regs, e.regs);  // not in a name: the caller must not compare it
  const MeasuredStage now = stage_as_measured(
      e, "void gemmlab::kernels::fp16::staged_epilogue_kernel<gemmlab::kernels::fp16::MultistageShape<(int)256, "
         "(int)128, (int)32, (int)4, (int)64, (int)64, (bool)1>, (bool)1, (int)1, (int)1>(const __half *)");
  EXPECT_TRUE(now.current);
  EXPECT_EQ(now.desc.tile_m, 256);
  // A 32 x 64 warp tile of the same block would be another build: 512 threads.
  const MeasuredStage warps = stage_as_measured(e, "staged_epilogue_kernel<MultistageShape<256, 128, 32, 4, 32, 64>, 1>");
  EXPECT_FALSE(warps.current);
  EXPECT_EQ(warps.desc.threads, 512);
  // No shape in the name, or one cut short: the registered stage.
  EXPECT_TRUE(stage_as_measured(e, "staged_epilogue_kernel").current);
  EXPECT_TRUE(stage_as_measured(e, "staged_epilogue_kernel<MultistageShape<128, 256, 32>").current);
  EXPECT_TRUE(stage_as_measured(e, "staged_epilogue_kernel<MultistageShape<128, 0, 32, 4, 64, 64>").current);
  // Numbers no kernel has (an edited file): the registered stage, no overflow.
  EXPECT_TRUE(stage_as_measured(e, "staged_epilogue_kernel<MultistageShape<99999999999999999999, 128, 32, 4, 64, 64>").current);
  // A conv stage picks its tile per layer: another tile in its name is the same build.
  const StageDesc& c = *find_stage_desc("conv-int8");
  const MeasuredStage conv = stage_as_measured(c, "conv_fprop_kernel<8, MultistageShape<64, 128, 32, 4, 64, 32>>");
  EXPECT_TRUE(conv.current);
  EXPECT_EQ(conv.desc.tile_m, c.tile_m);
  // Stage 15 keeps its 128 x 256 x 64 shape; its larger shared memory stays the registered one.
  const StageDesc& t = *find_stage_desc("tma");
  const MeasuredStage tma = stage_as_measured(t, "tma_mma_sync_kernel<MultistageShape<128, 256, 64, 4, 64, 64>>");
  EXPECT_TRUE(tma.current);
  EXPECT_EQ(tma.desc.smem, t.smem);
  // Stage 16 ran two warpgroups on 128 x 256 until 2026-11-27 (the per-stage ncu captures of
  // 2026-11-26 were of it): 4 stages of 48 KB boxes, the slack and 8 mbarriers.
  const StageDesc& w = *find_stage_desc("wgmma");
  const MeasuredStage wide = stage_as_measured(w, "void hopper::wgmma_kernel<hopper::WgmmaShape<128, 256, 4, 0>>(CUtensorMap_st)");
  EXPECT_FALSE(wide.current);
  EXPECT_EQ(wide.desc.tile_n, 256);
  EXPECT_EQ(wide.desc.threads, 256);
  EXPECT_EQ(wide.desc.smem, 4 * 49152 + 1024 + 64);
  EXPECT_EQ(wide.desc.raster_param, 8);  // its serpentine slabs (stage 16 runs slabs of 4 now)
  EXPECT_EQ(w.raster_param, 4);
  EXPECT_TRUE(stage_as_measured(w, "wgmma_kernel<WgmmaShape<(int)128, (int)128, (int)4, (bool)0>>").current);
  // A producer warpgroup is one more warpgroup; stage 19's name carries the shape it runs.
  const StageDesc& p = *find_stage_desc("persistent");
  EXPECT_TRUE(stage_as_measured(p, "persistent_kernel<WgmmaShape<128, 256, 4, 1>>").current);
  EXPECT_EQ(stage_as_measured(w, "wgmma_kernel<WgmmaShape<128, 256, 4, 1>>").desc.threads, 384);
  // Not a wgmma tile (N past 256, M not whole warpgroups): the registered stage.
  EXPECT_TRUE(stage_as_measured(w, "wgmma_kernel<WgmmaShape<128, 512, 4, 0>>").current);
  EXPECT_TRUE(stage_as_measured(w, "wgmma_kernel<WgmmaShape<96, 128, 4, 0>>").current);
}

TEST(LaunchPlan, StagesLaunchAsTheirKernelsDo) {
  const DeviceDesc h100 = *device_preset("h100");
  // double-buffer at 4096^3: 32 x 32 tiles, 127 registers -> 2 blocks per SM, 264 slots:
  // 3 full waves (792 blocks) and 232 in the last.
  auto db = plan_launch(*stage_launch_spec(*find_stage_desc("double-buffer"), {4096, 4096, 4096}), h100);
  ASSERT_TRUE(db.ok()) << db.error();
  EXPECT_EQ(db->blocks_per_sm, 2);
  EXPECT_EQ(db->occupancy.limiter, "registers");
  EXPECT_EQ(db->waves.blocks, 1024);
  EXPECT_EQ(db->waves.slots, 264);
  EXPECT_EQ(db->waves.full_waves, 3);
  EXPECT_EQ(db->waves.last_wave_blocks, 232);
  EXPECT_EQ(db->waves.wave_of(263), 0);
  EXPECT_EQ(db->waves.wave_of(264), 1);
  EXPECT_EQ(db->waves.wave_of(1023), 3);
  // 1024 equal blocks on 264 slots: 4 rounds where 3.88 would do -> efficiency 3.88 / 4.
  EXPECT_NEAR(db->timeline.efficiency(), 1024.0 / 264.0 / 4.0, 1e-9);
  EXPECT_TRUE(db->spec.l2.coresident.enabled);
  EXPECT_EQ(db->spec.l2.element_bytes, 4);
  EXPECT_EQ(db->spec.l2.a_order, MatrixOrder::ColumnMajor);
  EXPECT_EQ(db->spec.l2.c_order, MatrixOrder::ColumnMajor);
  // split-k at 512x512x16384 (13a_split_k/split_k.cu's own example): 16 tiles, 264 slots -> 17 slices.
  auto sk = plan_launch(*stage_launch_spec(*find_stage_desc("split-k"), {512, 512, 16384}), h100);
  ASSERT_TRUE(sk.ok()) << sk.error();
  EXPECT_EQ(sk->split_k, 17);
  EXPECT_EQ(sk->plan.grid.z, 17);
  EXPECT_EQ(sk->tiles.shared, 16);
  EXPECT_EQ(sk->tiles.alone, 0);
  // At 4096^3 the tiles fill the GPU: one slice, the data-parallel launch.
  auto sk1 = plan_launch(*stage_launch_spec(*find_stage_desc("split-k"), {4096, 4096, 4096}), h100);
  ASSERT_TRUE(sk1.ok());
  EXPECT_EQ(sk1->split_k, 1);
  EXPECT_EQ(sk1->tiles.alone, 1024);
  // epilogue: 240 registers -> 1 block per SM; serpentine grid of 512 blocks at 4096^3; fp16 TN;
  // two-block co-residency does not arise, and the stage says even.
  auto ep = plan_launch(*stage_launch_spec(*find_stage_desc("epilogue"), {4096, 4096, 4096}), h100);
  ASSERT_TRUE(ep.ok());
  EXPECT_EQ(ep->blocks_per_sm, 1);
  EXPECT_EQ(ep->waves.blocks, 512);
  EXPECT_EQ(ep->waves.last_wave_blocks, 512 - 3 * 132);
  EXPECT_FALSE(ep->spec.l2.coresident.enabled);
  EXPECT_EQ(ep->spec.l2.global_load, GlobalLoad::CpAsync);
  EXPECT_EQ(ep->spec.l2.a_order, MatrixOrder::RowMajor);
  EXPECT_EQ(order_name(ep->plan.order), "serpentine:8");
}

// Stage 19 at 8192^3 on the H100: 66 clusters, 1024 units = 15 rounds + 34 units; those 34 units'
// 68 tiles become the stream-k tail's pieces (34 x 128 k-tiles over 66 clusters, 65-66 each: 98
// segments, as the unit boundaries at 128 t fall inside all clusters' ranges but cluster 33's).
TEST(LaunchPlan, PersistentTailRunsAsPieces) {
  const DeviceDesc h100 = *device_preset("h100");
  auto p = plan_launch(*stage_launch_spec(*find_stage_desc("persistent"), {8192, 8192, 8192}), h100);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->waves.blocks, 2048);  // the waves count whole tiles: lesson 19's "68 left"
  EXPECT_EQ(p->waves.last_wave_blocks, 68);
  EXPECT_EQ(p->plan.blocks.size(), 1980u + 2 * 98);
  EXPECT_EQ(p->tail_pieces, 2 * 98);
  EXPECT_EQ(p->waves.wave_of(1980 + 195), 15);  // the pieces are the last round
  EXPECT_EQ(check_plan_coverage(p->plan), "");
  EXPECT_EQ(p->tiles.alone, 1980);
  EXPECT_EQ(p->tiles.shared, 68);
  int shortest = 1 << 30, longest = 0;
  for (size_t b = 1980; b < p->plan.blocks.size(); ++b) {
    const WorkSegment& s = p->plan.segments[static_cast<size_t>(p->plan.blocks[b].first_segment)];
    shortest = std::min(shortest, s.k_iter_end - s.k_iter_begin);
    longest = std::max(longest, s.k_iter_end - s.k_iter_begin);
  }
  EXPECT_EQ(shortest, 3);  // cluster 1: [65, 131) = unit 0's last 63 and unit 1's first 3
  EXPECT_EQ(longest, 66);
  // The tail keeps every SM busy in the last round: 98.4% of the slots' time does work.
  EXPECT_NEAR(p->timeline.efficiency(), 0.984, 0.001);
  EXPECT_EQ(p->timeline.slots, 132);
  // Without the tail (M % 4 != 0: no TMA store) the 34 of 66 clusters of the last round would leave
  // 32 idle: all 32 unit rows are narrowed to 33 tiles (32 of 248 columns, one of 256), 16 rounds
  // of 66 units on all 132 SMs.
  auto no_tail = plan_launch(*stage_launch_spec(*find_stage_desc("persistent"), {8190, 8192, 8192}), h100);
  ASSERT_TRUE(no_tail.ok());
  EXPECT_EQ(no_tail->plan.blocks.size(), 2112u);
  EXPECT_EQ(no_tail->timeline.slots, 132);
  EXPECT_EQ(no_tail->narrowed.rows, 64);
  EXPECT_EQ(no_tail->narrowed.cols, 248);
  EXPECT_EQ(no_tail->narrowed.wider, 1);
  EXPECT_EQ(check_plan_coverage(no_tail->plan), "");
  // 4096^3: 58 of 66 clusters would run the last round, too full for a tail: the last 8 unit rows
  // (tile rows 16-31) are narrowed to 17 tiles, 264 units = 4 rounds of 66 on all 132 SMs.
  auto q = plan_launch(*stage_launch_spec(*find_stage_desc("persistent"), {4096, 4096, 4096}), h100);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->plan.blocks.size(), 528u);
  EXPECT_EQ(q->timeline.slots, 132);
  EXPECT_EQ(q->waves.full_waves, 4);
  EXPECT_EQ(q->waves.last_wave_blocks, 132);
  EXPECT_EQ(q->tiles.shared, 0);
  EXPECT_EQ(q->tail_pieces, 0);
  EXPECT_EQ(check_plan_coverage(q->plan), "");
}

// Stage 19's narrowed rows at 4096^3 on the H100 (persistent_schedule.h): rows 0-15 keep 16 tiles
// of 256 columns, rows 16-31 hold 15 of 240 and 2 of 248; each row's tiles cover its 4096 columns
// once; the longest cluster computes 1,000 columns (1,024 without); narrowed tiles take 240/256 or
// 248/256 of a wide tile's main loop.
TEST(LaunchPlan, PersistentNarrowedRowsCoverEveryColumnOnce) {
  const DeviceDesc h100 = *device_preset("h100");
  auto p = plan_launch(*stage_launch_spec(*find_stage_desc("persistent"), {4096, 4096, 4096}), h100);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->narrowed.rows, 16);
  EXPECT_EQ(p->narrowed.tiles, 17);
  EXPECT_EQ(p->narrowed.cols, 240);
  EXPECT_EQ(p->narrowed.wider, 2);
  EXPECT_EQ(p->narrowed.longest, 1000);
  EXPECT_EQ(p->narrowed.longest_whole, 1024);
  ASSERT_EQ(p->tiles.tiles_n, 17);
  // The launch's order is the list the blocks take: (tile row, index in the row).
  ASSERT_EQ(p->spec.order.tile_list.size(), 528u);
  for (size_t b = 0; b < 528; ++b) ASSERT_TRUE(p->spec.order.tile_list[b] == p->plan.blocks[b].tile) << b;
  EXPECT_TRUE(p->spec.order.tile_list[527] == (GemmCoord{17, 16, 0}));
  std::vector<std::vector<int>> covered(32, std::vector<int>(4096, 0));
  std::vector<int> widths(32, 0);
  for (const WorkSegment& s : p->plan.segments) {
    const ColumnRange c = segment_columns(p->plan, s);
    for (long long x = c.first; x < c.first + c.count; ++x) ++covered[static_cast<size_t>(s.m_tile)][static_cast<size_t>(x)];
    widths[static_cast<size_t>(s.m_tile)] = std::max<int>(widths[static_cast<size_t>(s.m_tile)], int(c.count));
    EXPECT_EQ(p->tiles.col_first[static_cast<size_t>(s.tile_index)], c.first);
  }
  for (int r = 0; r < 32; ++r) {
    for (int x = 0; x < 4096; ++x) ASSERT_EQ(covered[static_cast<size_t>(r)][static_cast<size_t>(x)], 1) << r << " " << x;
    EXPECT_EQ(widths[static_cast<size_t>(r)], r < 16 ? 256 : 248) << r;
    EXPECT_EQ(p->plan.tile_exists(r, 16), r >= 16);
  }
  // Each block on the slot the kernel's static schedule gives it (cluster u % 66's block r), even
  // though the narrowed tiles end earlier; a narrowed block's main loop is 240 / 256 of a wide one's.
  ASSERT_EQ(p->timeline.slots, 132);
  for (size_t b = 0; b < p->timeline.blocks.size(); ++b) ASSERT_EQ(p->timeline.blocks[b].slot, int(b % 132)) << b;
  const auto main_of = [&](size_t b) {
    const BlockRun& run = p->timeline.blocks[b];
    return p->timeline.phases[static_cast<size_t>(run.first_phase)].end - p->timeline.phases[static_cast<size_t>(run.first_phase)].start;
  };
  EXPECT_NEAR(main_of(300) / main_of(0), 240.0 / 256.0, 1e-9);
}

// Stage 19 at 512 x 512 x 16384: 4 units (8 tiles) on 66 clusters; every unit is split over a group
// of 16 clusters, the same 16 k-tile ranges for all four units (2 clusters idle): 64 segments =
// 128 pieces and no tile alone.
TEST(LaunchPlan, PersistentSplitsFewerUnitsThanClusters) {
  const DeviceDesc h100 = *device_preset("h100");
  auto p = plan_launch(*stage_launch_spec(*find_stage_desc("persistent"), {512, 512, 16384}), h100);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->tail_pieces, 128);
  EXPECT_EQ(p->plan.blocks.size(), 128u);
  EXPECT_EQ(check_plan_coverage(p->plan), "");
  EXPECT_EQ(p->tiles.alone, 0);
  EXPECT_EQ(p->tiles.shared, 8);
  int longest = 0;
  for (const BlockWork& b : p->plan.blocks) {
    const WorkSegment& s = p->plan.segments[static_cast<size_t>(b.first_segment)];
    longest = std::max(longest, s.k_iter_end - s.k_iter_begin);
  }
  EXPECT_EQ(longest, 16);
}

TEST(LaunchPlan, WavesAndTileSpans) {
  // 3 x 2 tiles, 4 slots: one full wave and 2 blocks in the last.
  LaunchSpec spec;
  spec.problem = {384, 256, 64};
  spec.tile = {128, 128, 32};
  spec.blocks_per_sm = 1;
  DeviceDesc d = *device_preset("h100");
  d.sms = 4;
  auto p = plan_launch(spec, d);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->waves.blocks, 6);
  EXPECT_EQ(p->waves.full_waves, 1);
  EXPECT_EQ(p->waves.last_wave_blocks, 2);
  ASSERT_EQ(p->tiles.first_block.size(), 6u);
  EXPECT_EQ(p->tiles.alone, 6);
  // Launch order: blockIdx.x along M, so tile (m 1, n 0) is block 1 and (m 0, n 1) block 3.
  EXPECT_EQ(p->tiles.first_block[1 * 2 + 0], 1);
  EXPECT_EQ(p->tiles.first_block[0 * 2 + 1], 3);
  // Blocks 4 and 5 start when the first wave ends (2 k iterations + the epilogue).
  EXPECT_GT(p->tiles.start[2 * 2 + 1], 0);
  EXPECT_EQ(p->tiles.start[0], 0);
  EXPECT_EQ(p->tiles.edge_rows, 128);  // 384 = 3 x 128: no partial tile
  // Lesson 1's ragged problem: 1000 = 7 x 128 + 104 rows, 500 = 3 x 128 + 116 columns.
  spec.problem = {1000, 500, 64};
  auto ragged = plan_launch(spec, d);
  ASSERT_TRUE(ragged.ok());
  EXPECT_EQ(ragged->tiles.tiles_m, 8);
  EXPECT_EQ(ragged->tiles.tiles_n, 4);
  EXPECT_EQ(ragged->tiles.edge_rows, 104);
  EXPECT_EQ(ragged->tiles.edge_cols, 116);
  // A full last wave counts as full.
  spec.problem = {512, 128, 64};
  auto q = plan_launch(spec, d);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->waves.last_wave_blocks, 4);
  // More blocks per SM than the device allows.
  spec.blocks_per_sm = 99;
  EXPECT_FALSE(plan_launch(spec, d).ok());
}

// `gemmlab sim l2|schedule --stage ID` gives the library's numbers (what the views show).
TEST(LaunchPlanCli, StageFlagGivesTheLibrarysNumbers) {
  const StageDesc& s = *find_stage_desc("multistage");
  auto spec = stage_launch_spec(s, {1024, 1024, 1024});
  ASSERT_TRUE(spec.ok());
  LaunchSpec o = *spec;
  o.l2.buckets = 50;
  auto plan = plan_launch(o, *device_preset("h200"));
  ASSERT_TRUE(plan.ok());
  auto lib = replay_launch_l2(*plan);
  ASSERT_TRUE(lib.ok());
  // Every byte of C (1024^2 f32, 4 MiB) reaches DRAM once: written back or still dirty at the end.
  EXPECT_EQ(lib->dram_bytes_written_total(), 1024ull * 1024 * 4);

  auto r = test::run_gemmlab({"sim", "l2", "--stage", "multistage", "--device", "h200", "--problem", "1024,1024,1024",
                              "--heat", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["hit_rate"].get<double>(), lib->hit_rate);
  EXPECT_EQ(j["dram_bytes_read"].get<long long>(), static_cast<long long>(lib->dram_bytes_read));
  EXPECT_EQ(j["blocks_per_sm"], 1);
  EXPECT_EQ(j["c_layout"], "col");
  EXPECT_EQ(j["global_load"], "cp.async");
  EXPECT_EQ(j["stage"]["regs"], 146);

  r = test::run_gemmlab({"sim", "schedule", "--stage", "double-buffer", "--device", "h100", "--problem", "4096,4096,4096"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto k = nlohmann::json::parse(r.out);
  EXPECT_EQ(k["occupancy"]["blocks_per_sm"], 2);
  EXPECT_EQ(k["waves"]["last_wave_blocks"], 232);
  EXPECT_EQ(k["stage"]["id"], "double-buffer");
}

TEST(LaunchPlanCli, StageFlagRefusesWhatTheStageFixes) {
  auto r = test::run_gemmlab({"sim", "l2", "--stage", "epilogue", "--problem", "256,256,256", "--tile", "64,64,32"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--tile describes the kernel"), std::string::npos) << r.err;
  r = test::run_gemmlab({"sim", "schedule", "--stage", "warp-specialised", "--problem", "256,256,256"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no stage 'warp-specialised'; stages: naive-uncoalesced"), std::string::npos) << r.err;
  r = test::run_gemmlab({"sim", "l2", "--stage", "naive", "--problem", "256,256,256"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("has no threadblock tile"), std::string::npos) << r.err;
  r = test::run_gemmlab({"sim", "l2", "--stage", "split-k", "--problem", "256,256,256", "--split-k", "4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("the stage's own partition"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// The bench's own ncu captures of every kernel (assets/results/*-ncu.csv, H200 and H100): each
// launch of a ladder kernel has the registers, shared memory and block size its stage declares.
TEST(StageTable, MatchesTheBenchsNcuCaptures) {
  std::map<std::string, int> earlier_builds;
  for (const char* file : {"assets/results/nvidia-h200-ncu.csv", "assets/results/nvidia-h100-80gb-hbm3-ncu.csv"}) {
    SCOPED_TRACE(file);
    std::set<std::string> seen;
    for (const test::NcuLaunch& l : test::read_ncu_csv_launches(file)) {
      const StageDesc* registered = stage_of_kernel(l.kernel);
      if (!registered) continue;  // cuBLAS, the split-k reduction
      SCOPED_TRACE(l.kernel.substr(0, 80));
      seen.insert(registered->id);
      // An earlier build of the stage (none in these two files since 2026-11-27; a capture of stage
      // 12's or stage 16's 128 x 256 build would be) is checked as that kernel was built, registers
      // excepted (known for the current build only).
      const MeasuredStage built = stage_as_measured(*registered, l.kernel);
      const StageDesc* s = &built.desc;
      if (!built.current) {
        EXPECT_TRUE(s->id == std::string("epilogue") || s->id == std::string("wgmma")) << s->id;
        ++earlier_builds[file];
      }
      auto metric = [&](const char* name) {
        const auto it = l.metrics.find(name);
        EXPECT_NE(it, l.metrics.end()) << name;
        return it == l.metrics.end() ? -1.0 : it->second;
      };
      EXPECT_EQ(l.metrics.count("launch__shared_mem_per_block_dynamic"), 0u) << "compare the dynamic part too";
      if (built.current) {
        EXPECT_EQ(metric("launch__registers_per_thread"), s->regs);
      }
      // These captures list static shared memory only: the fp16 stages' dynamic buffers are in the
      // L2 captures (MatchesWhatNcuMeasuredOfTheKernels).
      const double static_smem = metric("launch__shared_mem_per_block_static");
      if (static_smem > 0) {
        EXPECT_EQ(static_smem, s->smem);
      }
      EXPECT_EQ(l.block, s->kernel == std::string("naive_kernel<0>") || s->kernel == std::string("naive_kernel<1>")
                             ? "(32, 8, 1)"
                             : s->threads == 1024 ? "(32, 32, 1)" : "(" + std::to_string(s->threads) + ", 1, 1)");
    }
    EXPECT_GE(seen.size(), 10u);  // every fp32 stage, multistage and epilogue
  }
  // Both were taken again with stage 16's 128 x 128 build (2026-11-27 11:0xZ).
  EXPECT_EQ(earlier_builds["assets/results/nvidia-h100-80gb-hbm3-ncu.csv"], 0);
  EXPECT_EQ(earlier_builds["assets/results/nvidia-h200-ncu.csv"], 0);
}

}  // namespace
