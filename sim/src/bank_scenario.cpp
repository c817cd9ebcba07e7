#include "gemmlab/bank_scenario.h"

#include "gemmlab/layout_analysis.h"
#include "gemmlab/tensorop_multiplicand.h"

namespace gemmlab {

namespace {

std::string shape_text(const BankScenarioParams& p) {
  return std::to_string(p.rows) + "x" + std::to_string(p.cols);
}

std::string swizzle_text(SwizzleParams s) {
  return "Swizzle<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," +
         std::to_string(s.shift) + ">";
}

int element_bytes(const BankScenarioParams& p) { return p.element_bits / 8; }

long long row_pitch_bytes(const BankScenarioParams& p) {
  return static_cast<long long>(p.cols) * element_bytes(p) +
         (p.layout == SmemLayoutKind::Padded ? p.pad_bytes : 0);
}

int tensorop_crosswise(const BankScenarioParams& p) {
  if (p.crosswise != 0) return p.crosswise;
  const int line_elements = 1024 / p.element_bits;
  return p.cols < line_elements ? p.cols : line_elements;
}

TensorOpMultiplicandParams tensorop_params(const BankScenarioParams& p) {
  return {p.element_bits, tensorop_crosswise(p)};
}

// Address of (row, col) once validate_layout has accepted p.
long long address_unchecked(const BankScenarioParams& p, int row, int col) {
  switch (p.layout) {
    case SmemLayoutKind::TensorOp: {
      // RowMajorTensorOpMultiplicandCrosswise: (row, col) is pitch-linear (c = col, s = row),
      // packed with ld = cols.
      const auto g = tensor_op_multiplicand_geometry(tensorop_params(p));
      return tensor_op_multiplicand_offset(g, p.cols, PitchCoord{col, row}) * element_bytes(p);
    }
    case SmemLayoutKind::Padded:
      return row * row_pitch_bytes(p) + static_cast<long long>(col) * element_bytes(p);
    case SmemLayoutKind::Swizzle: {
      const long long offset = static_cast<long long>(row) * p.cols + col;
      return swizzle_apply(p.swizzle, offset) * element_bytes(p);
    }
    case SmemLayoutKind::RowMajor:
      break;
  }
  return (static_cast<long long>(row) * p.cols + col) * element_bytes(p);
}

// Checks that p describes a tile that fits in shared memory; returns the bytes it spans.
Expected<long long> validate_layout(const BankScenarioParams& p) {
  if (p.element_bits != 8 && p.element_bits != 16 && p.element_bits != 32)
    return Error{"element_bits must be 8, 16 or 32, got " + std::to_string(p.element_bits)};
  if (p.rows < 1 || p.cols < 1)
    return Error{"tile " + shape_text(p) + ": rows and cols must be at least 1"};
  if (p.layout == SmemLayoutKind::Padded) {
    if (p.pad_bytes < 0)
      return Error{"pad_bytes must be 0 or more, got " + std::to_string(p.pad_bytes)};
    if (p.pad_bytes % element_bytes(p) != 0)
      return Error{"pad_bytes " + std::to_string(p.pad_bytes) + " is not a whole number of " +
                   std::to_string(p.element_bits) + "-bit elements; use a multiple of " +
                   std::to_string(element_bytes(p)) + " bytes"};
    if (p.pad_bytes > kSmemBytesMax)
      return Error{"pad_bytes " + std::to_string(p.pad_bytes) + " is larger than shared memory"};
  }
  // Sizes are checked one factor at a time so the products below cannot overflow.
  if (p.rows > kSmemBytesMax || p.cols > kSmemBytesMax ||
      static_cast<long long>(p.rows) * row_pitch_bytes(p) > kSmemBytesMax)
    return Error{"tile " + shape_text(p) + " of " + std::to_string(p.element_bits) +
                 "-bit elements" +
                 (p.layout == SmemLayoutKind::Padded ? " with " + std::to_string(p.pad_bytes) +
                                                           " bytes of padding per row"
                                                     : std::string()) +
                 " does not fit in shared memory (" + std::to_string(kSmemBytesMax) +
                 " bytes = 228 KB on sm_90); use a smaller tile"};
  const long long bytes = static_cast<long long>(p.rows) * row_pitch_bytes(p);
  if (p.layout == SmemLayoutKind::TensorOp) {
    const TensorOpMultiplicandParams tp = tensorop_params(p);
    const auto g = tensor_op_multiplicand_geometry(tp);
    const PitchCoord extent{p.cols, p.rows};
    const TensorOpRule rule = tensor_op_tile_rule(tp, g, extent, p.cols);
    if (rule != TensorOpRule::Ok)
      return Error{"tensorop layout, tile " + shape_text(p) + ": " +
                   tensor_op_rule_text(rule, tp, g, extent, p.cols)};
    // The rules above make it a permutation of the tile; checked, since a wrong address would
    // be drawn outside the tile.
    for (int r = 0; r < p.rows; ++r)
      for (int c = 0; c < p.cols; ++c)
        if (address_unchecked(p, r, c) >= bytes)
          return Error{"tensorop layout: element (" + std::to_string(r) + ", " + std::to_string(c) +
                       ") lands outside the " + shape_text(p) + " tile; this tile shape is not "
                       "supported"};
  }
  if (p.layout == SmemLayoutKind::Swizzle) {
    const SwizzleParams s = p.swizzle;
    if (!swizzle_valid(s))
      return Error{swizzle_text(s) + " is not a valid swizzle: CuTe needs B >= 0, M >= 0, |S| >= B "
                   "(the XORed bit ranges must not overlap) and B + M + |S| <= 30"};
    // XOR swizzles permute offsets inside aligned blocks of 2^(highest changed bit + 1); a tile
    // that ends inside a block can have offsets sent past its end.
    const long long n = static_cast<long long>(p.rows) * p.cols;
    const int top = s.shift >= 0 ? s.base + s.bits : s.base - s.shift + s.bits;
    for (long long o = 0; o < n; ++o) {
      const long long moved = swizzle_apply(s, o);
      if (moved >= n)
        return Error{swizzle_text(s) + " sends element offset " + std::to_string(o) + " (row " +
                     std::to_string(o / p.cols) + ", col " + std::to_string(o % p.cols) + ") to " +
                     std::to_string(moved) + ", outside the " + shape_text(p) +
                     " tile; make rows * cols a multiple of " + std::to_string(1LL << top) +
                     " elements"};
    }
  }
  return bytes;
}

}  // namespace

Expected<SmemLayoutKind> parse_smem_layout(std::string_view name) {
  if (name == "rowmajor") return SmemLayoutKind::RowMajor;
  if (name == "padded") return SmemLayoutKind::Padded;
  if (name == "swizzle") return SmemLayoutKind::Swizzle;
  if (name == "tensorop") return SmemLayoutKind::TensorOp;
  return Error{"unknown layout '" + std::string(name) + "'; use rowmajor, padded, swizzle or tensorop"};
}

const char* smem_layout_name(SmemLayoutKind kind) {
  switch (kind) {
    case SmemLayoutKind::RowMajor: return "rowmajor";
    case SmemLayoutKind::Padded: return "padded";
    case SmemLayoutKind::Swizzle: return "swizzle";
    case SmemLayoutKind::TensorOp: return "tensorop";
  }
  return "?";
}

Expected<BankPattern> parse_bank_pattern(std::string_view name) {
  if (name == "ldmatrix") return BankPattern::Ldmatrix;
  if (name == "rows") return BankPattern::Rows;
  if (name == "linear") return BankPattern::Linear;
  return Error{"unknown pattern '" + std::string(name) + "'; use ldmatrix, rows or linear"};
}

const char* bank_pattern_name(BankPattern pattern) {
  switch (pattern) {
    case BankPattern::Ldmatrix: return "ldmatrix";
    case BankPattern::Rows: return "rows";
    case BankPattern::Linear: return "linear";
  }
  return "?";
}

Expected<long long> scenario_element_address(const BankScenarioParams& p, int row, int col) {
  auto ok = validate_layout(p);
  if (!ok) return Error{ok.error()};
  if (row < 0 || row >= p.rows || col < 0 || col >= p.cols)
    return Error{"element (" + std::to_string(row) + ", " + std::to_string(col) +
                 ") is outside the " + shape_text(p) + " tile"};
  return address_unchecked(p, row, col);
}

Expected<BankScenario> build_bank_scenario(const BankScenarioParams& p) {
  auto tile_bytes = validate_layout(p);
  if (!tile_bytes) return Error{tile_bytes.error()};
  const SmemOp& op = p.op;
  if (!smem_op_valid(op)) return Error{"invalid op: build it with parse_smem_op"};
  const std::string op_name = smem_op_name(op);
  if (p.pattern == BankPattern::Ldmatrix && op.kind != SmemOpKind::Ldmatrix)
    return Error{"pattern 'ldmatrix' needs an ldsm.x1/x2/x4 op, got " + op_name +
                 "; use pattern 'rows' or 'linear' for " + op_name};
  if (p.origin_row < 0 || p.origin_row >= p.rows || p.origin_col < 0 || p.origin_col >= p.cols)
    return Error{"origin [" + std::to_string(p.origin_row) + ", " + std::to_string(p.origin_col) +
                 "] is outside the " + shape_text(p) + " tile"};

  BankScenario s;
  s.params = p;
  s.tile_bytes = *tile_bytes;
  s.crosswise = p.layout == SmemLayoutKind::TensorOp ? tensorop_crosswise(p) : 0;
  const int vec = op.bytes * 8 / p.element_bits;  // elements per access (ldmatrix: per row)
  const int lanes = smem_op_address_lanes(op);

  // Where each lane's access starts, in (row, col).
  for (int t = 0; t < lanes; ++t) {
    LaneElement& e = s.lane_elements[t];
    e.elements = vec;
    switch (p.pattern) {
      case BankPattern::Ldmatrix: {
        const int matrix = t / 8;  // A-operand order: 0 top-left, 1 bottom-left, 2 top-right ...
        e.row = p.origin_row + (matrix % 2) * 8 + t % 8;
        e.col = p.origin_col + (matrix / 2) * vec;
        break;
      }
      case BankPattern::Rows:
        e.row = (p.origin_row + t) % p.rows;
        e.col = p.origin_col;
        break;
      case BankPattern::Linear: {
        const long long index =
            static_cast<long long>(p.origin_row) * p.cols + p.origin_col + static_cast<long long>(t) * vec;
        if (index >= static_cast<long long>(p.rows) * p.cols)
          return Error{"pattern 'linear' from origin [" + std::to_string(p.origin_row) + ", " +
                       std::to_string(p.origin_col) + "]: lane " + std::to_string(t) +
                       " would start at element " + std::to_string(index) + ", past the end of the " +
                       shape_text(p) + " tile; move the origin or enlarge the tile"};
        e.row = static_cast<int>(index / p.cols);
        e.col = static_cast<int>(index % p.cols);
        break;
      }
    }
    if (e.row >= p.rows)
      return Error{"pattern '" + std::string(bank_pattern_name(p.pattern)) + "' of " + op_name +
                   " from origin row " + std::to_string(p.origin_row) + " needs row " +
                   std::to_string(e.row) + " (lane " + std::to_string(t) + "), outside the " +
                   shape_text(p) + " tile"};
    if (e.col + vec > p.cols)
      return Error{"lane " + std::to_string(t) + " of " + op_name + " reads columns " +
                   std::to_string(e.col) + ".." + std::to_string(e.col + vec - 1) + " of row " +
                   std::to_string(e.row) + ", past the " + std::to_string(p.cols) +
                   " columns of the tile; move the origin or widen the tile"};
    // One instruction reads one contiguous run of bytes per address.
    const long long first = address_unchecked(p, e.row, e.col);
    for (int k = 1; k < vec; ++k) {
      if (address_unchecked(p, e.row, e.col + k) != first + static_cast<long long>(k) * element_bytes(p))
        return Error{"lane " + std::to_string(t) + ": under " +
                     (p.layout == SmemLayoutKind::Swizzle ? swizzle_text(p.swizzle)
                                                          : std::string(smem_layout_name(p.layout))) +
                     " the " + std::to_string(vec) + " elements at row " + std::to_string(e.row) +
                     ", columns " + std::to_string(e.col) + ".." + std::to_string(e.col + vec - 1) +
                     " are not contiguous in shared memory, so one " + op_name +
                     " cannot read them" +
                     (p.layout == SmemLayoutKind::Swizzle
                          ? "; the swizzle's M must keep 2^M >= " + std::to_string(vec) +
                                " elements together"
                          : std::string())};
    }
    s.request.addresses[t] = first;
  }
  s.request.op = op;
  s.request.address_count = kWarpLanes;
  s.request.mask = 0xffffffffu;
  auto analysis = analyze_banks(s.request);
  if (!analysis)
    return Error{std::string(smem_layout_name(p.layout)) + " layout, pattern '" +
                 bank_pattern_name(p.pattern) + "': " + analysis.error()};
  s.analysis = *analysis;

  s.cells.resize(static_cast<size_t>(p.rows) * p.cols);
  for (int r = 0; r < p.rows; ++r)
    for (int c = 0; c < p.cols; ++c) {
      TileCell& cell = s.cells[static_cast<size_t>(r) * p.cols + c];
      cell.byte = address_unchecked(p, r, c);
      cell.bank = static_cast<int>(cell.byte / kBankWordBytes % kSmemBanks);
    }
  for (int t = lanes - 1; t >= 0; --t) {  // backwards: the lowest lane wins a shared element
    const LaneElement& e = s.lane_elements[t];
    for (int k = 0; k < e.elements; ++k)
      s.cells[static_cast<size_t>(e.row) * p.cols + e.col + k].lane = t;
  }
  return s;
}

Expected<BankComparison> compare_with_rowmajor(const BankScenarioParams& params) {
  BankScenarioParams before = params;
  before.layout = SmemLayoutKind::RowMajor;
  before.pad_bytes = 0;
  auto a = build_bank_scenario(before);
  if (!a) return Error{"row-major version: " + a.error()};
  auto b = build_bank_scenario(params);
  if (!b) return Error{b.error()};
  return BankComparison{*a, *b};
}

BankWordMap bank_word_map(const BankScenario& s) {
  BankWordMap p;
  p.cols = s.params.cols;
  constexpr long long kLineBytes = kSmemBanks * kBankWordBytes;  // 128
  p.lines = static_cast<int>((s.tile_bytes + kLineBytes - 1) / kLineBytes);
  const size_t words = static_cast<size_t>(p.lines) * kSmemBanks;
  p.word_element.assign(words, -1);
  for (int r = 0; r < s.params.rows; ++r)
    for (int c = 0; c < s.params.cols; ++c) {
      const long long w = s.cell(r, c).byte / kBankWordBytes;
      if (w >= 0 && static_cast<size_t>(w) < words && p.word_element[w] < 0) p.word_element[w] = r * s.params.cols + c;
    }
  const BankAnalysis& a = s.analysis;
  for (auto& lanes : p.word_lane) lanes.assign(words, -1);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const LaneAccess& la = a.lanes[lane];
    if (!la.active || la.phase < 0 || la.phase >= static_cast<int>(p.word_lane.size())) continue;
    for (int k = 0; k < a.words_per_lane; ++k) {
      const long long w = la.word() + k;
      if (w >= 0 && static_cast<size_t>(w) < words && p.word_lane[la.phase][w] < 0) p.word_lane[la.phase][w] = lane;
    }
  }
  return p;
}

std::array<int, kSmemBanks> words_per_bank(const BankAnalysis& a, int phase) {
  std::array<int, kSmemBanks> words{};
  for (int ph = 0; ph < a.phase_count; ++ph)
    if (phase < 0 || ph == phase)
      for (int bank = 0; bank < kSmemBanks; ++bank) words[bank] = std::max(words[bank], a.phases[ph].words_in_bank[bank]);
  return words;
}

}  // namespace gemmlab
