// Bank scenarios: the banks view and the lessons describe a warp instruction by a shared-memory
// tile (layout, shape, element width) and an access pattern, not by 32 raw addresses. This turns
// such a description into the 32 addresses, analyses them with banks.h, and gives every element
// of the tile its byte address and bank, so the view can draw the tile over the 32 banks.
//
//   rowmajor 16x64 halves (128 B per row), ldsm.x4 at (0,0): each matrix's 8 rows are 128 B apart,
//   all in banks 0-3 -> 8 wavefronts per matrix, 32/28 in all; Swizzle<3,3,3> or 8 bytes of
//   padding per row spread them over all 32 banks -> 4/0.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "gemmlab/banks.h"
#include "gemmlab/expected.h"
#include "gemmlab/swizzle.h"

namespace gemmlab {

enum class SmemLayoutKind {
  RowMajor,  // element (r, c) at (r * cols + c) * element bytes
  Padded,    // each row followed by pad_bytes unused bytes
  Swizzle,   // row-major element offset passed through CuTe Swizzle<B,M,S>
  TensorOp,  // CUTLASS RowMajorTensorOpMultiplicandCrosswise<element_bits, crosswise>: the
             // A-operand smem layout (K = cols contiguous), row-major tile packed with ld = cols
};

enum class BankPattern {
  Ldmatrix,  // ldsm.xN, A-operand style: matrix i at rows (i%2)*8.., columns (i/2)*16 bytes..
  Rows,      // lane i -> row (origin row + i) mod rows, column origin col
  Linear,    // lane i -> row-major element index (origin) + i * elements per access
};

Expected<SmemLayoutKind> parse_smem_layout(std::string_view name);  // "rowmajor", "padded", ...
const char* smem_layout_name(SmemLayoutKind kind);
Expected<BankPattern> parse_bank_pattern(std::string_view name);  // "ldmatrix", "rows", "linear"
const char* bank_pattern_name(BankPattern pattern);

struct BankScenarioParams {
  SmemLayoutKind layout = SmemLayoutKind::RowMajor;
  int rows = 16;  // tile shape in elements
  int cols = 64;
  int element_bits = 16;  // 8, 16 or 32
  int pad_bytes = 0;      // Padded only
  SwizzleParams swizzle{3, 3, 3};  // Swizzle only: on element offsets
  // TensorOp only: Crosswise in elements; 0 = the tile's columns (the tile's K, which CUTLASS's
  // DefaultMmaCore passes as Shape::kK), capped at one 128-byte line.
  int crosswise = 0;
  SmemOp op{SmemOpKind::Ldmatrix, 16, 4, false};
  BankPattern pattern = BankPattern::Ldmatrix;
  int origin_row = 0;
  int origin_col = 0;
};

struct TileCell {
  long long byte = 0;  // byte address of the element in shared memory
  int bank = 0;        // bank of the 4-byte word holding it
  int lane = -1;       // the lane whose access covers it, -1 if the instruction does not touch it
};

struct LaneElement {
  int row = 0;  // first element of the lane's access (ldmatrix: of its 16-byte row)
  int col = 0;
  int elements = 0;  // elements the access covers; 0 for lanes that give no address
};

struct BankScenario {
  BankScenarioParams params;
  std::array<LaneElement, kWarpLanes> lane_elements{};
  WarpRequest request;    // the 32 addresses handed to analyze_banks
  BankAnalysis analysis;
  std::vector<TileCell> cells;  // rows * cols, row by row
  long long tile_bytes = 0;     // bytes the layout spans, padding included
  int crosswise = 0;            // TensorOp: the Crosswise actually used
  const TileCell& cell(int row, int col) const { return cells[size_t(row) * params.cols + col]; }
};

// Byte address of element (row, col) under the layout, or a message saying why the parameters do
// not describe a layout (bad shape, swizzle out of the tile, pad not whole elements, ...).
Expected<long long> scenario_element_address(const BankScenarioParams& p, int row, int col);

Expected<BankScenario> build_bank_scenario(const BankScenarioParams& params);

// The view's before/after: the same tile, op, pattern and origin, row-major vs the chosen layout.
struct BankComparison {
  BankScenario rowmajor;
  BankScenario chosen;
};
Expected<BankComparison> compare_with_rowmajor(const BankScenarioParams& params);

// The tile over the 32 banks, word by word, as the Banks view draws it: 128-byte lines of 32 words.
struct BankWordMap {
  int lines = 0;                                // 128-byte lines the tile spans
  std::vector<int> word_element;                // per word: row * cols + col of its first element, or -1
  std::array<std::vector<int>, 4> word_lane;    // per phase: the first lane asking for the word, or -1
  int cols = 0;                                 // the tile's columns
  // (row, col) of the first element in `word`, or -1 when the word holds none (padding).
  int element_row(size_t word) const { return word_element[word] < 0 ? -1 : word_element[word] / cols; }
  int element_col(size_t word) const { return word_element[word] < 0 ? -1 : word_element[word] % cols; }
};
BankWordMap bank_word_map(const BankScenario& s);

// Distinct words asked of each bank: in one phase, or the most over all phases (phase -1). The
// tallest bank is the phase's wavefront count.
std::array<int, kSmemBanks> words_per_bank(const BankAnalysis& a, int phase);

}  // namespace gemmlab
