// Stage 12 - + block swizzle and an epilogue through shared memory (lesson 12-epilogue; the
// block swizzle is lesson 11's). The fastest FP16 stage: stage 11's cp.async multistage loop on
// a larger tile, plus what the hand-written mma_base HGEMM and CUTLASS 2.x add around it:
//
//   - Block tile 256x128x32, 8 warps of 64x64 (4 x 2): each warp's k16 step is 32 mma from 4 A
//     and 4 B ldmatrix.x4, 4 mma per ldmatrix where stage 11's 64x32 warps get 2.67. 4 stages of
//     24 KB (96 KB dynamic shared memory), one block per SM.
//   - The loop in CUTLASS 2.x's order (MultistageShape's kBarrierAfterMma): a tile's cp.async
//     wait and block barrier follow the mma of its first k16 step, so that the next tile's
//     ldmatrix run under the mma of its second.
//   - mma order serpentine (the hand-written mma_base HGEMM): odd m rows walk the n tiles backwards, so the B fragment
//     of a row's last mma is the next row's first (register reuse).
//   - Block swizzle, the hand-written mma_base HGEMM's serpentine across gridDim.z (gemmlab/raster.h,
//     serpentine_swizzle): grid (S, m tiles, n tiles / S) with S = min(8, n tiles); in launch
//     order, blocks walk S n tiles along an m row, then the next row, and odd z slabs walk the
//     rows upwards, so blocks that run together share the A rows and B columns in L2.
//   - Epilogue through shared memory (seeds 001 and 004): a warp's accumulators sit in registers
//     as 16x8 tiles whose lanes hold 2 neighbouring columns of 8 rows, which C (column-major)
//     stores as 32-byte pieces of 4 columns. Each warp instead writes 16 columns of its tile to
//     its own shared buffer (64 rows + 4 floats of padding per column: conflict-free 32-bit
//     writes), reads 4 consecutive rows per lane back and stores them with one 128-bit
//     st.global (SASS STG.E.128): 2 columns x 256 contiguous bytes per instruction.
// The kernel: 12_epilogue.cuh (StagedEpilogue, staged_epilogue_kernel).
//
// Any M, N (predicated). K % 8 == 0 (16-byte aligned rows) for cp.async, otherwise the slow
// synchronous fallback of stage 11; M % 4 == 0 for the 128-bit C stores, otherwise 32-bit ones.
// Expected (H100, timed in turns with cuBLAS and CUTLASS 2.x's sm80 kernels): 60-65 % of cuBLAS
// at 4096^3, 56-62 % at 8192^3, level with CUTLASS's own sm80 kernels in the same rounds (H200:
// 59-64 % and 58-58.5 %, within 1.2 points of them); 240 registers. The issue's 70 % is not reached: FP16_NOTES.md says why.
// Measured numbers and how they were taken: kernels/stages/fp16/FP16_NOTES.md.
//
// Run: gemmlab bench --stages multistage,epilogue --sizes 4096,8192 --check
#include "12_epilogue.cuh"

namespace gemmlab::kernels {
namespace {

// 256x128x32, 4 stages (96 KB shared), 256 threads, serpentine slab width 8 (fp16_shapes.h).
using Shape = fp16::EpilogueStage::Shape;
constexpr int kMaxStride = fp16::EpilogueStage::kMaxStride;

const char* check_epilogue(int m, int n, int k) {
  return fp16::check_serpentine<Shape>(m, n, k, kMaxStride);
}
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_epilogue(const GemmArgs& args) {
  return fp16::launch_staged_epilogue<Shape>(args, kMaxStride);
}

}  // namespace

StageLaunch launch_epilogue() { return {check_epilogue, no_workspace, run_epilogue}; }

}  // namespace gemmlab::kernels
