// What the exercise panel draws beside the stage's own version. 09-swizzle/smem-offset: the
// first 8x8 matrix the stage's ldmatrix.x4 reads (A rows 0-7 at k 0), the four banks each row's
// 16 bytes land in, and the wavefronts the bank model gives the whole .x4.
#pragma once
#include <array>
#include <vector>

#include "grader.h"

namespace gemmlab::exercise {

struct LdsmMatrixBanks {
  std::array<int, 8> first_bank{};  // row r's 16 bytes are banks first_bank[r] .. + 3
  int matrix_wavefronts = 0;        // of matrix 0 (1 when conflict-free)
  int x4_wavefronts = 0;            // of the .x4 (4 when conflict-free)
  bool ok = false;                  // false when the offsets are out of the tile
};

LdsmMatrixBanks ldsm_matrix_banks(const ValueTable& learner);  // the table of a smem-offset grade
LdsmMatrixBanks ldsm_matrix_banks_stage();                      // stage 9's Swizzle<3,3,3>

}  // namespace gemmlab::exercise

namespace gemmlab::exercise {

// 04-thread-maps/coalesced-map: the elements (s * 128 + c) warp 0's access 0 loads, and the
// 32-byte sectors they touch, for the learner's table and for the simulator's stripmined map.
struct WarpAccessPicture {
  std::vector<long long> elements;  // 32, or empty when the table does not fit
  int sectors = 0;
};
WarpAccessPicture warp_access_picture(const ValueTable& learner);
WarpAccessPicture warp_access_picture_stripmined();

// 11-block-swizzle/block-order: the C tiles (m * tiles_n + n) of the launch's first wave (the
// blocks the H200's SMs hold at once, from the launch plan), for the learner's order and for
// the stage's own.
struct FirstWavePicture {
  int tiles_m = 0, tiles_n = 0;
  std::vector<long long> tiles;  // empty when the table does not fit
};
FirstWavePicture first_wave_picture(const ValueTable& learner);
FirstWavePicture first_wave_picture_stage();

}  // namespace gemmlab::exercise
