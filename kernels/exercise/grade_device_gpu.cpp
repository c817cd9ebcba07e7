// An exercise graded on the GPU (grade_device.h): the stage's kernel is compiled by NVRTC with the
// learner's function in it (the harness in kernels/exercise/<grader>_harness.cuh, the kernel
// sources shipped in kernels/ and sim/device/), checked against cuBLAS by the runner like any stage
// (a convolution stage's: against im2col + cuBLAS, the runner's conv path), then timed in turns
// with the stage's own kernel. The learner's function has passed the host
// grade first (exercise_cli.cpp, the exercise panel), each harness calls it only with inputs that
// grade covered, and each harness keeps what the learner's function returns inside the tile or the
// tensor (offsets, elements, box coordinates): on the GPU it ends and writes nothing it should not.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "device_words.h"  // the verdicts' sentences, English and the catalogue's templates
#include "exercise_nvrtc.h"  // compile_harness: the harness built with the learner's file
#include "gemmlab/conv_problem.h"
#include "gemmlab/fp16_shapes.h"  // multistage_smem_bytes: stage 14a's shared memory
#include "grade_device.h"
#include "grade_fp8_quantize_gpu.h"  // the harness with a kernel of its own
#include "gemmlab/hopper_shapes.h"  // TmaStage, WarpSpecializedStage: stages 15 and 17's tiles and shared memory
#include "gemmlab/raster.h"         // serpentine_swizzle: the Hopper stages' grid
#include "runner.h"
#include "stages/fp16/fp16_problem.cuh"  // rows_16_byte_aligned: stage 9's choice of loads
#include "stages/fp32/fp32_args.h"       // ab_vector_ok, c_vector_ok: stage 11's
#include "stages/hopper/hopper_host.h"   // encode_operand_map: stage 15's tensor maps

