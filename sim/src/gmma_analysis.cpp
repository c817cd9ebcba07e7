#include "gemmlab/gmma_analysis.h"

#include <string>

namespace gemmlab {

Expected<gmma::Swizzle> parse_gmma_swizzle(const std::string& text) {
  if (text == "none") return gmma::Swizzle::None;
  if (text == "32B") return gmma::Swizzle::B32;
  if (text == "64B") return gmma::Swizzle::B64;
  if (text == "128B") return gmma::Swizzle::B128;
  return Error{"unknown swizzle '" + text + "': use none, 32B, 64B or 128B"};
}

Expected<gmma::Major> parse_gmma_major(const std::string& text) {
  if (text == "K") return gmma::Major::K;
  if (text == "MN") return gmma::Major::MN;
  return Error{"unknown major '" + text + "': use K (K contiguous) or MN (M or N contiguous)"};
}

const char* gmma_swizzle_name(gmma::Swizzle s) {
  switch (s) {
    case gmma::Swizzle::None: return "none";
    case gmma::Swizzle::B32: return "32B";
    case gmma::Swizzle::B64: return "64B";
    case gmma::Swizzle::B128: return "128B";
  }
  return "?";
}

const char* gmma_major_name(gmma::Major m) { return m == gmma::Major::K ? "K" : "MN"; }

Expected<gmma::TileLayout> make_gmma_layout(gmma::Swizzle s, gmma::Major m, long long element_bits, long long rows,
                                            long long cols) {
  if (element_bits != 8 && element_bits != 16 && element_bits != 32)
    return Error{"element bits " + std::to_string(element_bits) +
                 ": wgmma reads 8-bit (e4m3, e5m2, s8), 16-bit (f16, bf16) or 32-bit (tf32) elements"};
  gmma::TileLayout t{s, m, static_cast<int>(element_bits), 1, 1};
  const std::string atom = std::to_string(t.atom_rows()) + " x " + std::to_string(t.atom_cols());
  if (rows < 1 || cols < 1 || rows > kMaxGmmaTileElements || cols > kMaxGmmaTileElements ||
      rows * cols > kMaxGmmaTileElements)
    return Error{"shape " + std::to_string(rows) + "," + std::to_string(cols) + ": at most " +
                 std::to_string(kMaxGmmaTileElements) + " elements (rows x cols), each at least 1"};
  if (rows % t.atom_rows() || cols % t.atom_cols())
    return Error{"shape " + std::to_string(rows) + "," + std::to_string(cols) + " does not tile the " +
                 gmma_major_name(m) + "-major " + gmma_swizzle_name(s) + " atom of " + atom +
                 " elements (rows x K): rows must be a multiple of " + std::to_string(t.atom_rows()) +
                 " and K of " + std::to_string(t.atom_cols())};
  t.rows = static_cast<int>(rows);
  t.cols = static_cast<int>(cols);
  return t;
}

std::vector<long long> gmma_layout_offsets(const gmma::TileLayout& t) {
  std::vector<long long> out;
  out.reserve(static_cast<size_t>(t.rows) * t.cols);
  for (int r = 0; r < t.rows; ++r)
    for (int c = 0; c < t.cols; ++c) out.push_back(t.offset(r, c));
  return out;
}

std::vector<SmemChunk> gmma_smem_chunks(const gmma::TileLayout& t) {
  std::vector<SmemChunk> chunks(static_cast<size_t>(t.bytes() / 16));
  const int per_chunk = 128 / t.element_bits;
  const bool k_major = t.major == gmma::Major::K;
  for (int r = 0; r < t.rows; r += k_major ? 1 : per_chunk)
    for (int c = 0; c < t.cols; c += k_major ? per_chunk : 1) {
      const long long byte = t.byte_offset(r, c);
      chunks[static_cast<size_t>(byte / 16)] = {r, c, static_cast<int>((byte / 16) % 8)};
    }
  return chunks;
}

Expected<OperandDescriptor> describe_gmma_operand(const gmma::TileLayout& t, int row0, int rows, int k0) {
  const int k_step = 32 * 8 / t.element_bits;  // K elements in 32 bytes: one wgmma k step
  if (row0 < 0 || rows < 8 || rows % 8 || row0 % t.atom_rows() || row0 + rows > t.rows)
    return Error{"rows " + std::to_string(row0) + ".." + std::to_string(row0 + rows - 1) +
                 ": a wgmma operand is 8..256 whole rows of the tile (" + std::to_string(t.rows) +
                 "), starting at a multiple of " + std::to_string(t.atom_rows())};
  if (k0 < 0 || k0 % k_step || k0 + k_step > t.cols)
    return Error{"k " + std::to_string(k0) + ": a wgmma k step reads " + std::to_string(k_step) +
                 " elements (32 bytes) from a multiple of " + std::to_string(k_step) + " inside the tile's " +
                 std::to_string(t.cols)};
  if (t.major == gmma::Major::MN && t.element_bits != 16)
    return Error{"wgmma reads MN-major (transposed) operands only for 16-bit types (f16, bf16); " +
                 std::to_string(t.element_bits) + "-bit operands must be K-major"};
  OperandDescriptor d;
  d.bits = gmma::descriptor(t, 0, row0, k0);
  d.start = static_cast<std::uint32_t>(d.bits & 0x3FFF) << 4;
  d.leading = static_cast<std::uint32_t>((d.bits >> 16) & 0x3FFF) << 4;
  d.stride = static_cast<std::uint32_t>((d.bits >> 32) & 0x3FFF) << 4;
  d.layout_field = static_cast<int>(d.bits >> 62);
  d.rows = rows;
  d.k0 = k0;
  const int per_core = 16 * 8 / t.element_bits;
  for (int r = 0; r < rows; r += 8)
    for (int k = 0; k < k_step; k += per_core)
      d.cores.push_back({row0 + r, k0 + k, static_cast<std::uint32_t>(t.byte_offset(row0 + r, k0 + k))});
  return d;
}

Expected<int> parse_wgmma_shape(const std::string& text) {
  const std::string bad = "shape '" + text + "': use m64nNk16 with N = 8, 16, ..., 256";
  if (text.size() < 8 || text.rfind("m64n", 0) != 0 || text.compare(text.size() - 3, 3, "k16") != 0)
    return Error{bad};
  const std::string n_text = text.substr(4, text.size() - 7);
  if (n_text.empty() || n_text.size() > 3 || n_text[0] == '0') return Error{bad};
  int n = 0;
  for (char ch : n_text) {
    if (ch < '0' || ch > '9') return Error{bad};
    n = 10 * n + (ch - '0');
  }
  if (!gmma::wgmma_n_valid(n)) return Error{bad};
  return n;
}

}  // namespace gemmlab
