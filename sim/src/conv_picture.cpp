#include "gemmlab/conv_picture.h"

#include "gemmlab/fp16_smem_tile.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab::conv {

std::vector<WindowCell> window_of(const Shape& sh, long long m) {
  std::vector<WindowCell> cells;
  const Npq o = row_pixel(sh, m);
  for (int r = 0; r < sh.r; ++r)
    for (int s = 0; s < sh.s; ++s) {
      const Nhwc x = input_of(sh, o, Rsc{r, s, 0});
      cells.push_back({r, s, x.h, x.w, in_tensor(sh, x)});
    }
  return cells;
}

namespace {

// The kernel's copy (conv_mainloop.cuh, ImplicitGemmCopyA + copy_tile_async_part) on the host,
// with the same thread map type per tile: kTileK 32 units of 16 bits.
template <int kTile>
void list_loads(const TileLoadRequest& q, TileLoads& out) {
  using Map = fp16_tile::OperandThreadMap<kTiles[kTile].m, kTileKBytes / 2, kTiles[kTile].threads()>;
  const int epu = 16 / element_bits(q.element);  // elements per 16-bit unit
  const int k_units = int(q.shape.gemm_k() / epu);
  out.rows = kTiles[kTile].m;
  out.threads = kTiles[kTile].threads();
  out.accesses_per_thread = Map::kAccesses;
  const long long m0 = q.block_m * kTiles[kTile].m;
  for (int t = 0; t < out.threads; ++t) {
    const PitchCoord start = Map::Map::initial_offset(t);
    const int k = q.k_tile * (kTileKBytes / 2) + start.c;  // units
    for (int i = 0; i < Map::kAccesses; ++i) {
      TileLoad l{};
      l.thread = t, l.access = i;
      l.row_in_tile = start.s + i * Map::kRowStep;
      l.k_in_tile = start.c * epu;
      l.m = m0 + l.row_in_tile;
      l.kk = k * epu;
      l.row_valid = l.m < q.shape.gemm_m();
      l.k_valid = k < k_units;
      l.offset = -1;
      if (l.row_valid && l.k_valid) {
        const RowOrigin o = row_origin(q.shape, l.m);
        const TapStep tap = tap_step(q.shape, l.kk);
        l.in_tensor = tap_in_tensor(q.shape, o, tap);
        l.input = input_of(q.shape, row_pixel(q.shape, l.m), k_tap(q.shape, l.kk));
        if (l.in_tensor) l.offset = o.base + tap.delta;
      }
      out.loads.push_back(l);
    }
  }
}

// Stage 14d's A box for one k-tile (14d_conv_wgmma/conv_wgmma.cuh): the producer thread issues im2col_load; the
// copy engine fills row i with pixel im2col_box_pixel(i).
Expected<TileLoads> box_loads(const TileLoadRequest& q) {
  const Shape& sh = q.shape;
  // The stages by their registry numbers (14d, 14a), never typed here.
  const std::string tma_stage = stage_numbers_of(StageTrack::conv_hopper);
  if (q.element != Element::F16) return Error{"the TMA im2col box is stage " + tma_stage + "'s copy: fp16 only"};
  if (!im2col_tma_fits(sh))
    return Error{"stage " + tma_stage + " loads A with TMA im2col boxes only where C is a multiple of 64 (one tap "
                 "per 64-channel k-tile) and the box corners fit the tensor map; it gathers other shapes like stage " +
                 stage_numbers_of(StageTrack::conv_fp16)};
  const WgmmaTile t = wgmma_tile(sh, q.sms, true);
  const long long blocks_m = (sh.gemm_m() + t.m - 1) / t.m;
  if (q.block_m < 0 || q.block_m >= blocks_m)
    return Error{"block " + std::to_string(q.block_m) + " is outside the launch's " + std::to_string(blocks_m) + " tiles along M"};
  TileLoads out{};
  out.tile = -1;
  out.tile_m = t.m, out.tile_n = t.n;
  // The launch's blocks: resident ones where the layer has many short tiles (each takes several).
  const long long resident = wgmma_persistent_grid(sh, q.sms, true);
  const ConvWork work = wgmma_work(sh, q.sms, true);
  out.blocks = resident > 0 ? resident : work.blocks();
  out.matrix_box = work.a_matrix;
  out.rows = t.m;
  out.threads = 1;
  out.accesses_per_thread = 1;
  out.elements_per_vector = 64;
  out.k_tile_elements = 64;
  out.k_tiles = sh.gemm_k() / 64;
  if (q.k_tile < 0 || q.k_tile >= out.k_tiles)
    return Error{"k-tile " + std::to_string(q.k_tile) + " is outside the main loop's " + std::to_string(out.k_tiles)};
  const long long m0 = q.block_m * t.m;
  const Im2colLoad box = im2col_load(sh, im2col_tile(sh, m0), q.k_tile * 64);
  for (int i = 0; i < t.m; ++i) {
    TileLoad l{};
    l.thread = 0, l.access = 0;
    l.row_in_tile = i;
    l.m = m0 + i;
    l.kk = q.k_tile * 64;
    l.row_valid = l.m < sh.gemm_m();
    l.k_valid = true;
    l.input = im2col_box_pixel(sh, box, i);
    l.in_tensor = l.input.n < sh.n && in_tensor(sh, l.input);
    l.offset = l.in_tensor ? activation_offset(sh, l.input) : -1;
    out.loads.push_back(l);
  }
  return out;
}

}  // namespace

