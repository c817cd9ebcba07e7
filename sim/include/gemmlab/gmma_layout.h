// The shared-memory layouts a warpgroup MMA (wgmma) reads, in all four swizzle modes and both
// majors, and the matrix descriptor that describes each of them. No CUDA here; the Hopper kernels'
// own 128-byte K-major case (gemmlab/tma_box.h, gemmlab/gmma_desc.h) is one instance of it, and
// sim/tests/test_gmma_layout.cpp holds every case to CuTe's values (cute_hopper_layouts.json).
//
// A layout is an atom of 8 "rows" of one swizzle span (16, 32, 64 or 128 bytes), tiled over the
// R x C tile column-major (down R first, then along C), as CuTe's
// tile_to_shape(GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>, (R,C)) does. r is the M or N
// index, c the K index.
//   K-major:  the span runs along K; the atom is 8 rows (r) x span/elem (c).
//   MN-major: the span runs along M or N; the atom is span/elem (r) x 8 (c).
// The swizzle is Swizzle<B,4,3> on byte offsets (B = 0, 1, 2, 3 for none, 32B, 64B, 128B): the
// 16-byte chunk index (bits 4..) is XORed with the 8-row index (bits 7..), so one repeat is
// 8 spans = 128, 256, 512 or 1024 bytes and a tile's base must be aligned to it.
//   K 128B, 16-bit, (8,64):  (1,0) -> 72   (row 1 chunk 0 -> chunk 1)
//   MN 32B, 16-bit, (32,16): (0,4) -> 72, (0,8) -> 256 (the next K atom after two MN atoms)
#pragma once
#include <cstdint>

#include "gemmlab/fragments.h"
#include "gemmlab/gmma_desc.h"
#include "gemmlab/hd.h"
#include "gemmlab/swizzle.h"

namespace gemmlab::gmma {

enum class Swizzle : int { None = 0, B32 = 1, B64 = 2, B128 = 3 };  // the B of Swizzle<B,4,3>
enum class Major : int { K = 0, MN = 1 };

GL_HD constexpr int span_bytes(Swizzle s) { return 16 << static_cast<int>(s); }   // 16 .. 128
GL_HD constexpr int repeat_bytes(Swizzle s) { return 8 * span_bytes(s); }        // 128 .. 1024
GL_HD constexpr SmemLayout descriptor_layout(Swizzle s) {
  return s == Swizzle::None ? SmemLayout::Interleave
         : s == Swizzle::B32 ? SmemLayout::Swizzle32B
         : s == Swizzle::B64 ? SmemLayout::Swizzle64B
                             : SmemLayout::Swizzle128B;
}

// The byte swizzle applied to an offset from a repeat-aligned base (what TMA writes and wgmma reads).
GL_HD constexpr long long swizzle_byte(Swizzle s, long long byte) {
  return swizzle_apply(SwizzleParams{static_cast<int>(s), 4, 3}, byte);
}

struct TileLayout {
  Swizzle swizzle = Swizzle::B128;
  Major major = Major::K;
  int element_bits = 16;  // 8, 16 or 32
  int rows = 64;          // R: M or N
  int cols = 64;          // C: K

  GL_HD constexpr int span_elements() const { return span_bytes(swizzle) * 8 / element_bits; }
  GL_HD constexpr int atom_rows() const { return major == Major::K ? 8 : span_elements(); }
  GL_HD constexpr int atom_cols() const { return major == Major::K ? span_elements() : 8; }
  GL_HD constexpr int atom_elements() const { return 8 * span_elements(); }
  GL_HD constexpr int atoms_down() const { return rows / atom_rows(); }
  GL_HD constexpr int bytes() const { return rows * cols * element_bits / 8; }

