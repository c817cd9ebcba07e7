// The registry as the simulator reads it (no CUDA): the track table, the reference rows and the
// stage rows (gemmlab/stages.def expanded), each stage with its simulator behaviour as typed
// fields (shared-memory mix, cluster multicast, schedule, partition). The kernels' registry
// (kernels/registry.h) adds only the launch functions. Nothing outside the registry, a stage's
// own folder and the tests compares a stage or reference id (sim_test_registry_ids checks).
#pragma once
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/auto_dispatch.h"
#include "gemmlab/conv_problem.h"
#include "gemmlab/fp16_shapes.h"
#include "gemmlab/fp8_shapes.h"
#include "gemmlab/hopper_shapes.h"
#include "gemmlab/l2_model.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/simt_warp_tile.h"
#include "gemmlab/sliced_k_tile.h"

namespace gemmlab {

// The operand tracks (kTrackTable below says what each one is): fp32 and fp16, the Ampere-style
// ladders (any sm_80+ GPU); hopper: TMA and wgmma on the fp16 problem (sm_90a); conv_*: implicit-GEMM
// convolutions (gemmlab/conv_problem.h) of fp16, int8 or int4 tensors; conv_hopper: the fp16
// convolution with TMA and wgmma (sm_90a); conv_fused: the same with the epilogue a network runs
// (bias, residual, ReLU, fp16 output; kernels/stage_api.h ConvArgs); fp8 and fp8_block: e4m3 GEMMs
// with bf16 output, per-tensor or block scales (sm_90a).
enum class StageTrack { fp32, fp16, hopper, conv_fp16, conv_int8, conv_int4, conv_hopper, conv_fused, fp8, fp8_block };
// How two co-resident blocks of one SM progress (l2_progress.h, kernels/lab/L2_VALIDATION.md).
enum class Coresidency { OlderFirst, Even };
// The instruction that does a stage's multiply-adds: FP32 FFMA, mma.sync (f16 in f32 out, s8, s4)
// or Hopper's wgmma (f16 in f32 out; e4m3 in f32 out, twice the f16 rate).
enum class MathOp { Ffma, MmaSyncF16, MmaSyncS8, MmaSyncS4, WgmmaF16, WgmmaE4m3 };
// Which shared-memory instructions a stage's kernel issues, as the simulator rebuilds them
// (gemmlab/kernel_smem_mix.h builds each from the kernel's own addressing headers):
//   None                no shared memory (the naive stages);
//   SlicedK             32 x 32 threads, one k slice of A and B per step (stage 3);
//   SimtSingleBuffer    the 128 x 128 x 8 SIMT block, one buffer, scalar stores (stage 5);
//   SimtDoubleBuffer    the same block, two buffers, 128-bit stores (stages 6, 11, 13a);
//   SimtDoubleBufferStreamK  the same, plus stream-k's fix-up state, not modelled (stage 13b);
//   MmaSyncLds32, MmaSyncLdmatrix, MmaSyncLdmatrixSwizzled  the register-staged fp16 block with
//                       LDS.32 fragments, ldmatrix, ldmatrix on a swizzled tile (stages 7, 8, 9);
//   Multistage          cp.async buffers, ldmatrix (stage 10 and the Ampere-style convolutions);
//   StagedEpilogue      Multistage + the staged C epilogue (stage 12);
//   StagedEpilogueTma   the same with TMA copies: no LSU instruction for A and B (stage 15);
//   NoLsu               wgmma reads the TMA's boxes, C from registers: none at all (stages 16-18);
//   PersistentEpilogue  C staged for the TMA store (stage 19);
//   Unmodelled          not rebuilt yet (the simulator says so).
enum class SmemMix {
  None, SlicedK, SimtSingleBuffer, SimtDoubleBuffer, SimtDoubleBufferStreamK, MmaSyncLds32,
  MmaSyncLdmatrix, MmaSyncLdmatrixSwizzled, Multistage, StagedEpilogue, StagedEpilogueTma, NoLsu,
  PersistentEpilogue, Unmodelled
};
// Who decides which tile a block computes: the grid (one block per tile, launched in `raster`
// order) or the kernel's persistent tile scheduler (gemmlab/persistent_schedule.h); Dispatch: the
// stage runs, per problem, the launch of another stage that gemmlab/auto_dispatch.h's rule picks
// (stage_of_auto_launch below), whose facts its launch then has.
enum class BlockSchedule { Grid, Persistent, Dispatch };

// ---- The track table: one row per operand track ------------------------------------------------
struct TrackDesc {
  StageTrack track;
  const char* name;           // results JSON, `bench --list`: "fp16", "conv-int8"
  StageTrack operands;        // the problem its stages solve: hopper solves the fp16 one
  int required_sm;            // 0: any GPU the build targets; 90: exactly sm_90 (sm_90a code)
  bool conv;                  // an implicit-GEMM convolution (gemmlab/conv_problem.h)
  conv::Element element;      // the tensors' element type (conv tracks; F16 elsewhere)
  int element_bytes;          // A and B (a conv stage's GEMM counted in 16-bit units)
  MatrixOrder a_order;        // fp32: A column-major (BLAS "NN"); fp16: row-major ("TN")
  const char* reference;      // the reference row a stage's time ratio divides by
  const char* peer;           // a second reference timed beside it, or nullptr
  const char* rate_unit;      // "TFLOP/s", or "TOP/s" for the integer tracks
  double tolerance;           // relative Frobenius error allowed against the reference; fp8: per
                              // element (kernels/fp8_runner.cu), |d - r| <= tolerance |r| + ceil(K/32) 2^-13 S
  // Added after the first tracks (their rows keep the defaults):
  int c_element_bytes = 4;    // C / D: f32 on the GEMM tracks, bf16 on the fp8 ones
  MatrixOrder c_order = MatrixOrder::ColumnMajor;  // fp8: D row-major (ldd = N)
  // true: a stage is checked against its reference row's output (a stage cannot be checked where
  // that reference refuses the size); false: against an exact host / GPU reference of its own
  // (fp8: double sums of the dequantized operands), the reference row only timed beside it.
  bool checked_by_reference = true;
};

// C is f32 and column-major on the fp32 / fp16 / hopper tracks (a conv stage's C is NPQK, row-major in
// its GEMM); the fp8 tracks write D in bf16, row-major.
inline constexpr TrackDesc kTrackTable[] = {
    {StageTrack::fp32, "fp32", StageTrack::fp32, 0, false, conv::Element::F16, 4, MatrixOrder::ColumnMajor,
     "cublas-fp32", nullptr, "TFLOP/s", 1e-5},
    {StageTrack::fp16, "fp16", StageTrack::fp16, 0, false, conv::Element::F16, 2, MatrixOrder::RowMajor,
     "cublas-fp16", nullptr, "TFLOP/s", 2e-3},
    {StageTrack::hopper, "hopper", StageTrack::fp16, 90, false, conv::Element::F16, 2, MatrixOrder::RowMajor,
     "cublas-fp16", nullptr, "TFLOP/s", 2e-3},
    {StageTrack::conv_fp16, "conv-fp16", StageTrack::conv_fp16, 0, true, conv::Element::F16, 2,
     MatrixOrder::RowMajor, "im2col-cublas", "cudnn", "TFLOP/s", 2e-3},
    {StageTrack::conv_int8, "conv-int8", StageTrack::conv_int8, 0, true, conv::Element::S8, 2,
     MatrixOrder::RowMajor, "im2col-cublas", "cudnn", "TOP/s", 1e-5},
    {StageTrack::conv_int4, "conv-int4", StageTrack::conv_int4, 0, true, conv::Element::S4, 2,
     MatrixOrder::RowMajor, "im2col-cublas", "cudnn", "TOP/s", 1e-5},
    {StageTrack::conv_hopper, "conv-hopper", StageTrack::conv_fp16, 90, true, conv::Element::F16, 2,
     MatrixOrder::RowMajor, "im2col-cublas", "cudnn", "TFLOP/s", 2e-3},
    // fp16 output: the fp32 conv's 2e-3 plus fp16's rounding of every output, at most 2^-11 of it
    // (round to nearest, 11 significant bits; the bias and residual are added in fp32 before the
    // one rounding, ReLU's zeros are exact), so at most 2^-11 of the output's Frobenius norm.
    {StageTrack::conv_fused, "conv-fused", StageTrack::conv_fp16, 90, true, conv::Element::F16, 2,
     MatrixOrder::RowMajor, "im2col-cublas", "cudnn-fused", "TFLOP/s", 2e-3 + 1.0 / 2048, 2, MatrixOrder::RowMajor},
    // A e4m3 row-major M x K, B e4m3 N x K (K contiguous, a_order / b_order's column-major K x N),
    // D bf16 row-major: cuBLASLt's FP8 "TN". Tolerance 2^-7: bf16's 8 bits, one of margin.
    {StageTrack::fp8, "fp8", StageTrack::fp8, 90, false, conv::Element::F16, 1, MatrixOrder::RowMajor,
     "cublaslt-fp8", nullptr, "TFLOP/s", 0.0078125, 2, MatrixOrder::RowMajor, false},
    {StageTrack::fp8_block, "fp8-block", StageTrack::fp8_block, 90, false, conv::Element::F16, 1,
     MatrixOrder::RowMajor, "cublaslt-fp8-block", nullptr, "TFLOP/s", 0.0078125, 2, MatrixOrder::RowMajor, false},
};

constexpr const TrackDesc& track_desc(StageTrack t) {
  for (const TrackDesc& d : kTrackTable)
    if (d.track == t) return d;
  return kTrackTable[0];  // unreachable: every track has its row (static_assert below)
}
constexpr bool every_track_has_one_row() {
  for (int t = 0; t <= int(StageTrack::fp8_block); ++t) {
    int rows = 0;
    for (const TrackDesc& d : kTrackTable) rows += int(d.track) == t;
    if (rows != 1) return false;
  }
  return std::size(kTrackTable) == size_t(StageTrack::fp8_block) + 1;
}
static_assert(every_track_has_one_row());

// nullptr when no track has this name.
constexpr const TrackDesc* find_track(std::string_view name) {
  for (const TrackDesc& d : kTrackTable)
    if (name == d.name) return &d;
  return nullptr;
}
constexpr const char* track_name(StageTrack t) { return track_desc(t).name; }
constexpr bool is_conv(StageTrack t) { return track_desc(t).conv; }
// The e4m3 GEMMs with bf16 D (kernels/fp8_runner.cu runs them, not the fp32 / fp16 runner).
constexpr bool is_fp8(StageTrack t) { return t == StageTrack::fp8 || t == StageTrack::fp8_block; }
// The operands a track's stages read: the hopper track solves the fp16 track's problem.
constexpr StageTrack operand_track(StageTrack t) { return track_desc(t).operands; }
// The GPU a track's kernels need: 0 = any the build targets, 90 = exactly sm_90 (Hopper, sm_90a code).
constexpr int required_sm(StageTrack t) { return track_desc(t).required_sm; }
constexpr conv::Element conv_element(StageTrack t) { return track_desc(t).element; }
// The Ampere-style convolution track of an element type.
constexpr StageTrack conv_track(conv::Element e) {
  for (const TrackDesc& d : kTrackTable)
    if (d.conv && d.required_sm == 0 && d.element == e) return d.track;
  return StageTrack::conv_fp16;
}

// ---- The reference rows: what a stage is checked and timed against -----------------------------
// How the runner computes it (kernels/runner.cu, conv_runner.cu, conv_cudnn.cu).
enum class ReferenceKind {
  CublasSgemm,    // cublasSgemm(N, N), CUBLAS_DEFAULT_MATH (no TF32)
  CublasGemmEx,   // cublasGemmEx(T, N), fp16 in, fp32 compute and out
  Im2colCublas,   // the explicit im2col kernel + cublasGemmEx (int8 / int4 widened to fp16 exactly)
  Cudnn,          // cuDNN's graph API, when the build found cuDNN
  CudnnFused,       // the same graph with bias, residual and ReLU after the conv, fp16 out (track conv-fused)
  CublasLtFp8,      // cublasLtMatmul e4m3 x e4m3 -> bf16, per-tensor scales, FAST_ACCUM (fp8_runner.cu)
  CublasLtFp8Block  // the same with A / B scale modes VEC128_32F / BLK128x128_32F
};
struct ReferenceDesc {
  const char* id;       // results JSON's "stage" of its rows
  const char* name;     // "cuBLAS fp16 (GemmEx)"
  const char* tag;      // short, for a chart label: "cuBLAS f16"
  ReferenceKind kind;
  StageTrack track;     // the operands of a GEMM reference; a conv reference serves every conv track
  MathOp math;          // the instruction it runs on a GPU with wgmma (roofline); mma.sync without
};
inline constexpr ReferenceDesc kReferenceTable[] = {
    {"cublas-fp32", "cuBLAS fp32 (Sgemm)", "cuBLAS f32", ReferenceKind::CublasSgemm, StageTrack::fp32, MathOp::Ffma},
    {"cublas-fp16", "cuBLAS fp16 (GemmEx)", "cuBLAS f16", ReferenceKind::CublasGemmEx, StageTrack::fp16,
     MathOp::WgmmaF16},
    {"im2col-cublas", "im2col + cuBLAS", "im2col + cuBLAS", ReferenceKind::Im2colCublas, StageTrack::conv_fp16,
     MathOp::WgmmaF16},
    {"cudnn", "cuDNN (graph API)", "cuDNN", ReferenceKind::Cudnn, StageTrack::conv_fp16, MathOp::WgmmaF16},
    {"cudnn-fused", "cuDNN fused (bias, residual, ReLU)", "cuDNN fused", ReferenceKind::CudnnFused,
     StageTrack::conv_fused, MathOp::WgmmaF16},
    {"cublaslt-fp8", "cuBLASLt FP8 (per-tensor scales)", "cuBLASLt e4m3", ReferenceKind::CublasLtFp8,
     StageTrack::fp8, MathOp::WgmmaE4m3},
    {"cublaslt-fp8-block", "cuBLASLt FP8 (block scales)", "cuBLASLt e4m3 blk", ReferenceKind::CublasLtFp8Block,
     StageTrack::fp8_block, MathOp::WgmmaE4m3},
};
// nullptr when no reference has this id.
constexpr const ReferenceDesc* find_reference(std::string_view id) {
  for (const ReferenceDesc& r : kReferenceTable)
    if (id == r.id) return &r;
  return nullptr;
}
constexpr const ReferenceDesc& reference_of_kind(ReferenceKind k) {
  for (const ReferenceDesc& r : kReferenceTable)
    if (r.kind == k) return r;
  return kReferenceTable[0];
}
// The reference a track's ratios divide by (cuBLAS of its operands, or im2col + cuBLAS).
constexpr const ReferenceDesc& track_reference(StageTrack t) { return *find_reference(track_desc(t).reference); }
// The GEMM reference of an operand track (fp32 / fp16 / fp8 / fp8-block): the row of kind Cublas*
// with these operands.
constexpr bool is_gemm_reference(ReferenceKind k) {
  return k == ReferenceKind::CublasSgemm || k == ReferenceKind::CublasGemmEx || k == ReferenceKind::CublasLtFp8 ||
         k == ReferenceKind::CublasLtFp8Block;
}
constexpr const ReferenceDesc* gemm_reference(StageTrack operands) {
  for (const ReferenceDesc& r : kReferenceTable)
    if (is_gemm_reference(r.kind) && r.track == operands) return &r;
  return nullptr;
}
// Compares ids only: GCC under -fsanitize does not fold a pointer into a table against nullptr.
constexpr bool has_reference(std::string_view id) {
  for (const ReferenceDesc& r : kReferenceTable)
    if (id == r.id) return true;
  return false;
}
constexpr bool references_resolve() {
  for (const TrackDesc& d : kTrackTable)
    if (!has_reference(d.reference) || (d.peer && !has_reference(d.peer))) return false;
  return true;
}
static_assert(references_resolve(), "a track names a reference that has no row");

// ---- The stage rows -------------------------------------------------------------------------------
struct StageDesc {
  const char* id = "";          // "simt-tile"
  const char* short_name = "";  // "SIMT tile 128x128x8"; the label adds the number: `name`
  StageTrack track = StageTrack::fp32;
  const char* lesson = "";      // lesson folder, e.g. "05-register-tiling"
  const char* folder = "";      // under kernels/stages: "fp32/05_simt_tile"
  const char* kernel = "";      // ncu's kernel name up to what tells the stages apart
  int tile_m = 0, tile_n = 0, tile_k = 0, threads = 0;
  int regs = 0;                 // per thread
  int smem = 0;                 // bytes per block, static + dynamic
  GlobalLoad loads = GlobalLoad::Ldg;
  OrderKind raster = OrderKind::Launch;
  int raster_param = 1;
  Partition partition = Partition::None;
  SliceRule slice_rule = SliceRule::FillSlots;  // split-k only
  Coresidency coresident = Coresidency::Even;
  MathOp math = MathOp::Ffma;
  SmemMix smem_mix = SmemMix::Unmodelled;
  int cluster_m = 1;            // blocks per cluster along m sharing B by TMA multicast
  BlockSchedule schedule = BlockSchedule::Grid;
  // Derived by the table (with_labels below), never written in a row:
  char number[4] = {};          // "9", "13b": the lesson's number, a letter where it teaches several
  char name[48] = {};           // "9 smem swizzle": number + short name, shown everywhere

