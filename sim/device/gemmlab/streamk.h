// Stream-K as CUTLASS 2.x formulates it (gemm/threadblock/threadblock_swizzle_streamk.h,
// ThreadblockSwizzleStreamK, and the block loop of gemm/kernel/gemm_universal_streamk.h):
//
//   - Output tiles are numbered 0..tiles-1. Tiles [0, sk_tiles) are shared by the stream-k (SK)
//     blocks, which split sk_tiles * iters_per_tile MAC-iterations evenly (the first "big" blocks
//     of a region take one more). Tiles [sk_tiles, tiles) are data-parallel (DP): one block each.
//   - Block indices [0, sk_waves * avail_sms) are SK blocks (some may be padding), then DP blocks.
//   - An SK block walks its tiles backwards, from the tile of its last iteration down. On each
//     tile it either stores its partial accumulators to a workspace (if it does not cover the
//     tile's last iteration) or, covering the last iteration, waits for its peers, adds their
//     partials ("fix-up") and runs the epilogue.
//
// constexpr GL_HD, no STL: the host heuristics and the device mapping are both here so a kernel
// can use the same plan the simulator shows.
//
// Not modelled, and said so by the analysis: CUTLASS's separate reduction wave (kMixed strategy
// with more than two peers per tile) needs Epilogue::kAccumulatorFragments, which depends on the
// epilogue; here reduction_blocks stays 0 and the finishing block always does the fix-up.
#pragma once
#include "gemmlab/hd.h"
#include "gemmlab/raster.h"

namespace gemmlab::streamk {

// ThreadblockSwizzleStreamK's heuristic constants.
inline constexpr int kMinItersPerSkBlock = 2;
inline constexpr int kCohortCtasM = 8;
inline constexpr int kCohortCtasN = 4;
inline constexpr int kCtasPerCohort = kCohortCtasM * kCohortCtasN;
// "Cost-equivalent number of SM-iterations for fixup I/O" (declared by CUTLASS; the schedule
// model uses kFixupPeerIterEquiv as the cost of storing or reading one peer's partial tile).
inline constexpr int kFixupStartupIterEquiv = 10;
inline constexpr int kFixupPeerIterEquiv = 3;

GL_HD constexpr int imin(int a, int b) { return a < b ? a : b; }
GL_HD constexpr int imax(int a, int b) { return a > b ? a : b; }

struct SkBlockChoice {
  int sk_blocks = 0;
  int savings_iters = -2147483647 - 1;  // INT_MIN
};

// get_sk_blocks: how many SK blocks to dispatch for sk_tiles tiles.
GL_HD constexpr SkBlockChoice get_sk_blocks(int sk_tiles, int iters_per_tile, int avail_sms,
                                            int max_sk_occupancy, bool allow_partial_wave) {
  SkBlockChoice r;
  if (sk_tiles == 0) return r;
  const int sk_iters = sk_tiles * iters_per_tile;
  const int dp_equiv_waves = (sk_tiles + avail_sms - 1) / avail_sms;
  const int dp_equiv_iters = iters_per_tile * dp_equiv_waves;
  const int min_sk_blocks = allow_partial_wave ? imin(avail_sms, sk_tiles + 1) : avail_sms;
  const int max_sk_blocks = imin(avail_sms * max_sk_occupancy, sk_iters / kMinItersPerSkBlock);
  for (int trial = min_sk_blocks; trial <= max_sk_blocks; ++trial) {
    const int sk_waves = (trial + avail_sms - 1) / avail_sms;
    const int max_sk_iters_per_block = (sk_iters + trial - 1) / trial;
    const int sk_iter_equiv = max_sk_iters_per_block * sk_waves;
    int num_peers = ((trial + sk_tiles - 1) / sk_tiles) + 1;  // one more for alignment skew
    float iter_cost = 0.02f * float(num_peers) * float(sk_iter_equiv);
    if (trial % sk_tiles == 0) {  // aligned
      num_peers = trial / sk_tiles;
      iter_cost = 0.0f;
    }
    const float peer_cost = 2.0f * float(num_peers);
    const float base_cost = 2.0f * float(sk_waves);
    const int fixup_iter_equiv = int(base_cost + iter_cost + peer_cost);
    const int trial_savings = dp_equiv_iters - sk_iter_equiv - fixup_iter_equiv;
    if (trial_savings >= r.savings_iters) {
      r.savings_iters = trial_savings;
      r.sk_blocks = trial;
    }
  }
  return r;
}

struct DpSkSplit {
  int dp_tiles = 0;
  int sk_blocks = 0;
};

// get_blocks: the populations of DP tiles and SK blocks.
GL_HD constexpr DpSkSplit get_blocks(int output_tiles, int iters_per_tile, int avail_sms,
                                     int sm_occupancy) {
  const int full_waves = output_tiles / avail_sms;
  const int full_wave_tiles = full_waves * avail_sms;
  const int partial_wave_tiles = output_tiles - full_wave_tiles;
  DpSkSplit r{output_tiles, 0};
  if (partial_wave_tiles == 0) return r;  // perfect quantization
  if (full_waves < sm_occupancy) {
    // Less than full GPU occupancy: the SK wave comes from the partial wave.
    const SkBlockChoice c = get_sk_blocks(partial_wave_tiles, iters_per_tile, avail_sms,
                                          sm_occupancy - full_waves, true);
    if (c.savings_iters < 0) return DpSkSplit{output_tiles, 0};
    return DpSkSplit{full_wave_tiles, c.sk_blocks};
  }
  if (sm_occupancy > 1 && full_waves % sm_occupancy == sm_occupancy - 1) {
    const SkBlockChoice c =
        get_sk_blocks(partial_wave_tiles, iters_per_tile, avail_sms, 1, true);
    if (c.savings_iters >= 0) return DpSkSplit{full_wave_tiles, c.sk_blocks};
  }
  // Combine the last full wave and the partial wave into the SK wave.
  const int max_sk_occupancy = sm_occupancy - ((full_waves - 1) % sm_occupancy);
  const SkBlockChoice c = get_sk_blocks(partial_wave_tiles + avail_sms, iters_per_tile,
                                        avail_sms, max_sk_occupancy, false);
  if (c.savings_iters < 0) return DpSkSplit{output_tiles, 0};
  return DpSkSplit{full_wave_tiles - avail_sms, c.sk_blocks};
}

struct Plan {
  GemmCoord problem;
  GemmCoord tiled_shape;  // (m tiles, n tiles, 1)
  int iters_per_tile = 0;
  int sm_occupancy = 1;
  int avail_sms = 1;
  int device_sms = 1;
  int dp_tiles = 0;
  int sk_tiles = 0;
  int sk_blocks = 0;
  int sk_waves = 0;
  int sk_regions = 1;
  int sk_blocks_per_region = 0;
  int sk_big_blocks_per_region = 0;
  int sk_iters_per_region = 0;
  int sk_iters_per_normal_block = 0;
  int dp_blocks = 0;
  int dp_first_wave_tiles = 1;
  int reduction_blocks = 0;  // see the header note: not modelled
  bool cutlass_would_use_reduction_wave = false;
  bool cohort_raster = false;
  bool remap_block_indices = false;