  // Offset before the swizzle, in elements: atom (r / atom_rows, c / atom_cols) column-major,
  // inside it row-major along the span.
  GL_HD constexpr long long linear(int r, int c) const {
    const int inside = major == Major::K ? (r % 8) * span_elements() + c % span_elements()
                                         : (c % 8) * span_elements() + r % span_elements();
    const long long atom = r / atom_rows() + static_cast<long long>(atoms_down()) * (c / atom_cols());
    return atom * atom_elements() + inside;
  }
  // Offset in elements from the tile's base: CuTe's value for (r, c).
  GL_HD constexpr long long offset(int r, int c) const {
    return swizzle_byte(swizzle, linear(r, c) * element_bits / 8) * 8 / element_bits;
  }
  GL_HD constexpr long long byte_offset(int r, int c) const { return offset(r, c) * element_bits / 8; }
};

static_assert(TileLayout{Swizzle::B128, Major::K, 16, 8, 64}.offset(1, 0) == 72);
static_assert(TileLayout{Swizzle::B32, Major::MN, 16, 32, 16}.offset(0, 4) == 72);
static_assert(TileLayout{Swizzle::B32, Major::MN, 16, 32, 16}.offset(0, 8) == 256);
// The kernels' TMA box (64-half rows, 128B) is the K-major 128B layout of a box's rows.
static_assert(TileLayout{Swizzle::B128, Major::K, 16, 128, 64}.byte_offset(9, 24) == tma::sw128_offset(9, 24));

// The PTX ISA's leading and stride byte offsets for a tile in this layout (section "Matrix
// Descriptor Format", canonical layouts in units of T = 16 bytes):
//   K-major  none: ((8,m),(T,2k)):((1T,SBO),(1,LBO))   swizzled: ((8,m),(T,2k)):((sT,SBO),(1,T))
//   MN-major none: ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)) swizzled: ((T,s,m),(8,k)):((1,T,LBO),(sT,SBO))
// with s = span / 16. In the column-major tiling the next atom down is one repeat away and the
// next atom along K is atoms_down repeats away.
struct Offsets {
  std::uint32_t leading = 0;
  std::uint32_t stride = 0;
};
GL_HD constexpr Offsets descriptor_offsets(const TileLayout& t) {
  const std::uint32_t down = static_cast<std::uint32_t>(repeat_bytes(t.swizzle));
  const std::uint32_t across = down * static_cast<std::uint32_t>(t.atoms_down());
  if (t.major == Major::K)
    return t.swizzle == Swizzle::None ? Offsets{across, down} : Offsets{16u, down};  // LBO unused: 1
  return t.swizzle == Swizzle::None ? Offsets{across, down} : Offsets{down, across};
}
static_assert(descriptor_offsets(TileLayout{Swizzle::B128, Major::K, 16, 128, 64}).stride == kStrideBytesSw128);

// The descriptor of the wgmma operand that starts at (row0, k0) of a tile placed at tile_address
// (aligned to the repeat). row0 is a multiple of the atom's rows, k0 of 16 bytes of K.
GL_HD constexpr std::uint64_t descriptor(const TileLayout& t, std::uint32_t tile_address, int row0, int k0) {
  const Offsets o = descriptor_offsets(t);
  const std::uint32_t start = tile_address + static_cast<std::uint32_t>(t.linear(row0, k0) * t.element_bits / 8);
  return encode(start, o.leading, o.stride, descriptor_layout(t.swizzle));
}
static_assert(descriptor(TileLayout{Swizzle::B128, Major::K, 16, 128, 64}, 0x400, 64, 16) ==
              sw128_k_major(0x400, 64, 16));

// What the tensor core reads for element (r, k) of the operand a descriptor names, computed from
// the descriptor's fields and the canonical layout alone (not from TileLayout): the byte address,
// swizzled on its absolute bits. r < 64 (A) or N (B), k < 32 bytes of K.
GL_HD constexpr std::uint32_t descriptor_address(std::uint64_t desc, Major major, int element_bits, int r, int k) {
  const std::uint32_t start = static_cast<std::uint32_t>(desc & 0x3FFF) << 4;
  const std::uint32_t lbo = static_cast<std::uint32_t>((desc >> 16) & 0x3FFF) << 4;
  const std::uint32_t sbo = static_cast<std::uint32_t>((desc >> 32) & 0x3FFF) << 4;
  const int layout = static_cast<int>(desc >> 62);
  const Swizzle s = layout == 0 ? Swizzle::None : layout == 3 ? Swizzle::B32 : layout == 2 ? Swizzle::B64 : Swizzle::B128;
  const int t = 128 / element_bits;  // elements per 16 bytes
  const int span = span_bytes(s) / 16;  // 16-byte units per swizzle span
  std::uint32_t bytes = 0;
  if (major == Major::K) {
    const std::uint32_t kb = static_cast<std::uint32_t>(k * element_bits / 8);
    bytes = static_cast<std::uint32_t>(r / 8) * sbo + static_cast<std::uint32_t>(r % 8) * 16u * span +
            (s == Swizzle::None ? (kb / 16) * lbo + kb % 16 : kb);
  } else {
    const std::uint32_t eb = static_cast<std::uint32_t>(element_bits / 8);
    const std::uint32_t inner = static_cast<std::uint32_t>(r % t) * eb + static_cast<std::uint32_t>(k % 8) * 16u * span;
    if (s == Swizzle::None)
      bytes = inner + static_cast<std::uint32_t>(r / t) * sbo + static_cast<std::uint32_t>(k / 8) * lbo;
    else
      bytes = inner + static_cast<std::uint32_t>((r / t) % span) * 16u + static_cast<std::uint32_t>(r / (t * span)) * lbo +
              static_cast<std::uint32_t>(k / 8) * sbo;
  }
  return static_cast<std::uint32_t>(swizzle_byte(s, start + bytes));
}

// wgmma fragments for m64nNk16 (PTX ISA "Matrix Fragments for wgmma.mma_async.m64nNk16"): warp w
// of the warpgroup owns rows 16 w .. 16 w + 15, and inside them each warp holds what mma.sync
// m16n8k16 holds. Accumulator d[i]: n8 block i / 4, c[i % 4] (gmma_desc.h). A from registers
// (16-bit): a[i] as mma.sync's a[i], 8 halves per thread.
//   thread 37: a0 (17,2), a7 (25,11)
GL_HD constexpr FragCoord a_fragment(int thread, int i) {
  const FragCoord a = mma_m16n8k16_a(thread % 32, i);
  return {16 * (thread / 32) + a.row, a.col};
}
static_assert(a_fragment(37, 0) == FragCoord{17, 2} && a_fragment(37, 7) == FragCoord{25, 11});

constexpr bool wgmma_n_valid(int n) { return n >= 8 && n <= 256 && n % 8 == 0; }

}  // namespace gemmlab::gmma
