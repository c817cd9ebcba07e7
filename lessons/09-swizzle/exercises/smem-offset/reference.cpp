// Stage 9's operand tile: 128 rows x 32 halves, 8 KB of shared memory.
// Row-major, then CuTe's Swizzle<3,3,3>: the 16-byte chunk (bits 3-5 of the half offset) is
// XORed with the 128-byte line's index modulo 8 (bits 6-8). The 8 rows of an ldmatrix phase then
// start in 8 different chunks: 1 wavefront per 8x8 matrix.
int smem_offset(int row, int k) {
  const int linear = row * 32 + k;
  return linear ^ ((linear >> 3) & (7 << 3));
}
