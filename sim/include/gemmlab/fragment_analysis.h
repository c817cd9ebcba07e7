// Run-time form of fragments.h for the GUI and the CLI: for one instruction, list which lane
// supplies which row address (ldmatrix) and which (lane, register, element) holds which element of
// the tile.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/fragments.h"

namespace gemmlab {

enum class FragmentOp : int {
  LdsmX1, LdsmX2, LdsmX4, MmaM16n8k16F16, MmaM16n8k16Bf16, MmaM8n8k32S4,
  WgmmaM64nNk16F16,  // warpgroup MMA: 128 threads ("lanes" 0..127), N = wgmma_n; A and D fragments
};
enum class FragmentOperand : int { None, A, B, C };
enum class Accumulator : int { F32, F16 };  // m16n8k16 C/D: four .f32 or two .f16x2 registers

struct FragmentRequest {
  FragmentOp op = FragmentOp::MmaM16n8k16F16;
  bool trans = false;                           // ldmatrix .trans
  FragmentOperand operand = FragmentOperand::None;  // required for mma; optional for ldmatrix
  Accumulator accumulator = Accumulator::F32;   // mma.m16n8k16 operand C only
  int wgmma_n = 64;                             // WgmmaM64nNk16F16: N (8..256, a multiple of 8)
};

// One element a lane holds after the instruction.
struct FragmentElement {
  int lane = 0;      // wgmma: the warpgroup's thread 0..127
  int reg = 0;      // destination register (ldmatrix: = matrix)
  int element = 0;  // element within the register, low to high
  int index = 0;    // PTX's element name: a_i / b_i / c_i (ldmatrix: 2 * reg + element)
  int matrix = -1;  // ldmatrix: which 8x8 matrix; -1 for mma
  FragCoord at;     // (row, col) in the tile (see FragmentMap::tile_rows)
};

// ldmatrix: the row address one lane supplies.
struct RowAddress {
  int lane = 0;
  bool used = false;  // .x1 reads lanes 0..7 only, .x2 lanes 0..15
  int matrix = 0;
  int row = 0;         // row of that matrix
  FragCoord start;     // with an operand: the operand-tile element where the 8-element row starts
};

struct FragmentMap {
  FragmentRequest request;
  // mma: the operand tile (A m x k, B k x n, C m x n). ldmatrix alone: the 8*num x 8 tile of the
  // matrices stacked (row 8m + r is row r of matrix m). ldmatrix with an operand: the mma operand
  // tile the matrices make up.
  int tile_rows = 0, tile_cols = 0;
  int registers_per_lane = 0, elements_per_register = 0, element_bits = 0;
  bool row_runs_down = false;  // ldmatrix with operand: an address row runs down a tile column
  std::vector<FragmentElement> elements;  // lane-major, then register, then element
  std::vector<RowAddress> addresses;      // ldmatrix only: one per lane
  std::string note;                       // what the PTX ISA adds (unused lanes, packing)
};

Expected<FragmentMap> analyze_fragment(const FragmentRequest& r);

// The (lane, register, element) holding tile element (row, col); refuses coordinates off the tile.
Expected<FragmentElement> fragment_owner(const FragmentMap& m, int row, int col);

// The whole tile at once (the fragments view's picture): per element, row-major, the index into
// m.elements of the fragment element that holds it, or -1.
std::vector<int> fragment_element_grid(const FragmentMap& m);

// "ldsm.x4.trans" -> {LdsmX4, trans}; "mma.m16n8k16.f16" -> {MmaM16n8k16F16}.
Expected<FragmentRequest> parse_fragment_op(const std::string& name);
Expected<FragmentOperand> parse_fragment_operand(const std::string& name);
std::string fragment_op_name(const FragmentRequest& r);
const char* fragment_operand_name(FragmentOperand o);
bool fragment_op_is_ldsm(FragmentOp op);

}  // namespace gemmlab
