// Which C tile (and which k range) each thread block works on: the rasterization orders the
// lessons compare, as constexpr GL_HD functions the kernels call on blockIdx and the simulator
// calls on every block of a grid. No STL, no exceptions: validation lives in raster_analysis.h.
//
// Coordinates are in tiles: m tile = row band of C (TM rows), n tile = column band (TN columns).
// Launch (linear) order is blockIdx.x fastest, then y, then z (hardware_rules.md, "Block dispatch").
//
// Orders:
//   - CUTLASS 2.x GemmIdentityThreadblockSwizzle<N> (gemm/threadblock/threadblock_swizzle.h),
//     its four functions under CUTLASS's names in namespace identity_swizzle.
//   - Seed 004 ("mma_base") serpentine swizzle across gridDim.z.
//   - CUTLASS 3.x SM90 persistent tile scheduler raster (AlongM / AlongN with log swizzle,
//     gemm/kernel/sm90_tile_scheduler.hpp get_work_idx_m_and_n, cluster 1x1).
//   - Split-k slices (serial and parallel reduction), as CUTLASS 2.x kernel::Gemm and
//     kernel::GemmSplitKParallel cut K.
#pragma once
#include "gemmlab/hd.h"

namespace gemmlab {

// GemmCoord (m, n, k): a problem size, a tile size, or a tile position (k = split-k slice).
struct GemmCoord {
  int m = 0;
  int n = 0;
  int k = 0;
  GL_HD constexpr bool operator==(const GemmCoord& o) const {
    return m == o.m && n == o.n && k == o.k;
  }
};

// dim3 without CUDA: a grid shape or a blockIdx.
struct Dim3 {
  int x = 1;
  int y = 1;
  int z = 1;
  GL_HD constexpr bool operator==(const Dim3& o) const { return x == o.x && y == o.y && z == o.z; }
};

GL_HD constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
GL_HD constexpr int round_up(int a, int b) { return ceil_div(a, b) * b; }

// Position of a block in launch order: x fastest, then y, then z.
GL_HD constexpr long long linear_block_index(Dim3 block, Dim3 grid) {
  return block.x + static_cast<long long>(grid.x) * (block.y + static_cast<long long>(grid.y) * block.z);
}
GL_HD constexpr Dim3 block_of_linear_index(long long linear, Dim3 grid) {
  const long long xy = static_cast<long long>(grid.x) * grid.y;
  const long long z = linear / xy, rest = linear % xy;
  return Dim3{static_cast<int>(rest % grid.x), static_cast<int>(rest / grid.x), static_cast<int>(z)};
}
GL_HD constexpr long long grid_block_count(Dim3 grid) {
  return static_cast<long long>(grid.x) * grid.y * grid.z;
}

// Does a tile position fall inside the tiled problem? Swizzles launch a few "no-op" blocks past
// the edge (CUTLASS: "Thresholds picked so that it doesn't cause too many no-op CTAs"); those
// blocks return at once.
GL_HD constexpr bool tile_in_problem(GemmCoord tile, GemmCoord tiled_shape) {
  return tile.m >= 0 && tile.n >= 0 && tile.m < tiled_shape.m && tile.n < tiled_shape.n;
}

// ---------------------------------------------------------------------------------------------
// CUTLASS GemmIdentityThreadblockSwizzle<N>. The swizzle groups 2^log_tile consecutive n tiles
// under consecutive blockIdx.x, so co-resident blocks share B columns and A rows in L2.
//   N=4, problem 1024x1024, tile 128x128: tiled (8,8,1), log_tile 2, grid (32,2,1);
//   blockIdx (0..3, 0) -> tiles (0,0) (0,1) (0,2) (0,3), then (4,0) -> (1,0).
namespace identity_swizzle {

GL_HD constexpr GemmCoord get_tiled_shape(GemmCoord problem, GemmCoord tile, int split_k_slices) {
  return GemmCoord{ceil_div(problem.m, tile.m), ceil_div(problem.n, tile.n), split_k_slices};
}

// swizzle_n is the template argument N (1, 2, 4, 8). Thresholds are CUTLASS's own.
GL_HD constexpr int get_log_tile(int swizzle_n, GemmCoord tiled_shape) {
  const int n = tiled_shape.n;
  if (swizzle_n >= 8 && n >= 6) return 3;
  if (swizzle_n >= 4 && n >= 3) return 2;
  if (swizzle_n >= 2 && n >= 2) return 1;
  return 0;
}

GL_HD constexpr Dim3 get_grid_shape(int swizzle_n, GemmCoord tiled_shape) {
  const int tile = 1 << get_log_tile(swizzle_n, tiled_shape);
  return Dim3{tiled_shape.m * tile, (tiled_shape.n + tile - 1) / tile, tiled_shape.k};
}

// get_tile_offset(int log_tile), with blockIdx passed in (CUTLASS reads it from the hardware).
GL_HD constexpr GemmCoord get_tile_offset(int log_tile, Dim3 block_idx) {
  return GemmCoord{block_idx.x >> log_tile,
                   (block_idx.y << log_tile) + (block_idx.x & ((1 << log_tile) - 1)),
                   block_idx.z};
}

}  // namespace identity_swizzle

// Compile-time form for kernels: GemmIdentitySwizzle<8>::get_tile_offset(log_tile, blockIdx).
template <int N>
struct GemmIdentitySwizzle {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8, "CUTLASS instantiates N = 1, 2, 4, 8");
  GL_HD static constexpr GemmCoord get_tiled_shape(GemmCoord problem, GemmCoord tile, int split_k) {
    return identity_swizzle::get_tiled_shape(problem, tile, split_k);
  }
  GL_HD static constexpr int get_log_tile(GemmCoord tiled) {
    return identity_swizzle::get_log_tile(N, tiled);
  }
  GL_HD static constexpr Dim3 get_grid_shape(GemmCoord tiled) {
    return identity_swizzle::get_grid_shape(N, tiled);
  }
  GL_HD static constexpr GemmCoord get_tile_offset(int log_tile, Dim3 block_idx) {
    return identity_swizzle::get_tile_offset(log_tile, block_idx);
  }
};

