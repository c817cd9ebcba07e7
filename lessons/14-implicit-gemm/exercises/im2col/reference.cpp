// N 2, H 7, W 7, C 8; 3 x 3 filters, pad 1, stride 2 -> P = Q = 4. A is 32 x 72.
// Row m = (n, p, q), column kk = (r, s, c); the window's pixel is (p * stride - pad + r,
// q * stride - pad + s); outside the image it is the padding.
long long im2col_offset(int row, int col) {
  const int H = 7, W = 7, C = 8, S = 3, P = 4, Q = 4, pad = 1, stride = 2;
  const int n = row / (P * Q), p = (row / Q) % P, q = row % Q;
  const int r = col / (C * S), s = (col / C) % S, c = col % C;
  const int h = p * stride - pad + r, w = q * stride - pad + s;
  if (h < 0 || h >= H || w < 0 || w >= W) return -1;
  return ((static_cast<long long>(n) * H + h) * W + w) * C + c;
}