  bool has_tile() const { return tile_m > 0; }
  // The track's operands (kTrackTable); C f32, column-major, on every GEMM track.
  int element_bytes() const { return track_desc(track).element_bytes; }
  MatrixOrder a_order() const { return track_desc(track).a_order; }
  MatrixOrder b_order() const { return MatrixOrder::ColumnMajor; }
  MatrixOrder c_order() const { return track_desc(track).c_order; }
  int c_element_bytes() const { return track_desc(track).c_element_bytes; }
};

namespace stage_rows {
inline constexpr StageDesc kRows[] = {
#define GEMMLAB_STAGE(launch, ...) StageDesc{__VA_ARGS__},
#include "gemmlab/stages.def"
#undef GEMMLAB_STAGE
};

// "09-swizzle" -> 9 (0 when the lesson has no number).
constexpr int lesson_number(const char* lesson) {
  int n = 0;
  for (const char* p = lesson; *p >= '0' && *p <= '9'; ++p) n = n * 10 + (*p - '0');
  return n;
}
constexpr bool same_text(const char* a, const char* b) { return std::string_view(a) == std::string_view(b); }

// The letter a stage folder's name gives its number: "fp8/20a_fp8_tensor" -> 'a', "fp32/02_naive" -> 0.
constexpr char folder_letter(const char* folder) {
  const char* name = folder;
  for (const char* p = folder; *p; ++p)
    if (*p == '/') name = p + 1;
  while (*name >= '0' && *name <= '9') ++name;
  return *name >= 'a' && *name <= 'z' && name[1] == '_' ? *name : char(0);
}

// Every row with its number and name: the number is its lesson's, followed by a letter when the
// lesson teaches several stages ("13a", "13b", in row order), or when its folder names one: a
// lesson whose later stages have no row yet ("20a" before 20b's row is in).
template <size_t N>
constexpr std::array<StageDesc, N> with_labels(const StageDesc (&rows)[N]) {
  std::array<StageDesc, N> out{};
  for (size_t i = 0; i < N; ++i) {
    StageDesc s = rows[i];
    int same = 0, before = 0;
    for (size_t j = 0; j < N; ++j)
      if (same_text(rows[j].lesson, s.lesson)) {
        ++same;
        before += j < i;
      }
    size_t at = 0;
    auto put = [&](char c) {
      if (at + 1 < sizeof(s.name)) s.name[at++] = c;
    };
    const int n = lesson_number(s.lesson);
    if (n >= 10) put(char('0' + n / 10));
    put(char('0' + n % 10));
    if (same > 1) put(char('a' + before));
    else if (folder_letter(s.folder)) put(folder_letter(s.folder));
    for (size_t k = 0; k < at && k + 1 < sizeof(s.number); ++k) s.number[k] = s.name[k];
    put(' ');
    for (const char* p = s.short_name; *p; ++p) put(*p);
    out[i] = s;
  }
  return out;
}
}  // namespace stage_rows

inline constexpr std::array<StageDesc, std::size(stage_rows::kRows)> kStageTable =
    stage_rows::with_labels(stage_rows::kRows);

inline constexpr int stage_index(std::string_view id) {
  for (int i = 0; i < int(std::size(kStageTable)); ++i)
    if (id == kStageTable[i].id) return i;
  return -1;
}

inline std::span<const StageDesc> stage_table() { return kStageTable; }
// The numbers of a track's stages, in registry order: conv_int8 -> "14b"; several: "14a, 14b".
inline std::string stage_numbers_of(StageTrack track) {
  std::string out;
  for (const StageDesc& s : kStageTable)
    if (s.track == track && *s.number) out += (out.empty() ? "" : ", ") + std::string(s.number);
  return out;
}
// nullptr when no stage has this id.
inline const StageDesc* find_stage_desc(std::string_view id) {
  const int i = stage_index(id);
  return i < 0 ? nullptr : &kStageTable[static_cast<size_t>(i)];
}

// The stage whose launch the `auto` stage runs for a pick of gemmlab/auto_dispatch.h's rule.
inline const StageDesc& stage_of_auto_launch(AutoLaunch l) {
  const char* id = l == AutoLaunch::WarpSpecialized ? "warp-specialized"
                   : l == AutoLaunch::SplitK        ? "wgmma-split-k"
                   : l == AutoLaunch::SplitK128     ? "wgmma-split-k-128"
                   : l == AutoLaunch::Deep          ? "wgmma-deep"
                   : l == AutoLaunch::DeepRows      ? "wgmma-deep-128"
                                                    : "persistent";
  return kStageTable[static_cast<size_t>(stage_index(id))];
}
// The stage a Dispatch stage runs at this problem on `sms` SMs; any other stage itself.
inline const StageDesc& launched_stage(const StageDesc& s, GemmCoord problem, int sms) {
  if (s.schedule != BlockSchedule::Dispatch) return s;
  return stage_of_auto_launch(pick_auto_launch(problem.m, problem.n, problem.k, sms).launch);
}

// The stages of a track, in ladder order (what `gemmlab bench --track` and the Kernels view list
// under the track's reference).
inline std::vector<const StageDesc*> stages_of_track(StageTrack t) {
  std::vector<const StageDesc*> out;
  for (const StageDesc& s : kStageTable)
    if (s.track == t) out.push_back(&s);
  return out;
}

// The stage before `s` on its ladder: the one listed before it with the same operands (the hopper
// track continues the fp16 one: tma follows epilogue), or nullptr for a ladder's first stage
// (naive-uncoalesced, mma-sync) and for the convolutions, whose bench compares other references.
// `gemmlab bench` and the Kernels view time a stage in turns with it, so that "faster than the
// stage before" compares runs under the same clock, not two runs one after the other.
constexpr const StageDesc* ladder_previous(const StageDesc& s) {
  if (is_conv(s.track)) return nullptr;
  const StageDesc* before = nullptr;
  for (const StageDesc& x : kStageTable) {
    if (std::string_view(x.id) == s.id) return before;  // by id: the registry's StageInfo is a copy
    if (!is_conv(x.track) && operand_track(x.track) == operand_track(s.track)) before = &x;
  }
  return nullptr;  // `s` is not in the table
}

constexpr const char* load_name(GlobalLoad l) {
  return l == GlobalLoad::CpAsync ? "cp_async" : l == GlobalLoad::Tma ? "tma" : "ldg";
}
constexpr const char* coresidency_name(Coresidency c) { return c == Coresidency::Even ? "even" : "older-first"; }

// The stage whose kernel an Nsight Compute kernel name shows ("void unnamed>::block_swizzle_kernel<4>(int, ...)",
// "void sync_tile_kernel<SyncTileShape<32>, 1, 1, 1>(...)"), or nullptr (cuBLAS, a reduction kernel).
const StageDesc* stage_of_kernel(std::string_view ncu_kernel_name);

// A stage as the kernel of a measurement was built. A kernel whose name carries its shape
// ("staged_epilogue_kernel<MultistageShape<128, 256, 32, 4, 64, 64>, 1>") may be an earlier build
// of the stage than the registered one: stage 12 had that 128 x 256 tile until 2026-11-26, stage 16
// a WgmmaShape<128, 256, 4, 0> until 2026-11-27 (the per-stage ncu captures of 2026-11-26 were of
// it). Models of such a capture describe that kernel: the tile, threads and
// shared memory from its name; `current` says whether they are the registered ones (registers,
// which a name does not carry, are known only for the current build).
struct MeasuredStage {
  StageDesc desc;
  bool current = true;
};
MeasuredStage stage_as_measured(const StageDesc& s, std::string_view ncu_kernel_name);

}  // namespace gemmlab