static_assert(identity_swizzle::get_log_tile(8, GemmCoord{8, 3, 1}) == 2);  // n=3 < 6: falls to 2
static_assert(identity_swizzle::get_grid_shape(4, GemmCoord{8, 8, 1}) == Dim3{32, 2, 1});
static_assert(identity_swizzle::get_tile_offset(2, Dim3{5, 1, 0}) == GemmCoord{1, 5, 0});

// ---------------------------------------------------------------------------------------------
// Seed 004 ("mma_base", 256x128 block tile): grid (stride, ceil(M/TM), ceil(N/(TN*stride))) with
// stride 16. Inside a z slab the blocks walk `stride` n tiles along one m row, then the next row;
// odd slabs walk the rows bottom-up (a serpentine), so the row band of A that the previous slab
// finished with is reused first. Blocks whose n tile is past N return at once.
//   block_tile_i = (blockIdx.z & 1) ? gridDim.y - blockIdx.y - 1 : blockIdx.y   (m tile)
//   block_tile_j = blockIdx.z * gridDim.x + blockIdx.x                         (n tile)
// (the seed shifts both left by 4 to count m16n8 MMA tiles; here they count block tiles).
namespace serpentine_swizzle {

// The slab width a launch uses: max_stride, but no wider than the problem's n tiles (stage 12
// launches S = min(8, n tiles), so a narrow problem gets no row of no-op blocks).
GL_HD constexpr int launch_stride(int tiles_n, int max_stride) { return tiles_n < max_stride ? tiles_n : max_stride; }

GL_HD constexpr Dim3 get_grid_shape(GemmCoord tiled_shape, int stride) {
  return Dim3{stride, tiled_shape.m, ceil_div(tiled_shape.n, stride)};
}

GL_HD constexpr GemmCoord get_tile_offset(Dim3 block_idx, Dim3 grid_dim) {
  return GemmCoord{(block_idx.z & 1) ? grid_dim.y - block_idx.y - 1 : block_idx.y,
                   block_idx.z * grid_dim.x + block_idx.x, 0};
}

}  // namespace serpentine_swizzle

static_assert(serpentine_swizzle::get_tile_offset(Dim3{3, 0, 1}, Dim3{16, 4, 2}) == GemmCoord{3, 19, 0});

