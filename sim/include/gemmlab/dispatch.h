// The dispatch rule for an fp16 GEMM on Hopper (issue 51): which launch a shape-aware stage runs
// for a problem M x N x K on a device, and why, in a sentence the app can show. A rule, stated
// here and nowhere else:
//
// 1. Tile (k-tile 64, one TMA box). Candidates in order of data reuse: 128 x 256, 128 x 128,
//    64 x 256, 64 x 128; 128-row tiles only where M > 64 (else over half of each tile is padding).
//    Take the first whose waves keep at least kGoodFill of the SMs' time busy (the wave model of
//    schedule.h: tiles / (whole waves x SMs), one block per SM); if none does, the one that fills
//    most (the first of equals).
// 2. K, where the tile leaves the fill below kGoodFill. Fewer tiles than SMs: split K into
//    s = min(SMs / tiles, k-tiles / kMinSliceKTiles, kMaxSplits) slices where s >= 2, so the
//    slices fill the SMs. Otherwise (a ragged last wave, or too few tiles to split evenly):
//    stream-k, with the SK blocks CUTLASS's ThreadblockSwizzleStreamK heuristic picks (streamk.h
//    get_blocks); where it finds no saving, one block per tile.
// 3. Cluster: 2 x 1 (two m tiles share each B tile through TMA multicast) where there are at
//    least two m tiles and one block per tile; else 1 x 1.
// 4. Raster: CUTLASS 3's SM90 heuristic direction (raster.h: along M when there are more n tiles
//    than m tiles) and the swizzle 1, 2, 4 or 8 whose first wave reads the fewest A rows + B
//    columns per k-tile (its L2 footprint; the smallest swizzle of equals).
//   16 x 8192 x 8192 on 132 SMs -> 64 x 128, 64 tiles (48%) -> split K 2 ways, 128 blocks (97%)
//   64 x 28672 x 8192 -> 64 x 256, 112 tiles (85%) -> stream-k over 132 blocks
//   4096 x 8192 x 8192 -> 128 x 256, 1024 tiles in 8 waves (97%), cluster 2 x 1, along-n:8
#pragma once
#include <string>
#include <vector>

#include "gemmlab/device_presets.h"
#include "gemmlab/expected.h"
#include "gemmlab/raster.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab {

inline constexpr double kGoodFill = 0.9;       // share of SM time busy that needs no other split
inline constexpr int kDispatchTileK = 64;      // halves per k-tile: one 128-byte-swizzled TMA box
inline constexpr int kMinSliceKTiles = 8;      // a split-k slice keeps 512 of K: its fix-up stays small
inline constexpr int kMaxSplits = 16;

enum class KSplit { None, SplitK, StreamK };
const char* k_split_name(KSplit s);  // "none", "split-k", "stream-k"

// One candidate tile under the wave model.
struct TileFill {
  int tile_m = 0, tile_n = 0;
  long long tiles = 0;
  long long waves = 0;   // whole waves (the last one possibly partial)
  double fill = 0;       // tiles / (waves * SMs)
};

struct Dispatch {
  GemmCoord problem;
  int sms = 0;
  int tile_m = 0, tile_n = 0, tile_k = kDispatchTileK;
  int tiles_m = 0, tiles_n = 0, k_tiles = 0;
  int cluster_m = 1, cluster_n = 1;
  KSplit split = KSplit::None;
  int splits = 1;              // split-k slices (1 otherwise)
  int dp_tiles = 0;            // stream-k: tiles computed whole, one block each
  int sk_blocks = 0;           // stream-k: blocks that share the other tiles' k-iterations
  long long blocks = 0;        // blocks launched (split-k: tiles x slices)
  double fill = 0;             // share of SM time the launch keeps busy under the wave model
  RasterOrder raster = RasterOrder::AlongN;
  int swizzle = 1;             // max swizzle size 1, 2, 4, 8
  long long wave_footprint_bytes = 0;  // A rows + B columns the first wave reads, per k-tile
  std::string order;           // the raster as `gemmlab sim raster --order` takes it ("along-m:8")
  std::vector<TileFill> candidates;  // step 1's table, in candidate order
  std::string explanation;     // one line, the app shows it beside the Grid view
};

// The rule above for an fp16 problem on a device with d.sms SMs. Errors name the bad input.
Expected<Dispatch> dispatch_fp16(GemmCoord problem, const DeviceDesc& d);

// ---- The `auto` stage: which existing launch runs the problem (gemmlab/auto_dispatch.h) -------
// The rule above describes a kernel with 64-row tiles and a K split of its own; the `auto` stage
// runs what the ladder has: stage 17's or 19a-19f's launch, by auto_dispatch.h's rule. Its
// sentence is a template (a UI catalogue key, one "%s" per argument, "%%" for a percent sign) and
// its arguments, so that the app shows it in the learner's language:
//   16 x 8192 x 8192 on 132 SMs: "M = 16: 64 tiles of 64 x 128 fit the 132 SMs one block each ->
//   19e wgmma deep pipeline: 8 stages in flight per SM, K cut only where the tiles fill half the
//   SMs or fewer"
struct AutoDispatch {
  GemmCoord problem;
  int sms = 0;
  AutoPick pick;
  const StageDesc* stage = nullptr;  // the stage whose launch runs
  const char* format = "";           // the rule's sentence
  std::vector<std::string> args;
  std::string explanation;           // format filled with args (English)
};
Expected<AutoDispatch> dispatch_auto(GemmCoord problem, const DeviceDesc& d);
// Each "%s" of `format` replaced by the next argument, "%%" by "%".
std::string fill_sentence(const std::string& format, const std::vector<std::string>& args);
// Every sentence template of dispatch_auto, one per AutoRule (for the UI catalogue's test).
std::vector<const char*> auto_sentence_formats();

}  // namespace gemmlab
