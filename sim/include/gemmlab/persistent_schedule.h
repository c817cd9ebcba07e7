// The tile scheduler of the persistent Hopper stage (kernels/stages/hopper/17_persistent.cuh):
// which output tiles each cluster computes, in which order. No CUDA here; the kernel calls these
// functions and sim/tests/test_hopper_addressing.cpp checks that every tile is visited once.
//
// Work unit: a cluster tile, cluster_m vertically neighbouring tiles (the blocks of a cluster share
// their B columns). The units are ordered as stage 12's serpentine grid orders blocks: slabs of
// `stride` n tiles, a slab walked unit row by unit row (odd slabs upwards), so units that run at
// the same time share A rows and B columns in L2. Cluster c of `clusters` takes units c,
// c + clusters, c + 2 clusters, ...; a unit past N (the last slab's padding) is skipped.
//   4096^3, 128x256 tiles, clusters of 2, stride 8: 16 unit rows x 16 n tiles = 256 units;
//   unit 0 = tiles (0,0),(1,0); unit 8 = tiles (2,0),(3,0); unit 128 = (30,8),(31,8)
#pragma once
#include "gemmlab/hd.h"
#include "gemmlab/raster.h"

namespace gemmlab::persistent {

struct Plan {
  int tiles_m = 0, tiles_n = 0;  // output tiles
  int cluster_m = 1;             // tiles per unit along m
  int stride = 1;                // n tiles per slab
  int unit_rows = 0;             // ceil(tiles_m / cluster_m)
  int slabs = 0;                 // ceil(tiles_n / stride)
  GL_HD constexpr int units() const { return unit_rows * stride * slabs; }  // padding included
};

GL_HD constexpr Plan make_plan(int tiles_m, int tiles_n, int cluster_m, int max_stride) {
  Plan p;
  p.tiles_m = tiles_m;
  p.tiles_n = tiles_n;
  p.cluster_m = cluster_m;
  p.stride = serpentine_swizzle::launch_stride(tiles_n, max_stride);
  p.unit_rows = ceil_div(tiles_m, cluster_m);
  p.slabs = ceil_div(tiles_n, p.stride);
  return p;
}

// Tile (m, n) that block `rank` of a cluster computes for unit u; n >= tiles_n for padding units,
// m >= tiles_m for the blocks of a last unit row that sticks out past M.
GL_HD constexpr GemmCoord unit_tile(const Plan& p, int u, int rank) {
  const Dim3 grid{p.stride, p.unit_rows, p.slabs};
  const Dim3 index{u % p.stride, (u / p.stride) % p.unit_rows, u / (p.stride * p.unit_rows)};
  const GemmCoord unit = serpentine_swizzle::get_tile_offset(index, grid);
  return GemmCoord{unit.m * p.cluster_m + rank, unit.n, 0};
}

static_assert(unit_tile(make_plan(32, 16, 2, 8), 0, 1) == GemmCoord{1, 0, 0});
static_assert(unit_tile(make_plan(32, 16, 2, 8), 8, 0) == GemmCoord{2, 0, 0});
static_assert(unit_tile(make_plan(32, 16, 2, 8), 128, 1) == GemmCoord{31, 8, 0});

}  // namespace gemmlab::persistent
