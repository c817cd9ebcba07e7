#include "gemmlab/conv_picture.h"

#include "gemmlab/fp16_smem_tile.h"

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

}  // namespace

Expected<TileLoads> tile_loads(const TileLoadRequest& q) {
  if (const char* why = check_shape(q.shape, q.element)) return Error{why};
  if (q.sms < 1) return Error{"the GPU must have at least one SM"};
  const int tile = q.tile >= 0 ? q.tile : choose_tile(q.shape, q.sms);
  if (tile >= kTileCount) return Error{"tile " + std::to_string(tile) + " does not exist (0 .. " + std::to_string(kTileCount - 1) + ")"};
  const long long blocks_m = (q.shape.gemm_m() + kTiles[tile].m - 1) / kTiles[tile].m;
  if (q.block_m < 0 || q.block_m >= blocks_m)
    return Error{"block " + std::to_string(q.block_m) + " is outside the launch's " + std::to_string(blocks_m) + " blocks along M"};
  TileLoads out{};
  out.tile = tile;
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