namespace gemmlab::exercise {
namespace {
using kernels::GemmArgs;

// What the GPU grade of one grader kind builds and runs: the harness that wraps the learner's
// function, its two kernels (the fast loads, and the fallback the stage takes otherwise), how they
// launch, the problems checked against cuBLAS and the one timed in turns with the stage.
struct DeviceHarness {
  const char* grader;
  const char* harness;  // under kernels/
  const char* fast_kernel;
  const char* other_kernel;  // nullptr: the harness has one kernel
  cudaError_t (*launch)(const CompiledKernels&, const GemmArgs&);
  std::vector<kernels::Problem> checks;
  kernels::Problem timed;
  // A convolution stage's harness sets these instead of launch, checks and timed: launched as the
  // stage's launch_conv, checked and timed by the runner's conv path (ConvTarget).
  cudaError_t (*launch_conv)(const CompiledKernels&, const kernels::ConvArgs&) = nullptr;
  std::vector<conv::Shape> conv_checks = {};
  conv::Shape conv_timed = {};
  // Where the harness bounds its waits (a wrong plan could otherwise deadlock on the GPU): what
  // they recorded, read after the checks and the timing, in the learner's words; empty when none
  // gave up.
  Words (*stuck_waits)(const CompiledKernels&) = nullptr;
  // A harness with a kernel of its own instead of a stage's (fp8-quantize: the learner's quantizer
  // over an activation), built, checked and timed by this function; the fields above stay unset.
  void (*own_grade)(kernels::Runner&, const Exercise&, const std::string& source, DeviceGrade&) = nullptr;
};

// The learner's kernel launched as the stage launches its own. Stage 9 (launch_sync_tile): grid
// (m tiles, n tiles) of 128 x 128, 256 threads, 16-byte loads where every row starts 16-byte
// aligned.
cudaError_t launch_sync_tile(const CompiledKernels& k, const GemmArgs& a) {
  const dim3 grid((a.m + 127) / 128, (a.n + 127) / 128);
  const void* A = a.A;
  const void* B = a.B;
  float* C = a.C;
  int m = a.m, n = a.n, kk = a.k;
  float alpha = a.alpha, beta = a.beta;
  void* params[] = {&A, &B, &C, &m, &n, &kk, &alpha, &beta};
  const bool fast = kernels::fp16::rows_16_byte_aligned(a.A, a.B, a.k);
  return cudaLaunchKernel(reinterpret_cast<const void*>(fast ? k.fast : k.other), grid, dim3(256), params, 0, a.stream);
}

// Stage 11 with the learner's order: one block per 128 x 128 tile on a 1-D grid, in launch order;
// 128-bit loads and float4 stores where the stage's launch would use them.
cudaError_t launch_block_order(const CompiledKernels& k, const GemmArgs& a) {
  int tiles_m = (a.m + 127) / 128, tiles_n = (a.n + 127) / 128;
  int m = a.m, n = a.n, kk = a.k;
  float alpha = a.alpha, beta = a.beta;
  const void* A = a.A;
  const void* B = a.B;
  float* C = a.C;
  bool vec_ok = kernels::simt::c_vector_ok(a);
  void* params[] = {&m, &n, &kk, &alpha, &A, &B, &beta, &C, &vec_ok, &tiles_m, &tiles_n};
  const bool fast = kernels::simt::ab_vector_ok(a);
  return cudaLaunchKernel(reinterpret_cast<const void*>(fast ? k.fast : k.other), dim3(tiles_m * tiles_n), dim3(256),
                          params, 0, a.stream);
}

// Stage 5 with the learner's thread map (launch as simt_tile.cu's): grid (m tiles, n tiles) of
// 128 x 128, 256 threads; float4 stores of C where the stage's launch would use them.
cudaError_t launch_simt_tile(const CompiledKernels& k, const GemmArgs& a) {
  const dim3 grid((a.m + 127) / 128, (a.n + 127) / 128);
  int m = a.m, n = a.n, kk = a.k;
  float alpha = a.alpha, beta = a.beta;
  const void* A = a.A;
  const void* B = a.B;
  float* C = a.C;
  bool vec_ok = kernels::simt::c_vector_ok(a);
  void* params[] = {&m, &n, &kk, &alpha, &A, &B, &beta, &C, &vec_ok};
  return cudaLaunchKernel(reinterpret_cast<const void*>(k.fast), grid, dim3(256), params, 0, a.stream);
}

// What stages 15 and 17 launch alike (hopper_launch.cuh): both operands' tensor maps
// (hopper_host.cu) as __grid_constant__ parameters, the kernel's dynamic shared memory allowed
// (per launch, as the stages' launches do), stage 12's serpentine grid of the stage's tiles.
struct HopperLaunch {
  CUtensorMap map_a, map_b;
  dim3 grid;
};

template <class Stage>
cudaError_t prepare_hopper_launch(const CompiledKernels& k, const GemmArgs& a, int smem_bytes, HopperLaunch& out) {
  using Shape = typename Stage::Shape;
  if (cudaError_t e = kernels::hopper::encode_operand_map(&out.map_a, a.A, a.m, a.k, Shape::kTileM); e != cudaSuccess)
    return e;
  if (cudaError_t e = kernels::hopper::encode_operand_map(&out.map_b, a.B, a.n, a.k, Shape::kTileN); e != cudaSuccess)
    return e;
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  if (cudaError_t e = cudaKernelSetAttributeForDevice(k.fast, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      smem_bytes, device);
      e != cudaSuccess)
    return e;
  const GemmCoord tiled{kernels::fp16::tiles_of(a.m, Shape::kTileM), kernels::fp16::tiles_of(a.n, Shape::kTileN), 1};
  const Dim3 g =
      serpentine_swizzle::get_grid_shape(tiled, serpentine_swizzle::launch_stride(tiled.n, Stage::kMaxStride));
  out.grid = dim3(g.x, g.y, g.z);
  return cudaSuccess;
}

// Stage 15 with the learner's box coordinates, launched as tma.cu launches its own.
cudaError_t launch_tma_box(const CompiledKernels& k, const GemmArgs& a) {
  using Stage = kernels::hopper::TmaStage;
  HopperLaunch h;
  if (cudaError_t e = prepare_hopper_launch<Stage>(k, a, static_cast<int>(Stage::kSmemBytes), h); e != cudaSuccess)
    return e;
  float* C = a.C;
  int m = a.m, n = a.n, kk = a.k;
  float alpha = a.alpha, beta = a.beta;
  bool vector_c = a.m % 4 == 0 && reinterpret_cast<std::uintptr_t>(a.C) % 16 == 0;
  void* params[] = {&h.map_a, &h.map_b, &C, &m, &n, &kk, &alpha, &beta, &vector_c};
  return cudaLaunchKernel(reinterpret_cast<const void*>(k.fast), h.grid, dim3(Stage::Shape::kThreads), params,
                          Stage::kSmemBytes, a.stream);
}

// Exercise 14's problem, the only one the learner's im2col_offset knows (grader_im2col.cpp's, which
// has 16 filters: A does not depend on them), with K = 64 output channels, the width of the tile
// stage 14a launches for it (conv::choose_tile: 128 x 64 wherever K <= 64): one block.
constexpr conv::Shape kIm2colShape{2, 7, 7, 8, 64, 3, 3, 1, 2, 1};
constexpr int kIm2colTile = 1;  // as in the harness's kernel name, im2col_conv_kernel<1>
static_assert(kIm2colShape.gemm_m() == 32 && kIm2colShape.gemm_k() == 72);
static_assert(conv::choose_tile(kIm2colShape, 1) == kIm2colTile && conv::choose_tile(kIm2colShape, 1024) == kIm2colTile);

bool same_shape(const conv::Shape& a, const conv::Shape& b) {
  return a.n == b.n && a.h == b.h && a.w == b.w && a.c == b.c && a.k == b.k && a.r == b.r && a.s == b.s &&
         a.pad == b.pad && a.stride == b.stride && a.dilation == b.dilation;
}

// Stage 14a with the learner's im2col, launched as its launch_tile<1> launches the stage's kernel:
// grid (m tiles, n tiles), the tile's 128 threads, 4 stages of A and B tiles in dynamic shared
// memory. Any other problem is refused: the learner's function would give it the wrong addresses.
cudaError_t launch_im2col(const CompiledKernels& k, const kernels::ConvArgs& a) {
  constexpr conv::TileShape tile = conv::kTiles[kIm2colTile];
  constexpr int smem = int(kernels::fp16::multistage_smem_bytes(tile.m, tile.n, conv::kTileKBytes / 2, conv::kStages));
  if (!same_shape(a.shape, kIm2colShape)) return cudaErrorInvalidValue;
  const auto* kernel = reinterpret_cast<const void*>(k.fast);
  if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      e != cudaSuccess)
    return e;
  const void* input = a.input;
  const void* filter = a.filter;
  float* output = a.output;
  conv::Shape shape = a.shape;
  float alpha = a.alpha, beta = a.beta;
  void* params[] = {&input, &filter, &output, &shape, &alpha, &beta};
  const dim3 grid(unsigned((shape.gemm_m() + tile.m - 1) / tile.m), unsigned((shape.k + tile.n - 1) / tile.n));
  return cudaLaunchKernel(kernel, grid, dim3(unsigned(tile.threads())), params, size_t(smem), a.stream);
}

// Stage 17 with the learner's phase plan, launched as warp_specialized.cu launches its own
// (boxes of 64 halves: A 128 rows, B 256; 384 threads).
cudaError_t launch_warp_specialized(const CompiledKernels& k, const GemmArgs& a) {
  using Stage = kernels::hopper::WarpSpecializedStage;
  HopperLaunch h;
  if (cudaError_t e = prepare_hopper_launch<Stage>(k, a, static_cast<int>(Stage::Shape::kSmemBytes), h);
      e != cudaSuccess)
    return e;
  float* C = a.C;
  int m = a.m, n = a.n, kk = a.k;
  float alpha = a.alpha, beta = a.beta;
  void* params[] = {&h.map_a, &h.map_b, &C, &m, &n, &kk, &alpha, &beta};
  return cudaLaunchKernel(reinterpret_cast<const void*>(k.fast), h.grid, dim3(Stage::Shape::kThreads), params,
                          Stage::Shape::kSmemBytes, a.stream);
}

// The waits of mbarrier_parity_harness.cuh that gave up after 100 ms, from its
// gemmlab_mbarrier_timeouts (device_words.h: mbarrier_deadlock reads them), with stage 17's own
// waits at that k-tile.
Words mbarrier_timeouts(const CompiledKernels& k) {
  void* timeouts = nullptr;
  size_t bytes = 0;
  unsigned long long w[2] = {};
  cudaError_t e = cudaLibraryGetGlobal(&timeouts, &bytes, k.library, "gemmlab_mbarrier_timeouts");
  if (e == cudaSuccess && bytes != sizeof w) e = cudaErrorInvalidSymbol;
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(w, timeouts, sizeof w, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) throw kernels::GpuError(std::string("the harness's waits could not be read: ") + cudaGetErrorString(e));
  return mbarrier_deadlock(w[0], w[1], kernels::hopper::WarpSpecializedStage::Shape::kStages);
}

constexpr const char* kMbarrierParityKernel =
    "&gemmlab::kernels::exercise_gpu::mbarrier_parity_kernel<gemmlab::kernels::hopper::WarpSpecializedStage::Shape>";

const std::vector<DeviceHarness>& harnesses() {
  static const std::vector<DeviceHarness> all = {
      // Any size: a problem of whole tiles on the 16-byte path and a ragged one on the scalar path.
      {"smem-offset", "exercise/smem_offset_harness.cuh",
       "&gemmlab::kernels::fp16::sync_tile_kernel<gemmlab::kernels::fp16::SmemSwizzleStage::Shape, "
       "gemmlab::kernels::fp16::FragmentLoad::Ldmatrix, true, true, gemmlab::kernels::exercise_gpu::LearnerLayout>",
       "&gemmlab::kernels::fp16::sync_tile_kernel<gemmlab::kernels::fp16::SmemSwizzleStage::Shape, "
       "gemmlab::kernels::fp16::FragmentLoad::Ldmatrix, true, false, gemmlab::kernels::exercise_gpu::LearnerLayout>",
       launch_sync_tile, {{1024, 1536, 704}, {1000, 1001, 333}}, {4096, 4096, 4096}},
      // The exercise's own grid (256 x 8 tiles), the only one its host grade ran block_tile for.
      {"block-order", "exercise/block_order_harness.cuh", "&gemmlab::kernels::exercise_gpu::block_order_kernel<4>",
       "&gemmlab::kernels::exercise_gpu::block_order_kernel<1>", launch_block_order, {{32768, 1024, 256}},
       {32768, 1024, 1024}},
      // Stage 5 has one kernel (scalar loads, any size): whole tiles, then M, N, K all ragged.
      {"coalesced-map", "exercise/coalesced_map_harness.cuh", "&gemmlab::kernels::exercise_gpu::coalesced_map_kernel",
       "&gemmlab::kernels::exercise_gpu::coalesced_map_kernel", launch_simt_tile,
       {{1024, 1536, 704}, {1000, 1001, 333}}, {4096, 4096, 4096}},
      // Inside the host grade's 512 x 512 x 512 (4 x 2 blocks, 8 k-tiles): the harness calls the
      // learner's function only there. The ragged one ends inside a block and inside a k-tile (K % 8 == 0: TMA).
      {"tma-box", "exercise/tma_box_harness.cuh", "&gemmlab::kernels::exercise_gpu::tma_box_kernel",
       "&gemmlab::kernels::exercise_gpu::tma_box_kernel", launch_tma_box, {{512, 512, 512}, {500, 300, 456}},
       {512, 512, 512}},
      // A convolution: the exercise's own problem, the only one its function knows, checked and timed.
      {"im2col", "exercise/im2col_harness.cuh", "&gemmlab::kernels::exercise_gpu::im2col_conv_kernel<1>", nullptr,
       nullptr, {}, {}, launch_im2col, {kIm2colShape}, kIm2colShape},
      // K at most 32 k-tiles of 64 (2048): the k-tiles the host grade ran the plan for. Whole tiles,
      // and M, N, K past whole 128 x 256 x 64 tiles (the TMA fills the rest of a box with zeros).
      {.grader = "mbarrier-parity",
       .harness = "exercise/mbarrier_parity_harness.cuh",
       .fast_kernel = kMbarrierParityKernel,
       .other_kernel = kMbarrierParityKernel,
       .launch = launch_warp_specialized,
       .checks = {{1024, 1024, 2048}, {1000, 1000, 1000}},
       .timed = {4096, 4096, 2048},
       .stuck_waits = mbarrier_timeouts},
      // The quantization that makes stage 20b's activations and scales: its own kernel on any GPU,
      // each block's codes and scale against the simulator's quantizer, timed against the lesson's
      // solution (grade_fp8_quantize_gpu.cpp).
      {.grader = "fp8-quantize", .harness = nullptr, .fast_kernel = nullptr, .other_kernel = nullptr,
       .launch = nullptr, .checks = {}, .timed = {}, .own_grade = grade_fp8_quantize_on_device},
  };
  return all;
}

const DeviceHarness* find_harness(const std::string& grader) {
  for (const DeviceHarness& h : harnesses())
    if (grader == h.grader) return &h;
  return nullptr;
}

WrongResult wrong_result(const kernels::CheckResult& c, const kernels::StageInfo& stage) {
  return {c.rejected, c.nonfinite, c.guard_hits, c.rel_err, kernels::tolerance(stage.track)};
}

// Empty when the learner's kernel computes C as cuBLAS does on every check problem, else what
// differs, in the learner's terms.
Words first_wrong_check(kernels::Runner& runner, const kernels::Target& yours, const DeviceHarness& h,
                        const kernels::StageInfo& stage) {
  for (const kernels::Problem& p : h.checks) {
    const kernels::CheckResult c = runner.check(yours, p);
    if (!c.ok) return wrong_c(stage.number, p.m, p.n, p.k, wrong_result(c, stage));
  }
  return {};
}

// The learner's kernel and the stage's own, timed in turns; the verdict of a correct kernel.
void time_against_stage(kernels::Runner& runner, const kernels::Target& yours, const DeviceHarness& h,
                        const kernels::StageInfo& stage, DeviceGrade& d) {
  kernels::TimeOptions opt;
  opt.reps = 10;
  opt.budget_s = 2.0;
  const std::vector<kernels::TimeResult> t = runner.time_interleaved({yours, kernels::Target::of(stage)}, h.timed, opt);
  const std::string where = runner.device().name;
  if (!t[0].rejected.empty() || !t[1].rejected.empty() || t[0].median_ms <= 0) {
    d.say(correct_not_timed(where, t[0].rejected.empty() ? t[1].rejected : t[0].rejected));
    return;
  }
  d.ratio_to_stage = t[1].median_ms / t[0].median_ms;
  d.say(timed_against_stage(where, h.timed.m, h.timed.n, h.timed.k, stage.number, d.ratio_to_stage, t[0].median_ms,
                            t[1].median_ms));
}

// A convolution stage's harness: the learner's kernel checked against im2col + cuBLAS on every
// check shape (the first wrong one named), then timed in turns with the stage's own kernel.
void grade_conv(kernels::Runner& runner, const CompiledKernels& k, const DeviceHarness& h,
                const kernels::StageInfo& stage, DeviceGrade& d) {
  kernels::ConvTarget yours = kernels::ConvTarget::of(stage);
  yours.launch_instead = [&k, &h](const kernels::ConvArgs& a) { return h.launch_conv(k, a); };
  yours.name_instead = std::string(stage.id) + " (yours)";
  for (const conv::Shape& s : h.conv_checks) {
    const kernels::CheckResult c = runner.check_conv(yours, s);
    if (c.ok) continue;
    d.say(wrong_conv_output(stage.number, s, wrong_result(c, stage)));
    return;
  }
  d.pass = true;
  kernels::TimeOptions opt;
  opt.reps = 20;  // a few microseconds each
  opt.budget_s = 2.0;
  const std::vector<kernels::TimeResult> t = runner.time_conv({yours, kernels::ConvTarget::of(stage)}, h.conv_timed, opt);
  const std::string where = runner.device().name;
  if (!t[0].rejected.empty() || !t[1].rejected.empty() || t[0].median_ms <= 0) {
    d.say(correct_conv_not_timed(where, t[0].rejected.empty() ? t[1].rejected : t[0].rejected));
    return;
  }
  d.ratio_to_stage = t[1].median_ms / t[0].median_ms;
  d.say(timed_conv_against_stage(where, h.conv_timed, stage.number, d.ratio_to_stage, t[0].median_ms, t[1].median_ms));
}

Words stuck_waits(const DeviceHarness& h, const CompiledKernels& k) {
  return h.stuck_waits ? h.stuck_waits(k) : Words{};
}

}  // namespace

