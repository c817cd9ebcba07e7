// Stage 9's operand tile: 128 rows x 32 halves, 8 KB.
// Return the half offset (0 .. 4095) of element (row, k).
int smem_offset(int row, int k) {
  // Row-major: rows r and r + 2 share banks. Change this.
  return row * 32 + k;
}
