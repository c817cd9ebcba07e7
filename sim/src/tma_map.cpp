#include "gemmlab/tma_map.h"

namespace gemmlab::tma {

std::string check_tensor_map(const TensorMap2D& m) {
  const int eb = m.element_bits / 8;
  if (m.element_bits != 8 && m.element_bits != 16 && m.element_bits != 32 && m.element_bits != 64)
    return "element bits " + std::to_string(m.element_bits) + ": use 8, 16, 32 or 64";
  for (int d = 0; d < 2; ++d) {
    if (m.dims[d] < 1 || m.dims[d] > (1LL << 32))
      return "global size " + std::to_string(m.dims[d]) + " (dimension " + std::to_string(d) + "): must be 1..2^32";
    if (m.box[d] < 1 || m.box[d] > 256)
      return "box size " + std::to_string(m.box[d]) + " (dimension " + std::to_string(d) + "): must be 1..256";
  }
  if (m.row_stride_bytes % 16 || m.row_stride_bytes < m.dims[0] * eb || m.row_stride_bytes >= (1LL << 40))
    return "row stride " + std::to_string(m.row_stride_bytes) + " bytes: must be a multiple of 16, at least a row (" +
           std::to_string(m.dims[0] * eb) + " bytes) and below 2^40 (for 16-bit rows: K a multiple of 8)";
  if (m.row_bytes() % 16)
    return "box rows of " + std::to_string(m.row_bytes()) + " bytes: the inner box size times the element size must be a multiple of 16 bytes";
  const int span = gmma::span_bytes(m.swizzle);
  if (m.swizzle != gmma::Swizzle::None && m.row_bytes() != span)
    return "box rows of " + std::to_string(m.row_bytes()) + " bytes with the " +
           std::to_string(span) + "-byte swizzle: the hardware allows rows up to the span; this simulator models rows that fill it (" +
           std::to_string(span * 8 / m.element_bits) + " elements)";
  return {};
}

Expected<BoxCopy> copy_box(const TensorMap2D& m, long long x0, long long y0) {
  if (std::string e = check_tensor_map(m); !e.empty()) return Error{e};
  const long long lim = 1LL << 31;
  if (x0 < -lim || x0 >= lim || y0 < -lim || y0 >= lim)
    return Error{"box start (" + std::to_string(x0) + "," + std::to_string(y0) + "): TMA coordinates are signed 32-bit"};
  if (static_cast<long long>(m.box[0]) * m.box[1] > kMaxBoxElements)
    return Error{"box of " + std::to_string(m.box[0]) + " x " + std::to_string(m.box[1]) + " elements: at most " +
                 std::to_string(kMaxBoxElements)};
  BoxCopy c;
  c.map = m;
  c.x0 = x0;
  c.y0 = y0;
  c.transaction_bytes = m.box_bytes();
  for (int j = 0; j < m.box[1]; ++j)
    for (int i = 0; i < m.box[0]; ++i) {
      BoxElement e;
      e.i = i;
      e.j = j;
      e.x = x0 + i;
      e.y = y0 + j;
      e.in_bounds = e.x >= 0 && e.x < m.dims[0] && e.y >= 0 && e.y < m.dims[1];
      e.smem_byte = m.smem_byte(i, j);
      c.in_bounds += e.in_bounds;
      c.elements.push_back(e);
    }
  return c;
}

}  // namespace gemmlab::tma
