// N 2, H 7, W 7, C 8; 3 x 3 filters, pad 1, stride 2:
// P = Q = 4, so A is 32 x 72.
long long im2col_offset(int row, int col) {
  const int H = 7, W = 7, C = 8, S = 3, P = 4, Q = 4;
  int n = row / (P * Q), p = (row / Q) % P, q = row % Q;
  int r = col / (C * S), s = (col / C) % S, c = col % C;
  int h = p + r, w = q + s;  // TODO: stride, padding
  return ((1LL * n * H + h) * W + w) * C + c;
}
