// Run-time form of gmma_layout.h for the GUI and the CLI: parse and check a GMMA tile layout, list
// its offsets, and describe a wgmma operand (descriptor fields and the core matrices it covers).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/gmma_layout.h"

namespace gemmlab {

Expected<gmma::Swizzle> parse_gmma_swizzle(const std::string& text);  // none | 32B | 64B | 128B
Expected<gmma::Major> parse_gmma_major(const std::string& text);      // K | MN
const char* gmma_swizzle_name(gmma::Swizzle s);
const char* gmma_major_name(gmma::Major m);

inline constexpr long long kMaxGmmaTileElements = 1 << 16;  // 128 KB of halves: any wgmma tile
// The layout, or a message naming the rule: 8, 16 or 32-bit elements, R and C multiples of the
// atom, at most kMaxGmmaTileElements.
Expected<gmma::TileLayout> make_gmma_layout(gmma::Swizzle s, gmma::Major m, long long element_bits, long long rows,
                                            long long cols);
// CuTe's offsets: element (r, c) at r * cols + c.
std::vector<long long> gmma_layout_offsets(const gmma::TileLayout& t);

// One 8 x 16-byte core matrix of a wgmma operand: rows row0..row0+7, K elements k0.. (16 bytes).
struct CoreMatrix {
  int row0 = 0, k0 = 0;
  std::uint32_t byte = 0;  // where its first row's first element sits, after the swizzle
};

struct OperandDescriptor {
  std::uint64_t bits = 0;
  std::uint32_t start = 0, leading = 0, stride = 0;  // bytes
  int layout_field = 0;                              // bits 62-63: 0 none, 1 128B, 2 64B, 3 32B
  int rows = 0;                                      // 64 for A, N for B
  int k0 = 0;                                        // first K element of the k16 step
  std::vector<CoreMatrix> cores;                     // row-group major, then K
};
// The operand of one wgmma k step: rows [row0, row0 + rows) and 32 bytes of K from k0.
Expected<OperandDescriptor> describe_gmma_operand(const gmma::TileLayout& t, int row0, int rows, int k0);

// Shared memory as the layout fills it, 16 bytes at a time (the unit a swizzle moves, and 4 of the
// 32 banks): chunk b holds the span-run of elements that starts at (row, col).
struct SmemChunk {
  int row = 0, col = 0;  // the first element the chunk holds
  int bank_group = 0;    // (byte / 16) % 8: banks 4g .. 4g+3
};
std::vector<SmemChunk> gmma_smem_chunks(const gmma::TileLayout& t);  // index = byte / 16

// "m64nNk16" -> N (8..256, a multiple of 8), or a message.
Expected<int> parse_wgmma_shape(const std::string& text);

}  // namespace gemmlab
