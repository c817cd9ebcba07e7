// e4m3: sign, 4 exponent bits (bias 7), 3 mantissa bits. 0x38 is 1.0; 0x7E = 448 is the largest
// finite value, 0x7F is NaN; below 2^-6 the exponent field is 0 (subnormals, mantissa x 2^-9).
unsigned char to_e4m3(double v) {
  const double a = std::fabs(v);
  if (a == 0) return 0;
  const int p = std::ilogb(a);  // a in [2^p, 2^(p+1)): neighbours 2^(p-3) apart
  const int steps = int(std::ldexp(a, 3 - p));  // 8 .. 15; TODO: nearest, ties to even
  // TODO: the sign, subnormals, saturation at 448
  return (unsigned char)((p + 7) * 8 + steps - 8);
}

// k values, k a multiple of 128: one scale per 1 x 128 block.
void quantize_row(const float* x, int k, unsigned char* codes, float* scales) {
  float amax = 0;
  for (int i = 0; i < k; ++i) amax = std::fmax(amax, std::fabs(x[i]));
  for (int b = 0; b < k / 128; ++b) scales[b] = amax / 448;  // TODO: per block; a block of zeros
  for (int i = 0; i < k; ++i) codes[i] = to_e4m3(double(x[i]) / scales[i / 128]);
}
