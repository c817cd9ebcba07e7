// A 2D TMA tensor map as cuTensorMapEncodeTiled takes it (global shape and row stride, box, element
// size, swizzle, out-of-bounds fill) and where each element of one box lands in shared memory.
// No CUDA here. The box is written row after row (box row j = outer index, inner index i), each row
// box[0] * element bytes long, and the swizzle of gmma_layout.h is applied to the byte offsets:
// the same bytes a K-major GMMA layout of that swizzle expects (sim/tests/test_gmma_layout.cpp).
//   128B, 16-bit, box (64, 8): element (8, 1) -> byte 128 + (16 ^ 16) = 128
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/gmma_layout.h"
#include "gemmlab/hd.h"

namespace gemmlab::tma {

enum class OobFill : int { Zero = 0, Nan = 1 };  // CU_TENSOR_MAP_FLOAT_OOB_FILL_{NONE, NAN_REQUEST_ZERO_FMA}

struct TensorMap2D {
  long long dims[2] = {4096, 4096};         // elements: inner (contiguous), outer
  long long row_stride_bytes = 8192;        // bytes between outer indices
  int box[2] = {64, 128};                   // elements: inner, outer
  int element_bits = 16;                    // 8, 16, 32 or 64
  gmma::Swizzle swizzle = gmma::Swizzle::B128;
  OobFill fill = OobFill::Zero;

  GL_HD constexpr int row_bytes() const { return box[0] * element_bits / 8; }
  GL_HD constexpr int box_bytes() const { return row_bytes() * box[1]; }
  // Shared-memory byte of box element (i inner, j outer), from a base aligned to the swizzle repeat.
  GL_HD constexpr std::uint32_t smem_byte(int i, int j) const {
    return static_cast<std::uint32_t>(
        gmma::swizzle_byte(swizzle, static_cast<long long>(j) * row_bytes() + static_cast<long long>(i) * element_bits / 8));
  }
};
static_assert(TensorMap2D{}.smem_byte(8, 1) == 128);
static_assert(TensorMap2D{}.smem_byte(0, 1) == 128 + 16 && TensorMap2D{}.smem_byte(56, 7) == 7 * 128);

// The rules cuTensorMapEncodeTiled enforces (CUDA driver API), plus one of ours: a swizzled box's
// rows must fill the swizzle span exactly (narrower rows are legal, but not modelled here).
// Empty when the map is valid, else a message naming the rule.
std::string check_tensor_map(const TensorMap2D& m);

struct BoxElement {
  int i = 0, j = 0;             // inner, outer index in the box
  long long x = 0, y = 0;       // global coordinate (inner, outer)
  bool in_bounds = true;        // false: the copy engine writes the fill value
  std::uint32_t smem_byte = 0;  // from the box's base
};

struct BoxCopy {
  TensorMap2D map;
  long long x0 = 0, y0 = 0;  // the box's global start (may be negative or past the end)
  std::vector<BoxElement> elements;  // row-major over the box: (i, j) at j * box[0] + i
  long long in_bounds = 0;
  int transaction_bytes = 0;  // what mbarrier.arrive.expect_tx counts: the whole box, fill included
};

inline constexpr long long kMaxBoxElements = 1 << 16;
Expected<BoxCopy> copy_box(const TensorMap2D& m, long long x0, long long y0);

}  // namespace gemmlab::tma