// ---------------------------------------------------------------------------------------------
// CUTLASS 3.x SM90 tile scheduler raster, cluster 1x1, one output tile per work index (the
// persistent kernel visits the same sequence, each CTA striding by the grid size).
//   AlongN: consecutive work indices walk along N; with log swizzle s, 2^s m rows are interleaved.
//   AlongM: the same with m and n exchanged.
// Both tile counts are rounded up to a multiple of 2^s (tile_scheduler_params.h); work tiles that
// fall past the problem are no-ops.
enum class RasterOrder : int { AlongM = 0, AlongN = 1 };

namespace sm90_raster {

// tile_scheduler_params.h get_log_swizzle_size(problem_ctas_m, problem_ctas_n, max_swizzle_size).
GL_HD constexpr int get_log_swizzle_size(int tiles_m, int tiles_n, int max_swizzle_size) {
  const int min_dim = tiles_m < tiles_n ? tiles_m : tiles_n;
  if (max_swizzle_size >= 8 && min_dim >= 6) return 3;
  if (max_swizzle_size >= 4 && min_dim >= 3) return 2;
  if (max_swizzle_size >= 2 && min_dim >= 2) return 1;
  return 0;
}

// get_rasterization_order with RasterOrderOptions::Heuristic: AlongM when there are more n tiles
// than m tiles (tile_scheduler_params.h), otherwise AlongN.
GL_HD constexpr RasterOrder heuristic_order(int tiles_m, int tiles_n) {
  return tiles_n > tiles_m ? RasterOrder::AlongM : RasterOrder::AlongN;
}

struct Params {
  int blocks_m = 0;  // m tiles rounded up to a multiple of 2^log_swizzle
  int blocks_n = 0;
  int log_swizzle = 0;
  RasterOrder order = RasterOrder::AlongN;
  GL_HD constexpr long long work_tiles() const { return static_cast<long long>(blocks_m) * blocks_n; }
};

GL_HD constexpr Params make_params(GemmCoord tiled_shape, int max_swizzle_size, RasterOrder order) {
  Params p;
  p.log_swizzle = get_log_swizzle_size(tiled_shape.m, tiled_shape.n, max_swizzle_size);
  p.blocks_m = round_up(tiled_shape.m, 1 << p.log_swizzle);
  p.blocks_n = round_up(tiled_shape.n, 1 << p.log_swizzle);
  p.order = order;
  return p;
}

// get_work_idx_m_and_n with cluster (1,1): cluster_id = work index.
GL_HD constexpr GemmCoord get_work_tile(const Params& p, long long work_idx) {
  const long long offset = work_idx & ((1LL << p.log_swizzle) - 1);
  const long long extra = work_idx >> p.log_swizzle;
  const long long blk_major = p.order == RasterOrder::AlongN ? p.blocks_n : p.blocks_m;
  const long long minor = (extra / blk_major) * (1LL << p.log_swizzle) + offset;
  const long long major = extra % blk_major;
  return p.order == RasterOrder::AlongN
             ? GemmCoord{static_cast<int>(minor), static_cast<int>(major), 0}
             : GemmCoord{static_cast<int>(major), static_cast<int>(minor), 0};
}

}  // namespace sm90_raster

// AlongN, 4x4 tiles, max swizzle 2 -> log 1: work 0..3 -> (0,0) (1,0) (0,1) (1,1).
static_assert(sm90_raster::get_work_tile(sm90_raster::make_params(GemmCoord{4, 4, 1}, 2,
                                                                  RasterOrder::AlongN), 3) ==
              GemmCoord{1, 1, 0});

// ---------------------------------------------------------------------------------------------
// Split-k: the slice blockIdx.z covers k elements [begin, end). Ranges may be empty when the
// slices outnumber what rounding leaves (the block still takes part in the reduction).
struct KRange {
  int begin = 0;
  int end = 0;
  GL_HD constexpr int iterations(int tile_k) const {
    return end > begin ? ceil_div(end - begin, tile_k) : 0;
  }
  GL_HD constexpr bool operator==(const KRange& o) const { return begin == o.begin && end == o.end; }
};

