// The dispatch rule of gemmlab/dispatch.h: tile by the wave model, K split by the fill it leaves
// (split-k below one wave, stream-k for a ragged tail, through streamk.h's own heuristic), cluster,
// and the raster whose first wave reads least.
#include "gemmlab/dispatch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "gemmlab/streamk.h"

namespace gemmlab {

const char* k_split_name(KSplit s) {
  return s == KSplit::SplitK ? "split-k" : s == KSplit::StreamK ? "stream-k" : "none";
}

namespace {

TileFill tile_fill(GemmCoord p, int tile_m, int tile_n, int sms) {
  TileFill f{tile_m, tile_n};
  f.tiles = 1ll * ceil_div(p.m, tile_m) * ceil_div(p.n, tile_n);
  f.waves = (f.tiles + sms - 1) / sms;
  f.fill = double(f.tiles) / double(f.waves * sms);
  return f;
}

// Distinct A rows and B columns the first `wave` work tiles of this raster read, per k-tile, in bytes.
long long wave_footprint(const Dispatch& d, RasterOrder order, int swizzle, long long wave) {
  const sm90_raster::Params p = sm90_raster::make_params(GemmCoord{d.tiles_m, d.tiles_n, 1}, swizzle, order);
  std::set<int> rows, cols;
  for (long long w = 0, taken = 0; w < p.work_tiles() && taken < wave; ++w) {
    const GemmCoord t = sm90_raster::get_work_tile(p, w);
    if (t.m >= d.tiles_m || t.n >= d.tiles_n) continue;  // a no-op work tile of the rounded grid
    rows.insert(t.m), cols.insert(t.n), ++taken;
  }
  return (1ll * int(rows.size()) * d.tile_m + 1ll * int(cols.size()) * d.tile_n) * d.tile_k * 2;
}

void choose_raster(Dispatch& d, long long wave) {
  d.raster = sm90_raster::heuristic_order(d.tiles_m, d.tiles_n);
  d.wave_footprint_bytes = -1;
  for (int s : {1, 2, 4, 8}) {
    const long long bytes = wave_footprint(d, d.raster, s, wave);
    if (d.wave_footprint_bytes < 0 || bytes < d.wave_footprint_bytes) d.wave_footprint_bytes = bytes, d.swizzle = s;
  }
  d.order = std::string(d.raster == RasterOrder::AlongM ? "along-m:" : "along-n:") + std::to_string(d.swizzle);
}

std::string percent(double share) { return std::to_string(int(std::lround(100 * share))) + "%"; }

std::string what_problem(GemmCoord p) {
  return p.m <= 64 ? "M = " + std::to_string(p.m) : std::to_string(p.m) + " x " + std::to_string(p.n);
}

std::string explain(const Dispatch& d, const TileFill& f) {
  char waves[32];
  std::snprintf(waves, sizeof waves, "%.2f", double(f.tiles) / d.sms);
  const std::string tile = std::to_string(d.tile_m) + " x " + std::to_string(d.tile_n);
  const std::string launch = "cluster " + std::to_string(d.cluster_m) + " x " + std::to_string(d.cluster_n) + ", " + d.order;
  if (d.split == KSplit::SplitK)
    return what_problem(d.problem) + ": 1 wave of " + std::to_string(f.tiles) + " tiles of " + tile + " would fill " +
           percent(f.fill) + " of the " + std::to_string(d.sms) + " SMs -> split K " + std::to_string(d.splits) +
           " ways (" + std::to_string(d.k_tiles / d.splits) + " k-tiles each): " + std::to_string(d.blocks) +
           " blocks fill " + percent(d.fill) + ", " + launch;
  if (d.split == KSplit::StreamK)
    return what_problem(d.problem) + ": " + std::to_string(f.tiles) + " tiles of " + tile + " = " + waves + " waves on " +
           std::to_string(d.sms) + " SMs would keep " + percent(f.fill) + " busy -> stream-k: " +
           std::to_string(d.dp_tiles) + " tiles data-parallel, " + std::to_string(d.sk_blocks) +
           " blocks share the rest, " + launch;
  return what_problem(d.problem) + ": " + std::to_string(f.tiles) + " tiles of " + tile + " = " + waves + " waves on " +
         std::to_string(d.sms) + " SMs keep " + percent(f.fill) + " busy -> one block per tile, " + launch;
}

}  // namespace

Expected<Dispatch> dispatch_fp16(GemmCoord problem, const DeviceDesc& device) {
  if (problem.m < 1 || problem.n < 1 || problem.k < 1 || problem.m > (1 << 20) || problem.n > (1 << 20) ||
      problem.k > (1 << 20))
    return Error{"the problem's M, N and K must be 1 .. 1048576"};
  if (device.sms < 1 || device.sms > 4096) return Error{"device: SM count must be 1..4096"};
  Dispatch d;
  d.problem = problem;
  d.sms = device.sms;
  d.k_tiles = ceil_div(problem.k, kDispatchTileK);

  // 1. Tile.
  const int shapes[4][2] = {{128, 256}, {128, 128}, {64, 256}, {64, 128}};
  int pick = -1, best = -1;
  for (const auto& s : shapes) {
    if (s[0] == 128 && problem.m <= 64) continue;
    d.candidates.push_back(tile_fill(problem, s[0], s[1], d.sms));
    const int i = int(d.candidates.size()) - 1;
    if (pick < 0 && d.candidates[i].fill >= kGoodFill) pick = i;
    if (best < 0 || d.candidates[i].fill > d.candidates[best].fill) best = i;
  }
  const TileFill f = d.candidates[pick >= 0 ? pick : best];
  d.tile_m = f.tile_m, d.tile_n = f.tile_n;
  d.tiles_m = ceil_div(problem.m, d.tile_m), d.tiles_n = ceil_div(problem.n, d.tile_n);
  d.blocks = f.tiles, d.fill = f.fill;

  // 2. K.
  long long wave = f.tiles < d.sms ? f.tiles : d.sms;
  if (f.fill < kGoodFill) {
    const int s = f.tiles < d.sms ? std::min({int(d.sms / f.tiles), d.k_tiles / kMinSliceKTiles, kMaxSplits}) : 0;
    if (s >= 2) {
      d.split = KSplit::SplitK, d.splits = s, d.blocks = f.tiles * s;
      d.fill = double(d.blocks) / double(((d.blocks + d.sms - 1) / d.sms) * d.sms);
      wave = std::min<long long>(f.tiles, std::max(1, d.sms / s));
    } else if (const streamk::DpSkSplit sk = streamk::get_blocks(int(f.tiles), d.k_tiles, d.sms, 1); sk.sk_blocks > 0) {
      d.split = KSplit::StreamK, d.dp_tiles = sk.dp_tiles, d.sk_blocks = sk.sk_blocks;
      d.blocks = sk.dp_tiles + sk.sk_blocks;
      // The SK blocks share the other tiles' k-iterations evenly (fix-ups not counted): the tail is even.
      const double work = double(f.tiles) * d.k_tiles;
      const double per_sk = std::ceil(double(f.tiles - sk.dp_tiles) * d.k_tiles / sk.sk_blocks);
      const double span = double(sk.dp_tiles / d.sms) * d.k_tiles + per_sk * double((sk.sk_blocks + d.sms - 1) / d.sms);
      d.fill = work / (span * d.sms);
    }
  }

  // 3. Cluster and 4. raster.
  if (d.tiles_m >= 2 && d.split == KSplit::None) d.cluster_m = 2;
  choose_raster(d, wave);
  d.explanation = explain(d, f);
  return d;
}

}  // namespace gemmlab
