// The one description of each kernel stage (gemmlab/stages.def expanded), as the simulator needs
// it: tile, threads, registers, shared memory, global loads, block raster, partition, co-residency
// and the operands' layouts. The kernels' registry (kernels/registry.h) adds only the launch
// functions; the views, `gemmlab sim l2|schedule --stage` and the tests read this table.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "gemmlab/conv_problem.h"
#include "gemmlab/fp16_shapes.h"
#include "gemmlab/hopper_shapes.h"
#include "gemmlab/l2_model.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/simt_warp_tile.h"
#include "gemmlab/sliced_k_tile.h"

namespace gemmlab {

// fp32 and fp16: the Ampere-style ladders (any sm_80+ GPU); hopper: TMA and wgmma (sm_90a);
// conv_*: implicit-GEMM convolutions (gemmlab/conv_problem.h) of fp16, int8 or int4 tensors;
// conv_hopper: the fp16 convolution with TMA and wgmma (sm_90a).
enum class StageTrack { fp32, fp16, hopper, conv_fp16, conv_int8, conv_int4, conv_hopper };
constexpr bool is_conv(StageTrack t) {
  return t == StageTrack::conv_fp16 || t == StageTrack::conv_int8 || t == StageTrack::conv_int4 ||
         t == StageTrack::conv_hopper;
}
constexpr StageTrack conv_track(conv::Element e) {
  return e == conv::Element::S8 ? StageTrack::conv_int8 : e == conv::Element::S4 ? StageTrack::conv_int4 : StageTrack::conv_fp16;
}
constexpr conv::Element conv_element(StageTrack t) {
  return t == StageTrack::conv_int8 ? conv::Element::S8 : t == StageTrack::conv_int4 ? conv::Element::S4 : conv::Element::F16;
}
// How two co-resident blocks of one SM progress (l2_progress.h, sim/L2_VALIDATION.md).
enum class Coresidency { OlderFirst, Even };
// The instruction that does a stage's multiply-adds: FP32 FFMA, mma.sync (f16 in f32 out, s8, s4)
// or Hopper's wgmma (f16 in f32 out).
enum class MathOp { Ffma, MmaSyncF16, MmaSyncS8, MmaSyncS4, WgmmaF16 };

struct StageDesc {
  const char* id;      // "simt-tile"
  const char* name;    // "3 SIMT 128x128x8"
  StageTrack track;
  const char* lesson;  // lesson folder, e.g. "05-register-tiling"
  const char* kernel;  // ncu's kernel name up to what tells the stages apart
  int tile_m, tile_n, tile_k, threads;
  int regs;            // per thread
  int smem;            // bytes per block, static + dynamic
  GlobalLoad loads;
  OrderKind raster;
  int raster_param;
  Partition partition;
  Coresidency coresident;
  MathOp math;

  bool has_tile() const { return tile_m > 0; }
  // The track's operands: fp32 A column-major f32 (NN), fp16 A row-major f16 (TN); B column-major;
  // C f32, column-major, on both tracks. (A conv stage's GEMM: A the gathered activations, row-major,
  // of 2, 1 or 1/2 bytes: counted in 16-bit units, its C row-major: gemmlab/conv_problem.h.)
  int element_bytes() const { return track == StageTrack::fp32 ? 4 : 2; }
  MatrixOrder a_order() const { return track == StageTrack::fp32 ? MatrixOrder::ColumnMajor : MatrixOrder::RowMajor; }
  MatrixOrder b_order() const { return MatrixOrder::ColumnMajor; }
  MatrixOrder c_order() const { return MatrixOrder::ColumnMajor; }
  int c_element_bytes() const { return 4; }
};

inline constexpr StageDesc kStageTable[] = {
#define GEMMLAB_STAGE(id, name, track, lesson, kernel, tm, tn, tk, threads, regs, smem, loads, raster, \
                      raster_param, partition, coresident, math, launch)                                     \
  {id,          name,           StageTrack::track,    lesson,           kernel,                        \
   tm,          tn,             tk,                   threads,          regs,                          \
   int(smem),   GlobalLoad::loads, OrderKind::raster, raster_param,     Partition::partition,          \
   Coresidency::coresident, MathOp::math},
#include "gemmlab/stages.def"
#undef GEMMLAB_STAGE
};

inline constexpr int stage_index(std::string_view id) {
  for (int i = 0; i < int(std::size(kStageTable)); ++i)
    if (id == kStageTable[i].id) return i;
  return -1;
}

inline std::span<const StageDesc> stage_table() { return kStageTable; }
// nullptr when no stage has this id.
inline const StageDesc* find_stage_desc(std::string_view id) {
  const int i = stage_index(id);
  return i < 0 ? nullptr : &kStageTable[i];
}

// Header-only so that the kernels' registry (no sim library) can print them.
constexpr const char* track_name(StageTrack t) {  // results JSON
  switch (t) {
    case StageTrack::fp32: return "fp32";
    case StageTrack::fp16: return "fp16";
    case StageTrack::hopper: return "hopper";
    case StageTrack::conv_fp16: return "conv-fp16";
    case StageTrack::conv_int8: return "conv-int8";
    case StageTrack::conv_int4: return "conv-int4";
    case StageTrack::conv_hopper: return "conv-hopper";
  }
  return "?";
}
// The operands a track's stages read: the hopper track solves the fp16 track's problem.
constexpr StageTrack operand_track(StageTrack t) { return t == StageTrack::hopper ? StageTrack::fp16 : t; }
// The GPU a track's kernels need: 0 = any the build targets, 90 = exactly sm_90 (Hopper, sm_90a code).
constexpr int required_sm(StageTrack t) { return t == StageTrack::hopper || t == StageTrack::conv_hopper ? 90 : 0; }

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
// of the stage than the registered one: stage 12 had that 128 x 256 tile until 2026-11-26, stage 14
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