// Serial reduction, kernel::Gemm<..., SplitKSerial>: gemm_k_size rounds the per-slice iteration
// count up, and the last slices take what is left.
//   K=1000, TK=32, 4 slices: 32 iterations -> 8 per slice -> gemm_k_size 256; slice 3 = [768,1000).
GL_HD constexpr int split_k_serial_size(int problem_k, int tile_k, int slices) {
  const int total_iterations = ceil_div(problem_k, tile_k);
  return ceil_div(total_iterations, slices) * tile_k;
}
GL_HD constexpr KRange split_k_serial_range(int slice, int problem_k, int tile_k, int slices) {
  const int size = split_k_serial_size(problem_k, tile_k, slices);
  const int begin = slice * size;
  const int end = (slice + 1) * size < problem_k ? (slice + 1) * size : problem_k;
  return KRange{begin < problem_k ? begin : problem_k, end};
}

// Parallel reduction, kernel::GemmSplitKParallel: gemm_k_size rounds down, the last slice takes
// the remainder; each slice writes its own partial C, a separate reduction kernel sums them.
//   K=1000, TK=32, 4 slices: 31 full iterations -> 7 per slice -> 224; slice 3 = [672,1000).
GL_HD constexpr int split_k_parallel_size(int problem_k, int tile_k, int slices) {
  return (problem_k / tile_k) / slices * tile_k;
}
GL_HD constexpr KRange split_k_parallel_range(int slice, int problem_k, int tile_k, int slices) {
  const int size = split_k_parallel_size(problem_k, tile_k, slices);
  return KRange{slice * size, slice + 1 < slices ? (slice + 1) * size : problem_k};
}

// How many k slices stage 13a (split-k) launches: enough blocks to fill every slot of the GPU
// (slots = SMs * blocks per SM), but each slice at least 16 k tiles; 1 when the tiles fill it.
GL_HD constexpr int split_k_parallel_slices(long long tiles, long long slots, int problem_k, int tile_k) {
  if (slots <= 0 || tiles >= slots) return 1;
  const long long wanted = (slots + tiles - 1) / tiles;
  const long long most = problem_k / (16 * tile_k) > 1 ? problem_k / (16 * tile_k) : 1;
  return int(wanted < most ? wanted : most);
}
// 512x512x16384 in 128x128x8 tiles on 132 SMs x 2: 16 tiles, 264 slots -> 17 slices.
static_assert(split_k_parallel_slices(16, 264, 16384, 8) == 17);

// How many k slices stage 19b (wgmma split-k) launches: as many as fit one wave of blocks, so that
// no block waits for a second wave (rounded down where stage 13a rounds up), each slice still at
// least 16 k tiles; 1 when the tiles fill a wave. The H200 probe (kernels/lab/results/shapes/
// splitk-slices-probe.json, % of cuBLAS) at 16x8192x8192: 4 slices 88.6, 5 slices 80.7.
GL_HD constexpr int split_k_wave_slices(long long tiles, long long slots, int problem_k, int tile_k) {
  if (slots <= 0 || tiles <= 0 || tiles >= slots) return 1;
  const long long fit = slots / tiles;
  const long long most = problem_k / (16 * tile_k) > 1 ? problem_k / (16 * tile_k) : 1;
  return int(fit < most ? fit : most);
}
static_assert(split_k_wave_slices(64, 264, 8192, 64) == 4);     // 16x8192x8192 in 64 x 128: 256 blocks
static_assert(split_k_wave_slices(128, 264, 8192, 64) == 2);    // 128x8192x8192: 256 blocks
static_assert(split_k_wave_slices(32, 264, 16384, 64) == 8);    // 512x512x16384: 256 blocks
static_assert(split_k_wave_slices(128, 264, 1024, 64) == 1);    // 1024^3: 16 k tiles, not split
static_assert(split_k_wave_slices(224, 264, 8192, 64) == 1);    // 64x28672x8192: 224 blocks
static_assert(split_k_parallel_slices(1024, 264, 4096, 8) == 1);

static_assert(split_k_serial_range(3, 1000, 32, 4) == KRange{768, 1000});
static_assert(split_k_parallel_range(3, 1000, 32, 4) == KRange{672, 1000});

}  // namespace gemmlab
