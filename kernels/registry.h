// The stage registry as data: stages.def expanded once, with each stage's launch functions.
// `gemmlab bench`, the GPU tests and `gemmlab bench --list --json` all read this table.
#pragma once
#include <span>
#include <string_view>

#include "stage_api.h"

namespace gemmlab::kernels {

enum class Track { fp32, fp16 };

// "fp32" / "fp16", as in stages.def and the results JSON.
const char* track_name(Track t);

struct StageInfo {
  const char* id;      // "simt-tile"
  const char* name;    // "3 SIMT 128x128x8"
  Track track;
  const char* lesson;  // lesson folder id, e.g. "05-register-tiling"
  int tile_m, tile_n, tile_k, threads;
  const char* loads;  // "ldg" or "cp_async": how the main loop reads A and B
  // Null when the stage's kernels/stages/*.cu file is not in this build (written in parallel).
  StageLaunch (*get)();
  bool built() const { return get != nullptr; }
};

std::span<const StageInfo> stage_registry();
const StageInfo* find_stage(std::string_view id);  // nullptr when no stage has this id

}  // namespace gemmlab::kernels
