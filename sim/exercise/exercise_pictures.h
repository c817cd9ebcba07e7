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

namespace gemmlab::exercise {

// 14-implicit-gemm/im2col: one GEMM row of A (an output pixel) as its 3 x 3 window over the
// 7 x 7 input, where the convolution reads (conv::window_of, the Conv view's model) and where
// the learner's channel-0 column of each tap reads; and the whole 32 x 72 A, element by element.
struct Im2colTap {
  int r = 0, s = 0;
  int h = 0, w = 0;       // the input pixel read; for the learner's -1, the window's pixel
  bool placed = false;    // false: the learner's offset is no pixel of this row's image
  bool padding = false;   // the tap reads the padding (the learner: returned -1)
  bool right = false;     // all its channels read what the convolution reads
};
enum class Im2colCell : unsigned char { Right, Padding, Wrong };  // Padding: a right -1
struct Im2colPicture {
  int image_h = 0, image_w = 0;
  int row = 0;                     // the row drawn: the first with a wrong element, else 0
  int n = 0, p = 0, q = 0;         // its output pixel
  std::vector<Im2colTap> taps;     // r-major, R * S of them
  int rows = 0, cols = 0;          // A: 32 x 72
  std::vector<Im2colCell> cells;   // row-major; empty when the table does not fit
  int wrong = 0;                   // elements of A that read the wrong input
};
Im2colPicture im2col_picture(const ValueTable& learner);
Im2colPicture im2col_picture_conv(int row);  // the convolution's own (every element right)

// 15-tma/box-coords: the boxes of one block's k-tiles on the 512 x 512 A (K across, m down) and
// B (K across, n down, as it is stored), where the learner's coordinates put them and where
// stage 15's are; the TMA model (gemmlab/tma_map.h) says how much of each box is in the tensor.
struct TmaBox {
  long long inner = 0, outer = 0;  // start, elements
  long long in_bounds = 0;         // of box_inner * box_outer; the rest the TMA fills with zeros
  bool right = false;
};
struct TmaOperandPicture {
  long long dims[2] = {0, 0};      // inner (K), outer (m or n)
  int box[2] = {0, 0};
  std::vector<TmaBox> boxes;       // one per k-tile; empty when the table does not fit
};
struct TmaBoxPicture {
  int m_block = 0, n_block = 0;    // the block drawn: the first with a wrong box, else (1, 1)
  TmaOperandPicture a, b;
};
TmaBoxPicture tma_box_picture(const ValueTable& learner);
TmaBoxPicture tma_box_picture_stage(int m_block, int n_block);

// 17-warp-specialized/mbarrier-parity: the phase plan of one ring over a few k-tiles: the parity
// the consumer waits for on full[k % S] and the producer on empty[k % S] (-1: no wait), the
// learner's and the stage's (the pipeline simulator's trace of warp-specialized:S), and where the
// mbarrier ring finds the learner's plan racing or deadlocking.
struct ParityPlanPicture {
  int stages = 0;
  int first_k = 0;                  // the k-tiles drawn: first_k .. first_k + full.size() - 1
  std::vector<int> full, empty;     // the learner's; empty when the table does not fit
  std::vector<int> stage_full, stage_empty;
  enum class Verdict { Ok, NotAParity, Race, Deadlock } verdict = Verdict::Ok;
  int failed_k = -1;                // the k-tile the ring stops at (-1: the plan holds)
};
// The ring the verdict names (the first of 2..8 stages the plan fails at), else 3 stages.
ParityPlanPicture parity_plan_picture(const ValueTable& learner);

}  // namespace gemmlab::exercise
