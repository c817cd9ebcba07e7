// What every FP16 stage checks before it launches, and how it picks its load path.
#pragma once
#include <cstdint>

namespace gemmlab::kernels::fp16 {

// gridDim.y and gridDim.z are limited to 65535 blocks.
constexpr long long kMaxGridYZ = 65535;

// Index arithmetic runs in int with a tile of headroom past each extent.
constexpr int kMaxExtent = 1 << 30;

inline const char* check_extents(int m, int n, int k) {
  if (m < 1 || n < 1 || k < 1) return "m, n and k must be at least 1";
  if (m > kMaxExtent || n > kMaxExtent || k > kMaxExtent)
    return "m, n and k must be at most 1073741824 (2^30): the kernels index in 32-bit ints";
  return nullptr;
}

// Number of k-tiles, without the overflow of (k + tile - 1) / tile.
__host__ __device__ constexpr int tiles_of(int extent, int tile) { return (extent - 1) / tile + 1; }

// Stages 7-10 launch grid (ceil(m / 128), ceil(n / 128)): n tiles on gridDim.y.
inline const char* check_grid_m_by_n_128(int m, int n, int k) {
  if (const char* why = check_extents(m, n, k)) return why;
  if ((n + 127LL) / 128 > kMaxGridYZ)
    return "n must be at most 8388480: the grid has one block per 128 columns on gridDim.y, "
           "which holds at most 65535 blocks";
  return nullptr;
}

// 16-byte vector loads (and cp.async) need every row of A and B to start 16-byte aligned.
inline bool rows_16_byte_aligned(const void* A, const void* B, int k) {
  return k % 8 == 0 && reinterpret_cast<uintptr_t>(A) % 16 == 0 &&
         reinterpret_cast<uintptr_t>(B) % 16 == 0;
}

}  // namespace gemmlab::kernels::fp16
