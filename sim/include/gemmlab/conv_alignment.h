// The alignment of an implicit-GEMM convolution's activation loads (CUTLASS's kAlignment, the
// elements one thread moves per access along C): a rule of the loads, not of the mapping. Every
// valid problem (check_problem) has an implicit GEMM, C = 3 and C = 12 included; how wide a load
// may be depends on C. A load of `a` elements starts at a channel that is a multiple of `a` and
// reads a consecutive channels of one pixel; it stays inside one filter tap only where a divides
// C, which is the one condition CUTLASS's analytic iterator checks before it runs (its valid()
// tests the access's first channel only). 16-byte loads (a = 8 for fp16) are the widest.
//   C = 64 -> 8, C = 12 -> 4, C = 3 (the ResNet-50 stem) -> 1, C = 6 -> 2
#pragma once
#include "gemmlab/conv_problem.h"
#include "gemmlab/hd.h"

namespace gemmlab::conv {

// Widest alignment: one 16-byte vector (8 fp16, 16 int8, 32 int4 elements).
GL_HD constexpr int max_alignment(Element e) { return elements_per_vector(e); }
// Narrowest: one whole byte (int4 elements come in pairs).
GL_HD constexpr int min_alignment(Element e) { return e == Element::S4 ? 2 : 1; }
GL_HD constexpr int access_bytes(Element e, int alignment) { return alignment * element_bits(e) / 8; }

// The largest power of two from min_alignment to max_alignment that divides C; 0 where none does
// (an odd C of int4 elements).
GL_HD constexpr int default_alignment(const Shape& sh, Element e) {
  for (int a = max_alignment(e); a >= min_alignment(e); a /= 2)
    if (sh.c % a == 0) return a;
  return 0;
}
static_assert(default_alignment(Shape{1, 8, 8, 3, 8, 7, 7, 3, 2, 1}, Element::F16) == 1 &&
              default_alignment(Shape{1, 8, 8, 12, 8, 3, 3, 1, 1, 1}, Element::F16) == 4 &&
              default_alignment(Shape{1, 8, 8, 64, 8, 3, 3, 1, 1, 1}, Element::F16) == 8 &&
              default_alignment(Shape{1, 8, 8, 24, 8, 3, 3, 1, 1, 1}, Element::S8) == 8 &&
              default_alignment(Shape{1, 8, 8, 3, 8, 3, 3, 1, 1, 1}, Element::S4) == 0);

// nullptr when loads of `alignment` elements of `e` can read this problem's activations, else the
// rule it breaks (the mapping's own rules first).
GL_HD constexpr const char* check_alignment(const Shape& sh, Element e, int alignment) {
  if (const char* why = check_problem(sh)) return why;
  if (alignment != 1 && alignment != 2 && alignment != 4 && alignment != 8 && alignment != 16 && alignment != 32)
    return "the alignment must be 1, 2, 4, 8, 16 or 32 elements";
  if (alignment > max_alignment(e))
    return e == Element::F16 ? "the alignment of fp16 is at most 8 elements (one 16-byte load)"
           : e == Element::S8 ? "the alignment of int8 is at most 16 elements (one 16-byte load)"
                              : "the alignment of int4 is at most 32 elements (one 16-byte load)";
  if (alignment < min_alignment(e)) return "the alignment of int4 is at least 2 elements (one byte)";
  if (sh.c % alignment != 0) return "the alignment must divide C: a load would cross into the next filter tap";
  return nullptr;
}

// The load that holds element (m, kk) of A: its first column, its width, and the input element
// it starts at (or, in the padding, the zero fill's coordinate).
struct Access {
  int first_col;  // kk rounded down to the alignment
  int elements;   // the alignment
  Rsc tap;        // of the first column
  Nhwc input;     // of the first column
  bool in_tensor;
};
GL_HD constexpr Access access_of(const Shape& sh, long long m, int kk, int alignment) {
  const int first = kk - kk % alignment;
  const Rsc t = k_tap(sh, first);
  const Nhwc x = input_of(sh, row_pixel(sh, m), t);
  return {first, alignment, t, x, in_tensor(sh, x)};
}
// Stem row 0, column 5, alignment 1: tap (0, 1, 2), input (0, -3, -2, 2), the padding.
static_assert(access_of(Shape{32, 224, 224, 3, 64, 7, 7, 3, 2, 1}, 0, 5, 1).tap.s == 1 &&
              access_of(Shape{32, 224, 224, 3, 64, 7, 7, 3, 2, 1}, 0, 5, 1).input.w == -2 &&
              !access_of(Shape{32, 224, 224, 3, 64, 7, 7, 3, 2, 1}, 0, 5, 1).in_tensor);

}  // namespace gemmlab::conv
