#include "gemmlab/layout_analysis.h"

#include <string>

namespace gemmlab {

namespace {

constexpr long long kMaxLayoutElements = 1 << 20;  // 1M elements: shared memory holds 228 KB
constexpr long long kMaxLd = 1LL << 30;

std::string num(long long v) { return std::to_string(v); }
std::string pair(long long a, long long b) { return "(" + num(a) + "," + num(b) + ")"; }

struct KindName {
  LayoutKind kind;
  const char* name;
};
constexpr KindName kKindNames[] = {
    {LayoutKind::RowMajor, "rowmajor"},
    {LayoutKind::ColumnMajor, "columnmajor"},
    {LayoutKind::PitchLinear, "pitchlinear"},
    {LayoutKind::Padded, "padded"},
    {LayoutKind::TensorOpMultiplicand, "tensorop-multiplicand"},
    {LayoutKind::TensorOpCongruous, "tensorop-congruous"},
    {LayoutKind::TensorOpCrosswise, "tensorop-crosswise"},
    {LayoutKind::TensorOpCongruousRowMajor, "tensorop-congruous-rowmajor"},
    {LayoutKind::TensorOpCongruousColumnMajor, "tensorop-congruous-columnmajor"},
    {LayoutKind::TensorOpCrosswiseRowMajor, "tensorop-crosswise-rowmajor"},
    {LayoutKind::TensorOpCrosswiseColumnMajor, "tensorop-crosswise-columnmajor"},
};

TensorOpVariant variant_of(LayoutKind k) {
  switch (k) {
    case LayoutKind::TensorOpCongruous:
    case LayoutKind::TensorOpCongruousRowMajor:
    case LayoutKind::TensorOpCongruousColumnMajor:
      return TensorOpVariant::Congruous;
    case LayoutKind::TensorOpCrosswise:
    case LayoutKind::TensorOpCrosswiseRowMajor:
    case LayoutKind::TensorOpCrosswiseColumnMajor:
      return TensorOpVariant::Crosswise;
    default:
      return TensorOpVariant::Multiplicand;
  }
}

bool row_major_view(LayoutKind k) {
  return k == LayoutKind::TensorOpCongruousRowMajor || k == LayoutKind::TensorOpCrosswiseRowMajor;
}

}  // namespace

bool layout_is_tensorop(LayoutKind k) {
  return k != LayoutKind::PitchLinear && k != LayoutKind::RowMajor &&
         k != LayoutKind::ColumnMajor && k != LayoutKind::Padded;
}

bool layout_is_matrix(LayoutKind k) {
  return k == LayoutKind::RowMajor || k == LayoutKind::ColumnMajor ||
         k == LayoutKind::TensorOpCongruousRowMajor ||
         k == LayoutKind::TensorOpCongruousColumnMajor ||
         k == LayoutKind::TensorOpCrosswiseRowMajor || k == LayoutKind::TensorOpCrosswiseColumnMajor;
}

Expected<LayoutKind> parse_layout_kind(const std::string& name) {
  for (const auto& k : kKindNames)
    if (name == k.name) return k.kind;
  return Error{"unknown layout kind '" + name + "': use " + layout_kind_names()};
}

const char* layout_kind_name(LayoutKind k) {
  for (const auto& n : kKindNames)
    if (n.kind == k) return n.name;
  return "?";
}

const char* layout_kind_names() {
  return "rowmajor|columnmajor|pitchlinear|padded|tensorop-multiplicand|tensorop-congruous|"
         "tensorop-crosswise|tensorop-congruous-rowmajor|tensorop-congruous-columnmajor|"
         "tensorop-crosswise-rowmajor|tensorop-crosswise-columnmajor";
}

TensorOpRule tensor_op_tile_rule(const TensorOpMultiplicandParams& p,
                                 const TensorOpMultiplicandGeometry& g, PitchCoord extent,
                                 long long ld) {
  if (g.rule != TensorOpRule::Ok) return g.rule;
  if (extent.c <= 0 || extent.s <= 0) return TensorOpRule::ShapeNonPositive;
  if (extent.c % p.crosswise != 0) return TensorOpRule::ContiguousNotMultipleOfCrosswise;
  if (extent.s % g.factor != 0) return TensorOpRule::StridedNotMultipleOfFactor;
  if (ld < extent.c) return TensorOpRule::StrideTooSmall;
  if (ld % p.crosswise != 0) return TensorOpRule::StrideNotMultipleOfCrosswise;
  return TensorOpRule::Ok;
}

std::string tensor_op_rule_text(TensorOpRule rule, const TensorOpMultiplicandParams& p,
                                const TensorOpMultiplicandGeometry& g, PitchCoord extent,
                                long long ld) {
  const int line_elements = p.element_bits > 0 ? 1024 / p.element_bits : 0;
  switch (rule) {
    case TensorOpRule::Ok:
      return "ok";
    case TensorOpRule::ElementBitsUnsupported:
      return "element size " + num(p.element_bits) +
             " bits is not supported: TensorOpMultiplicand here takes 4, 8, 16 or 32-bit elements "
             "(GEMM Lab rule; 64-bit elements use CUTLASS's separate sm80 layouts)";
    case TensorOpRule::CrosswiseNonPositive:
      return "Crosswise (" + num(p.crosswise) + ") must be a positive number of elements";
    case TensorOpRule::CrosswiseLongerThanLine:
      return "kCrosswise should be no large than one shared memory cache line (CUTLASS "
             "static_assert kFactor > 0): Crosswise " + num(p.crosswise) + " > " +
             num(line_elements) + " " + num(p.element_bits) + "-bit elements per 128-byte line";
    case TensorOpRule::CrosswiseShorterThanVector:
      return "Crosswise (" + num(p.crosswise) + ") is shorter than one 128-bit access (" +
             num(g.elements_per_access) + " elements): kFactor would exceed 8 and "
             "TileShape::kContiguous / kFactor would be 0 (GEMM Lab rule)";
    case TensorOpRule::CrosswiseNotLineDivisor:
      return "Crosswise (" + num(p.crosswise) + ") must divide the 128-byte line of " +
             num(line_elements) + " elements (a power of two from " + num(g.elements_per_access) +
             " to " + num(line_elements) + "), so that the kFactor = " + num(g.factor) +
             " rows sharing a line fill it exactly (GEMM Lab rule)";
    case TensorOpRule::ShapeNonPositive:
      return "tile extents " + pair(extent.c, extent.s) + " must be positive";
    case TensorOpRule::ContiguousNotMultipleOfCrosswise:
      return "the contiguous extent (" + num(extent.c) + ") must be a multiple of Crosswise (" +
             num(p.crosswise) + "), otherwise the last 128-byte line is only partly filled and the "
             "layout is not a permutation of the tile (GEMM Lab rule)";
    case TensorOpRule::StridedNotMultipleOfFactor:
      return "the strided extent (" + num(extent.s) + ") must be a multiple of kFactor (" +
             num(g.factor) + "): kFactor rows share one 128-byte line (GEMM Lab rule)";
    case TensorOpRule::StrideTooSmall:
      return "the stride (--ld " + num(ld) + ") must be at least the contiguous extent (" +
             num(extent.c) + ")";
    case TensorOpRule::StrideNotMultipleOfCrosswise:
      return "the stride (--ld " + num(ld) + ") must be a multiple of Crosswise (" +
             num(p.crosswise) + ") so that every row group starts on a 128-byte line (GEMM Lab rule)";
  }
  return "unknown rule";
}

Expected<LayoutResult> analyze_layout(const LayoutRequest& r) {
  const bool matrix = layout_is_matrix(r.kind);
  const char* dims = matrix ? "(rows,columns)" : "(contiguous,strided)";
  if (r.extent0 <= 0 || r.extent1 <= 0)
    return Error{std::string("shape ") + dims + " " + pair(r.extent0, r.extent1) +
                 " must be positive"};
  if (static_cast<long long>(r.extent0) * r.extent1 > kMaxLayoutElements)
    return Error{"shape " + pair(r.extent0, r.extent1) + " has more than 1M elements; a " +
                 "shared-memory tile holds at most 228 KB"};
  if (r.ld < 0 || r.ld > kMaxLd)
    return Error{"--ld " + num(r.ld) + " must be between 1 and 2^30 (0 or absent = packed)"};
  if (r.pad < 0 || r.pad > (1 << 20))
    return Error{"--pad " + num(r.pad) + " must be between 0 and 2^20 elements"};
  if (r.pad != 0 && r.kind != LayoutKind::Padded)
    return Error{"--pad applies to --kind padded only (use --ld for the other kinds)"};
  if (r.kind == LayoutKind::Padded && r.ld != 0)
    return Error{"--kind padded takes --pad, not --ld (its ld is C + pad)"};
  if (!layout_is_tensorop(r.kind) && (r.element_bits != 0 || r.crosswise != 0))
    return Error{std::string("--element-bits and --crosswise apply to tensorop kinds only; ") +
                 layout_kind_name(r.kind) + " offsets are in elements of any size"};

  LayoutResult out;
  out.request = r;
  out.matrix_coords = matrix;
  const long long n = static_cast<long long>(r.extent0) * r.extent1;
  out.offsets.reserve(static_cast<size_t>(n));

  if (!layout_is_tensorop(r.kind)) {
    // The contiguous extent: columns for row-major, rows for column-major, C for pitch-linear.
    const long long contiguous = r.kind == LayoutKind::RowMajor ? r.extent1 : r.extent0;
    if (r.kind == LayoutKind::Padded) {
      out.ld = padded_ld(contiguous, r.pad);
    } else {
      out.ld = r.ld == 0 ? contiguous : r.ld;
      if (out.ld < contiguous)
        return Error{"--ld " + num(out.ld) + " is smaller than the contiguous extent (" +
                     num(contiguous) + "): rows would overlap"};
    }
    if (matrix) {
      for (int row = 0; row < r.extent0; ++row)
        for (int col = 0; col < r.extent1; ++col)
          out.offsets.push_back(r.kind == LayoutKind::RowMajor ? RowMajorLayout{out.ld}(row, col)
                                                               : ColumnMajorLayout{out.ld}(row, col));
    } else {
      out.pitch_extent = {r.extent0, r.extent1};
      for (int s = 0; s < r.extent1; ++s)
        for (int c = 0; c < r.extent0; ++c)
          out.offsets.push_back(PitchLinearLayout{out.ld}({c, s}));
    }
    return out;
  }

  // TensorOp kinds: find the pitch-linear tile underneath.
  const TensorOpMultiplicandParams p{r.element_bits, r.crosswise};
  const TensorOpVariant variant = variant_of(r.kind);
  out.congruous32 = tensor_op_uses_congruous32(variant, r.element_bits);
  if (matrix) {
    out.pitch_extent = row_major_view(r.kind) ? PitchCoord{r.extent1, r.extent0}
                                              : PitchCoord{r.extent0, r.extent1};
  } else {
    out.pitch_extent = {r.extent0, r.extent1};
  }
  out.ld = r.ld == 0 ? out.pitch_extent.c : r.ld;
  if (out.congruous32) {
    // CUTLASS's specialisation ignores Crosswise; its blocks are 32 elements x 4 rows.
    if (r.crosswise <= 0)
      return Error{tensor_op_rule_text(TensorOpRule::CrosswiseNonPositive, p, out.tensorop,
                                       out.pitch_extent, out.ld)};
    if (out.pitch_extent.c % 32 != 0)
      return Error{"TensorOpMultiplicandCongruous<32, X> works on blocks of 32 elements: the "
                   "contiguous extent (" + num(out.pitch_extent.c) +
                   ") must be a multiple of 32 (GEMM Lab rule)"};
    if (out.ld < out.pitch_extent.c || out.ld % 32 != 0)
      return Error{"the stride (--ld " + num(out.ld) + ") must be a multiple of 32 and at least " +
                   num(out.pitch_extent.c) + " (GEMM Lab rule)"};
    out.tensorop.elements_per_access = 4;
    out.tensorop.tile_contiguous = 8;
    out.tensorop.tile_strided = 4;
    out.tensorop.factor = 1;
  } else {
    out.tensorop = tensor_op_multiplicand_geometry(p);
    const TensorOpRule rule = tensor_op_tile_rule(p, out.tensorop, out.pitch_extent, out.ld);
    if (rule != TensorOpRule::Ok)
      return Error{tensor_op_rule_text(rule, p, out.tensorop, out.pitch_extent, out.ld)};
  }
  auto at = [&](PitchCoord pc) { return tensor_op_offset(variant, p, out.tensorop, out.ld, pc); };
  if (matrix) {
    const bool rm = row_major_view(r.kind);
    for (int row = 0; row < r.extent0; ++row)
      for (int col = 0; col < r.extent1; ++col)
        out.offsets.push_back(at(rm ? PitchCoord{col, row} : PitchCoord{row, col}));
  } else {
    for (int s = 0; s < r.extent1; ++s)
      for (int c = 0; c < r.extent0; ++c) out.offsets.push_back(at({c, s}));
  }
  return out;
}

// ---- column-major C swap ----------------------------------------------------------------------

namespace {

const char* order_name(MatrixOrder o) {
  return o == MatrixOrder::RowMajor ? "RowMajor" : "ColumnMajor";
}

// The ld must cover the operand's contiguous extent: columns if row-major, rows if column-major.
std::string check_operand(const char* name, const GemmOperandLayout& l, int rows, int cols) {
  const long long need = l.order == MatrixOrder::RowMajor ? cols : rows;
  if (l.ld < need)
    return std::string(name) + " is " + std::to_string(rows) + "x" + std::to_string(cols) + " " +
           order_name(l.order) + ", so its ld must be at least " + num(need) + " (got " +
           num(l.ld) + ")";
  return {};
}

}  // namespace

Expected<GemmSwapExplanation> explain_column_major_c_swap(const GemmLayouts& g) {
  if (g.m <= 0 || g.n <= 0 || g.k <= 0)
    return Error{"problem size (m,n,k) = (" + num(g.m) + "," + num(g.n) + "," + num(g.k) +
                 ") must be positive"};
  for (const auto& msg : {check_operand("A", g.a, g.m, g.k), check_operand("B", g.b, g.k, g.n),
                          check_operand("C", g.c, g.m, g.n)})
    if (!msg.empty()) return Error{msg};

  GemmSwapExplanation e;
  e.original = g;
  if (g.c.order == MatrixOrder::RowMajor) {
    e.underlying = g;
    e.steps.push_back("C is already RowMajor: device::Gemm runs the problem as given.");
    return e;
  }
  e.underlying = column_major_c_as_row_major(g);
  const auto& u = e.underlying;
  e.steps = {
      "C (" + num(g.m) + "x" + num(g.n) + ", ColumnMajor, ld " + num(g.c.ld) +
          ") is read as C^T (" + num(g.n) + "x" + num(g.m) + ", RowMajor, same ld): no byte moves.",
      "C^T = (A B)^T = B^T A^T, so the underlying GEMM is m=" + num(u.m) + ", n=" + num(u.n) +
          ", k=" + num(u.k) + ".",
      "Its A operand is B^T: B's pointer and ld " + num(g.b.ld) + ", layout " +
          order_name(g.b.order) + " -> LayoutTranspose -> " + order_name(u.a.order) + ".",
      "Its B operand is A^T: A's pointer and ld " + num(g.a.ld) + ", layout " +
          order_name(g.a.order) + " -> LayoutTranspose -> " + order_name(u.b.order) + ".",
      "Element types and alignments of A and B swap places with them; the epilogue writes C' "
      "row-major, which is C column-major.",
  };
  return e;
}

}  // namespace gemmlab
