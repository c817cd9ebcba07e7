// How a warpgroup MMA (wgmma.mma_async, PTX ISA 9.7.15) finds its operands in shared memory and
// where its accumulators land in registers. No CUDA here: the Hopper kernels build their
// descriptors and store their accumulators with these functions, and the simulator and
// sim/tests/test_hopper_addressing.cpp list the same values.
//
// Operands: the TMA box of gemmlab/tma_box.h, K-major with the 128-byte swizzle. A wgmma of
// m64nNk16 reads 64 rows (A) or N rows (B) x 16 halves = 32 bytes of each row. The descriptor says
// where the first 8-row x 16-byte core matrix starts and how far apart the next ones are:
//   start address >> 4 in bits 0-13, leading byte offset >> 4 in bits 16-29 (unused by swizzled
//   K-major layouts; 1 by convention), stride byte offset >> 4 in bits 32-45 (1024: the next 8
//   rows), base offset in bits 49-51 (0: boxes start 1024-byte aligned), layout in bits 62-63
//   (1 = 128-byte swizzle).
// The k16 step kk of a 64-half box starts 32 * kk bytes further: the hardware applies the swizzle
// to the address bits it computes, the same XOR the TMA applied when it wrote them.
//   desc(0x400, sw128) = 0x4000004000010040
#pragma once
#include <cstdint>

#include "gemmlab/fragments.h"
#include "gemmlab/hd.h"
#include "gemmlab/tma_box.h"

namespace gemmlab::gmma {

enum class SmemLayout : int { Interleave = 0, Swizzle128B = 1, Swizzle64B = 2, Swizzle32B = 3 };

constexpr std::uint32_t kStrideBytesSw128 = 8 * tma::kRowBytes;  // 1024: 8 rows of 128 bytes
constexpr std::uint32_t kLeadingBytesSw128 = 16;                 // ignored for swizzled K-major

GL_HD constexpr std::uint64_t encode(std::uint32_t smem_address, std::uint32_t leading_bytes,
                                     std::uint32_t stride_bytes, SmemLayout layout) {
  return (std::uint64_t((smem_address & 0x3FFFF) >> 4)) |
         (std::uint64_t((leading_bytes & 0x3FFFF) >> 4) << 16) |
         (std::uint64_t((stride_bytes & 0x3FFFF) >> 4) << 32) |
         (std::uint64_t(static_cast<int>(layout)) << 62);
}

// The descriptor of rows [row0, row0 + 64 or N) at k step kk (halves, multiple of 16) of a
// 128-byte-swizzled box that starts at box_address (1024-byte aligned).
GL_HD constexpr std::uint64_t sw128_k_major(std::uint32_t box_address, int row0, int kk) {
  return encode(box_address + static_cast<std::uint32_t>(row0 * tma::kRowBytes + 2 * kk),
                kLeadingBytesSw128, kStrideBytesSw128, SmemLayout::Swizzle128B);
}
static_assert(sw128_k_major(0x400, 0, 0) == 0x4000004000010040ull);
static_assert(sw128_k_major(0x400, 64, 16) - sw128_k_major(0x400, 0, 0) == (64 * 128 + 32) >> 4);

// Accumulator fragment of wgmma .m64nNk16 with f32 D (PTX ISA figure "WGMMA .m64nNk16 register
// fragment layout for accumulator matrix D"): thread t of the warpgroup (warp w = t / 32) holds
// N / 2 floats; d[i] is in n8 block i / 4 and, inside it, where mma.sync m16n8k16 puts c[i % 4]
// of the warp's 16 rows 16 w .. 16 w + 15.
//   thread 0: d0 (0,0) d1 (0,1) d2 (8,0) d3 (8,1) d4 (0,8); thread 37: d0 (17,2)
GL_HD constexpr FragCoord accumulator(int thread, int i) {
  const FragCoord c = mma_m16n8k16_c(thread % 32, i % 4);
  return {16 * (thread / 32) + c.row, 8 * (i / 4) + c.col};
}
static_assert(accumulator(0, 3) == FragCoord{8, 1} && accumulator(0, 4) == FragCoord{0, 8});
static_assert(accumulator(37, 0) == FragCoord{17, 2} && accumulator(127, 127) == FragCoord{63, 255});

// Stage 19's TMA epilogue: where accumulator i of warpgroup thread t lands in the staging slot of
// its 32-column chunk (i / 16). The slot holds the chunk as two C boxes (tma_box.h): rows 0-31 of
// the warpgroup's 64, then rows 32-63.
//   thread 0: d0 -> 0, d1 -> 128 + 16 (column 1's 16-byte chunk 0 swizzled to 1), d4 -> 1024
GL_HD constexpr std::uint32_t c_staging_offset(int t, int i) {
  const FragCoord e = accumulator(t, i);
  return static_cast<std::uint32_t>((e.row / tma::kCBoxRows) * tma::kCBoxBytes) +
         tma::c_box_offset(e.row % tma::kCBoxRows, e.col % tma::kCBoxCols);
}
// The swizzle XORs a column's bits 0-2 into the row's bytes, and the n8 block inside the chunk
// (i % 16 / 4) only moves the column by 8: each block is the thread's first four offsets plus
// 1 KB. A kernel keeps four bases and stores with immediate offsets (test_hopper_addressing.cpp
// checks every thread and accumulator).
GL_HD constexpr std::uint32_t c_staging_step(int i) { return static_cast<std::uint32_t>(i % 16 / 4 * 1024); }
static_assert(c_staging_offset(0, 0) == 0 && c_staging_offset(0, 1) == 144 && c_staging_offset(0, 4) == 1024);
static_assert(c_staging_offset(37, 22) == c_staging_offset(37, 2) + c_staging_step(22));

}  // namespace gemmlab::gmma