  GL_HD constexpr int output_tiles() const { return tiled_shape.m * tiled_shape.n; }
  GL_HD constexpr int num_active_blocks() const {
    return sk_waves * avail_sms + dp_blocks + reduction_blocks;
  }
  GL_HD constexpr int num_blocks() const {
    return remap_block_indices ? imax(num_active_blocks(), avail_sms * 4) : num_active_blocks();
  }
  GL_HD constexpr int sk_padding_start() const { return sk_regions * sk_blocks_per_region; }
  GL_HD constexpr int dp_start() const { return sk_waves * avail_sms; }
  GL_HD constexpr int reduce_start() const { return dp_start() + dp_blocks; }
};

// The ThreadblockSwizzleStreamK constructor for GemmUniversalMode::kGemm. split_factor > 1
// emulates split-k through the same machinery (CUTLASS's "Split-K override").
GL_HD constexpr Plan make_plan(GemmCoord problem, GemmCoord tile, int split_factor,
                               int sm_occupancy, int device_sms, int avail_sms) {
  Plan p;
  p.problem = problem;
  p.sm_occupancy = sm_occupancy;
  p.device_sms = device_sms;
  p.avail_sms = imax(1, avail_sms);
  const int gpu_occupancy = device_sms * sm_occupancy;
  p.iters_per_tile = (problem.k + tile.k - 1) / tile.k;
  p.tiled_shape = GemmCoord{(problem.m + tile.m - 1) / tile.m, (problem.n + tile.n - 1) / tile.n, 1};
  const int output_tiles = p.output_tiles();

  int dp_tiles = output_tiles;
  int sk_blocks = 0;
  if (split_factor > 1) {
    dp_tiles = 0;
    sk_blocks = output_tiles * split_factor;
  } else if (p.avail_sms > 1) {
    const DpSkSplit s = get_blocks(output_tiles, p.iters_per_tile, p.avail_sms, sm_occupancy);
    dp_tiles = s.dp_tiles;
    sk_blocks = s.sk_blocks;
  }
  p.sk_tiles = output_tiles - dp_tiles;
  p.dp_tiles = dp_tiles;

  if (sk_blocks > 0) {
    p.sk_waves = (sk_blocks + p.avail_sms - 1) / p.avail_sms;
    const int sk_iters = p.sk_tiles * p.iters_per_tile;
    sk_blocks = imin(sk_blocks, sk_iters);
    p.sk_iters_per_normal_block = sk_iters / sk_blocks;
    const int extra_sk_iters = sk_iters - p.sk_iters_per_normal_block * sk_blocks;
    const int sk_big_blocks = extra_sk_iters;
    if (sk_blocks > p.sk_tiles && sk_blocks % p.sk_tiles == 0) p.sk_regions = p.sk_tiles;  // split-k
    p.sk_blocks_per_region = sk_blocks / p.sk_regions;
    p.sk_big_blocks_per_region = sk_big_blocks / p.sk_regions;
    p.sk_iters_per_region = sk_iters / p.sk_regions;
    p.cutlass_would_use_reduction_wave = p.sk_waves < sm_occupancy && sk_blocks > 2 * p.sk_tiles;
    p.remap_block_indices = sm_occupancy > 1 && device_sms == p.avail_sms &&
                            p.num_active_blocks() > p.avail_sms * 2;
    // (num_active_blocks above still counts dp_blocks = 0, as CUTLASS does at this point.)
  }
  p.sk_blocks = sk_blocks;

  p.dp_blocks = dp_tiles;
  const GemmCoord cohort_shape{(p.tiled_shape.m + kCohortCtasM - 1) / kCohortCtasM,
                               (p.tiled_shape.n + kCohortCtasN - 1) / kCohortCtasN, 1};
  const int cohort_blocks = cohort_shape.m * cohort_shape.n * kCtasPerCohort;
  const float cohort_efficiency = float(p.dp_blocks) / float(cohort_blocks);
  bool sk_in_range = true;
  if (p.sk_tiles > 0) {
    const int cohort_tile_idx = (p.sk_tiles - 1) / kCtasPerCohort;
    const int cohort_grid_m = cohort_tile_idx / cohort_shape.n;
    const int cohort_grid_n = cohort_grid_m > 0 ? cohort_shape.n - 1 : cohort_tile_idx % cohort_shape.n;
    if ((cohort_grid_m + 1) * kCohortCtasM >= p.tiled_shape.m ||
        (cohort_grid_n + 1) * kCohortCtasN >= p.tiled_shape.n)
      sk_in_range = false;
  }
  if (sk_in_range && p.dp_blocks >= gpu_occupancy * 2 && cohort_efficiency > 0.85f) {
    p.cohort_raster = true;
    p.dp_blocks = cohort_blocks;
  } else if (p.sk_waves > 0) {
    const int dp_tile_waves = (dp_tiles + p.avail_sms - 1) / p.avail_sms;
    const int full_dp_tile_waves = dp_tiles / p.avail_sms;
    const int waveset_excess = (p.sk_waves + dp_tile_waves) % sm_occupancy;
    if (p.dp_first_wave_tiles + waveset_excess <= full_dp_tile_waves) {
      p.dp_first_wave_tiles += waveset_excess;
      p.dp_blocks -= waveset_excess * p.avail_sms;
    }
  }
  return p;
}

// get_tile_offset: row-major raster over tiles, column-major when there are fewer m tiles than
// n tiles, or 8x4 cohorts when cohort_raster is on.
GL_HD constexpr GemmCoord tile_offset(const Plan& p, int tile_idx) {
  int m = tile_idx / p.tiled_shape.n, n = tile_idx % p.tiled_shape.n;
  if (p.tiled_shape.m < p.tiled_shape.n) {
    n = tile_idx / p.tiled_shape.m;
    m = tile_idx % p.tiled_shape.m;
  }
  if (p.cohort_raster) {
    const int cohort_n = (p.tiled_shape.n + kCohortCtasN - 1) / kCohortCtasN;
    const int cohort_tile_idx = tile_idx / kCtasPerCohort;
    const int cohort_grid_m = cohort_tile_idx / cohort_n, cohort_grid_n = cohort_tile_idx % cohort_n;
    const int in_cohort = tile_idx % kCtasPerCohort;
    m = cohort_grid_m * kCohortCtasM + in_cohort / kCohortCtasN;
    n = cohort_grid_n * kCohortCtasN + in_cohort % kCohortCtasN;
  }
  return GemmCoord{m, n, 0};
}

// get_block_idx: blockIdx.x -> the logical block index the kernel works as.
GL_HD constexpr int block_idx_of(const Plan& p, int block_idx_x) {
  int b = block_idx_x;
  if (p.remap_block_indices && b < p.avail_sms * 2) b = b / 2 + (b % 2) * p.avail_sms;
  if (b < p.sk_regions * p.sk_blocks_per_region) {
    const int block_in_region = b / p.sk_regions, region = b % p.sk_regions;
    b = region * p.sk_blocks_per_region + block_in_region;
  }
  return b;
}

struct IterRange {
  int begin = 0;
  int end = 0;
};

// get_iter_extents: the global MAC-iterations [begin, end) of SK block sk_block_idx.
GL_HD constexpr IterRange sk_iter_extents(const Plan& p, int sk_block_idx) {
  const int region = sk_block_idx / p.sk_blocks_per_region;
  const int in_region = sk_block_idx % p.sk_blocks_per_region;
  int begin = region * p.sk_iters_per_region + in_region * p.sk_iters_per_normal_block;
  int iters = p.sk_iters_per_normal_block;
  if (in_region < p.sk_big_blocks_per_region) {
    begin += in_region;
    ++iters;
  } else {
    begin += p.sk_big_blocks_per_region;
  }
  return IterRange{begin, begin + iters};
}

}  // namespace gemmlab::streamk
