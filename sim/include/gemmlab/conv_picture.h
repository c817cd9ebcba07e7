// What the Conv view shows of an implicit-GEMM convolution, computed with the conv stages' own
// functions (gemmlab/conv_problem.h, the FP16 ladder's thread map of gemmlab/fp16_smem_tile.h):
//   - the window of one GEMM row (output pixel) over its input image, padding included;
//   - a block's slice of the implicit im2col matrix: its rows x the R*S taps, padding marked;
//   - the A-tile copy of one k-tile: which thread loads which 16-byte vector from which (n, h, w, c),
//     or (stage 14d) which pixel the TMA's im2col box puts in each row;
//   - which (row, tap) cells of the slice read a given input pixel (the inverse mapping).
// sim/tests/test_conv_picture.cpp checks them against the address function directly.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/conv_problem.h"
#include "gemmlab/expected.h"

namespace gemmlab::conv {

struct WindowCell {
  int r, s;   // filter tap
  int h, w;   // input coordinate (may lie in the padding)
  bool in_tensor;
};

// The R*S cells row m's window covers, r-major.
std::vector<WindowCell> window_of(const Shape& sh, long long m);

// One 16-byte vector of the A tile's copy for one k-tile (stage 14a's ImplicitGemmCopyA).
struct TileLoad {
  int thread, access;     // thread of the block, its access i
  int row_in_tile;        // GEMM row inside the tile
  int k_in_tile;          // first element inside the k-tile
  long long m;            // GEMM row
  int kk;                 // first GEMM k of the vector (its elements_per_vector channels follow)
  bool row_valid, k_valid;
  Nhwc input;             // the first element's input coordinate
  bool in_tensor;         // false: zero-filled (padding, a row past M or k past R*S*C)
  long long offset;       // activation_offset of the first element, -1 when not read
};

struct TileLoadRequest {
  Shape shape;
  Element element = Element::F16;
  int tile = -1;          // index into kTiles; -1: choose_tile(shape, sms)
  int sms = 132;
  long long block_m = 0;  // which block along M (blockIdx.x)
  int k_tile = 0;         // which k-tile of the main loop
  // Stage 14d's copy instead: one TMA im2col box of the stage's tile rows x 64 channels per k-tile
  // (conv::wgmma_tile, im2col_box_pixel), fp16 with C % 64 == 0; `tile` is ignored.
  bool tma_box = false;
};

struct TileLoads {
  int tile;               // the tile used (index into kTiles; -1 for a TMA box)
  int tile_m, tile_n;     // its rows and columns
  long long blocks;       // the launch's blocks (stage 14d: with its k slices, or its resident blocks)
  int rows, threads, accesses_per_thread, elements_per_vector, k_tile_elements;
  long long k_tiles;      // of the whole main loop
  bool matrix_box = false;  // stage 14d: a 2D box of the input's rows (a_is_matrix), not an im2col box
  std::vector<TileLoad> loads;  // thread-major, then access
};

// Refuses shapes check_shape refuses, a block or k-tile outside the launch, and an unknown tile.
Expected<TileLoads> tile_loads(const TileLoadRequest& request);

// The (row, tap) cells among rows [m0, m0 + rows) whose window reads input pixel (n, h, w).
struct RowTap {
  long long m;
  int r, s;
};
std::vector<RowTap> readers_of(const Shape& sh, long long m0, int rows, int n, int h, int w);

}  // namespace gemmlab::conv
