// Stage 15: tile 128 (m) x 256 (n) x 64 (k).
// operand 0 is A (M x K), 1 is B (K x N), both K-contiguous.
// Where does the box of `k_tile` start, in elements?
// inner: along K; outer: rows of A or columns of B.
void tma_box(int operand, int m_block, int n_block,
             int k_tile, int* inner, int* outer) {
  *inner = k_tile;  // TODO: in elements, not in tiles
  *outer = operand == 0 ? m_block : n_block;
}