// `ran` is true once the learner's code was built (or its build failed in the learner's file):
// a GPU, toolkit or memory problem is not the learner's failure, and says so with ran false.
// What the runtime and the runner say (gpu_unavailable_reason, CUDA's errors, NVRTC's log) is
// an argument of the verdict, in their words.
DeviceGrade grade_on_device(const Exercise& exercise, const std::string& source) {
  DeviceGrade d;
  const DeviceHarness* h = find_harness(exercise.grader);
  const kernels::StageInfo* stage = kernels::find_stage(exercise.stage);
  if (!h || !stage) {
    d.say(words("not graded on a GPU: this exercise's stage has no GPU harness yet, so the host grade stands alone"));
    return d;
  }
  if (std::string why = kernels::gpu_unavailable_reason(); !why.empty()) {
    d.say(words("not graded on a GPU: %s", why));
    return d;
  }
  try {
    kernels::Runner runner;
    if (h->own_grade) {
      h->own_grade(runner, exercise, source, d);
      return d;
    }
    const kernels::DeviceInfo& gpu = runner.device();
    const std::string sm = "sm_" + std::to_string(gpu.cc_major) + std::to_string(gpu.cc_minor);
    // The Hopper stages' TMA and wgmma code is sm_90a: it runs on an sm_90 GPU and no other.
    const bool hopper_code = required_sm(stage->track) == 90;
    if (hopper_code && (gpu.cc_major != 9 || gpu.cc_minor != 0)) {
      d.say(words("not graded on a GPU: stage %s needs an sm_90 GPU (Hopper: H100, H200, GH200) for its TMA and "
                  "wgmma code, and %s is %s",
                  stage->number, gpu.name, sm));
      return d;
    }
    CompiledKernels k;
    compile_harness(h->harness, h->fast_kernel, h->other_kernel, source, hopper_code ? std::string("sm_90a") : sm, k);
    if (!k.error.empty()) {
      d.ran = k.learners_error;
      if (k.learners_error)
        d.say(words("the GPU build of stage %s's kernel with your function failed:\n%s", stage->number, k.error));
      else d.say(words("not graded on a GPU: %s", k.error));
      return d;
    }
    d.ran = true;
    if (h->launch_conv) {
      grade_conv(runner, k, *h, *stage, d);
      return d;
    }
    kernels::Target yours = kernels::Target::of(*stage);
    yours.launch_instead = [&k, h](const GemmArgs& a) { return h->launch(k, a); };
    yours.name_instead = std::string(stage->id) + " (yours)";
    d.say(first_wrong_check(runner, yours, *h, *stage));
    if (Words stuck = stuck_waits(*h, k); !stuck.empty()) d.say(std::move(stuck));  // the cause of the wrong C
    if (!d.reason.empty()) return d;
    d.pass = true;
    time_against_stage(runner, yours, *h, *stage, d);
    if (Words stuck = stuck_waits(*h, k); !stuck.empty()) {
      d.pass = false;
      d.say(std::move(stuck));
    }
  } catch (const std::exception& e) {
    d.pass = false;
    if (d.ran) d.say(words("the GPU grade stopped: %s", e.what()));
    else d.say(words("not graded on a GPU: %s", e.what()));
  }
  return d;
}

}  // namespace gemmlab::exercise
