// e4m3: sign, 4 exponent bits (bias 7), 3 mantissa bits; 0x7E = 1.75 x 2^8 = 448 is the largest,
// 0x7F is NaN. Below 2^-6 the exponent field is 0 and the value is mantissa x 2^-9 (subnormal).
unsigned char to_e4m3(double v) {
  const unsigned char sign = std::signbit(v) ? 0x80 : 0;  // -0 and values rounding to -0 keep it
  const double a = std::fabs(v);
  if (a >= 448) return sign | 0x7E;  // saturate: no infinity, and 0x7F is NaN
  // a in [2^p, 2^(p+1)) has neighbours 2^(p-3) apart (p >= -6; the subnormals below 2^-6 too,
  // as p = -6). Its code is a / step rounded, plus 8 for each binade above [2^-6, 2^-5).
  const int p = a < 0x1p-5 ? -6 : std::ilogb(a);  // ilogb: the exponent of a's leading bit
  const double steps = std::nearbyint(std::ldexp(a, 3 - p));  // ties to even; 16 carries into p + 1
  const int code = (p + 6) * 8 + int(steps);
  return (unsigned char)(sign | code);  // below 448 the code is at most 0x7E
}

// One activation row of k values (k a multiple of 128): each 1 x 128 block gets the scale that
// puts its largest magnitude at 448, and its values divided by it (in double: one rounding).
void quantize_row(const float* x, int k, unsigned char* codes, float* scales) {
  for (int b = 0; b < k / 128; ++b) {
    float amax = 0;
    for (int i = b * 128; i < (b + 1) * 128; ++i) amax = std::fmax(amax, std::fabs(x[i]));
    const float scale = amax > 0 ? amax / 448.0f : 1.0f;  // a block of zeros: any scale, 1 by convention
    scales[b] = scale;
    for (int i = b * 128; i < (b + 1) * 128; ++i) codes[i] = to_e4m3(double(x[i]) / scale);
  }
}
