// Stage 3 (sliced-k, kernels/stages/fp32/03_sliced_k/sliced_k.cu): one block of 32x32 threads per 32x32 C tile,
// k in slices of 32 staged in shared memory. Which element of the shared tiles each thread stores
// and reads; the kernel calls these functions and sim/tests/test_kernel_banks.cpp feeds the same
// addresses to the bank model.
//
// blockDim (32, 32): thread (tx, ty) = (thread % 32, thread / 32), so warp w is the row ty = w.
//   As[k][m] (m contiguous): thread (tx, ty) stores A(m0 + tx, k0 + ty) at As[ty][tx] and reads
//     As[k][tx]: 32 consecutive floats per warp, conflict-free.
//   Bs[n][k] (k contiguous): thread (tx, ty) stores B(k0 + tx, n0 + ty) at Bs[ty][tx] and reads
//     Bs[ty][k]: one address for the whole warp (a broadcast). ptxas reads 4 k at once (LDS.128).
#pragma once
#include "gemmlab/hd.h"

namespace gemmlab::sliced_k_tile {

inline constexpr int kTile = 32;  // C tile 32x32, k slice 32, 32x32 threads
using Tile = float[kTile][kTile];

// References into the 2-D arrays (not flat offsets: the kernel's code stays what it was).
GL_HD constexpr float& a_at(Tile& As, int k, int m) { return As[k][m]; }  // As[k][m]
GL_HD constexpr float& b_at(Tile& Bs, int n, int k) { return Bs[n][k]; }  // Bs[n][k]

}  // namespace gemmlab::sliced_k_tile
