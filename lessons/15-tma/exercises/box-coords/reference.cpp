// Stage 15: tile 128 (m) x 256 (n) x 64 (k); operand 0 is A (M x K), 1 is B (K x N); both
// K-contiguous, so a box's inner coordinate runs along K and its outer one along m or n.
void tma_box(int operand, int m_block, int n_block, int k_tile, int* inner, int* outer) {
  *inner = 64 * k_tile;
  *outer = operand == 0 ? 128 * m_block : 256 * n_block;
}