Expected<TileLoads> tile_loads(const TileLoadRequest& q) {
  if (const char* why = check_shape(q.shape, q.element)) return Error{why};
  if (q.sms < 1) return Error{"the GPU must have at least one SM"};
  if (q.tma_box) return box_loads(q);
  const int tile = q.tile >= 0 ? q.tile : choose_tile(q.shape, q.sms);
  if (tile >= kTileCount) return Error{"tile " + std::to_string(tile) + " does not exist (0 .. " + std::to_string(kTileCount - 1) + ")"};
  const long long blocks_m = (q.shape.gemm_m() + kTiles[tile].m - 1) / kTiles[tile].m;
  if (q.block_m < 0 || q.block_m >= blocks_m)
    return Error{"block " + std::to_string(q.block_m) + " is outside the launch's " + std::to_string(blocks_m) + " blocks along M"};
  TileLoads out{};
  out.tile = tile;
  out.tile_m = kTiles[tile].m, out.tile_n = kTiles[tile].n;
  out.blocks = tile_blocks(q.shape, kTiles[tile]);
  out.elements_per_vector = elements_per_vector(q.element);
  out.k_tile_elements = kTileKBytes * 8 / element_bits(q.element);
  out.k_tiles = (q.shape.gemm_k() + out.k_tile_elements - 1) / out.k_tile_elements;
  if (q.k_tile < 0 || q.k_tile >= out.k_tiles)
    return Error{"k-tile " + std::to_string(q.k_tile) + " is outside the main loop's " + std::to_string(out.k_tiles)};
  switch (tile) {
    case 0: list_loads<0>(q, out); break;
    case 1: list_loads<1>(q, out); break;
    case 2: list_loads<2>(q, out); break;
    default: list_loads<3>(q, out); break;
  }
  return out;
}

std::vector<RowTap> readers_of(const Shape& sh, long long m0, int rows, int n, int h, int w) {
  std::vector<RowTap> out;
  for (long long m = m0; m < m0 + rows && m < sh.gemm_m(); ++m) {
    const Npq o = row_pixel(sh, m);
    if (o.n != n) continue;
    for (int r = 0; r < sh.r; ++r)
      for (int s = 0; s < sh.s; ++s) {
        const Nhwc x = input_of(sh, o, Rsc{r, s, 0});
        if (x.h == h && x.w == w) out.push_back({m, r, s});
      }
  }
  return out;
}

}  // namespace gemmlab::conv
