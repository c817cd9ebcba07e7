#include "device_words.h"

#include <cstdio>

namespace gemmlab::exercise {
namespace {

std::string printed(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string short_number(double x) { return printed("%.2g", x); }

// Why one file that passed on the CPU gives other bits on the GPU.
Words gpu_differs() {
  return words("your file passed on the CPU; NVRTC fuses a * b + c into one rounding and takes <cmath> from libcu++, "
               "so look for arithmetic that rounds differently there");
}

// What a wrong result is, most telling first: a problem the stage refused, values never written
// (the NaN poison), writes past C, else how far C is from the reference's.
Words what_is_wrong(const WrongResult& r, bool conv) {
  if (!r.rejected.empty()) return literal(r.rejected);
  if (r.nonfinite) return words("%s elements are NaN or infinite", r.nonfinite);
  if (r.guard_hits) {
    if (conv) return words("%s words outside the output were written", r.guard_hits);
    return words("%s words outside C were written", r.guard_hits);
  }
  if (conv)
    return words("relative error %s against im2col + cuBLAS (at most %s)", short_number(r.rel_err),
                 short_number(r.tolerance));
  return words("relative error %s against cuBLAS (at most %s)", short_number(r.rel_err), short_number(r.tolerance));
}

constexpr unsigned long long field(unsigned long long word, int shift, unsigned long long mask) {
  return (word >> shift) & mask;
}

}  // namespace

Words wrong_c(const std::string& stage, int m, int n, int k, const WrongResult& r) {
  return words("stage %s's kernel with your function computes a wrong C at %s x %s x %s: %s", stage, m, n, k,
               what_is_wrong(r, false));
}

Words wrong_conv_output(const std::string& stage, const conv::Shape& s, const WrongResult& r) {
  return words("stage %s's kernel with your function computes a wrong output at %s: %s", stage, conv_shape_words(s),
               what_is_wrong(r, true));
}

Words conv_shape_words(const conv::Shape& s) {
  return words("N %s, H %s, W %s, C %s, K %s, %s x %s filters, pad %s, stride %s", s.n, s.h, s.w, s.c, s.k, s.r, s.s,
               s.pad, s.stride);
}

Words timed_against_stage(const std::string& gpu, int m, int n, int k, const std::string& stage, double ratio,
                          double yours_ms, double stage_ms) {
  return words(
      "correct against cuBLAS on %s; at %s x %s x %s your kernel runs at %sx stage %s's speed "
      "(%s ms against %s ms, timed in turns)",
      gpu, m, n, k, printed("%.2f", ratio), stage, printed("%.3f", yours_ms), printed("%.3f", stage_ms));
}

// A convolution this small takes microseconds: one more digit.
Words timed_conv_against_stage(const std::string& gpu, const conv::Shape& s, const std::string& stage, double ratio,
                               double yours_ms, double stage_ms) {
  return words(
      "correct against im2col + cuBLAS on %s; at %s your kernel runs at %sx stage %s's speed "
      "(%s ms against %s ms, timed in turns)",
      gpu, conv_shape_words(s), printed("%.2f", ratio), stage, printed("%.4f", yours_ms), printed("%.4f", stage_ms));
}

Words correct_not_timed(const std::string& gpu, const std::string& rejected) {
  return words("correct against cuBLAS on %s; not timed: %s", gpu, rejected);
}

Words correct_conv_not_timed(const std::string& gpu, const std::string& rejected) {
  return words("correct against im2col + cuBLAS on %s; not timed: %s", gpu, rejected);
}

Words mbarrier_deadlock(unsigned long long producer, unsigned long long consumer, int stages) {
  if (!producer && !consumer) return {};
  const unsigned long long first = producer ? producer : consumer;
  const long long at = static_cast<long long>(field(first, 32, 0x7fffffff));
  const Words stage17 =
      at < stages ? words("stage 17 waits on full for parity %s and on empty for none (a fresh barrier) at k-tile %s",
                          at / stages & 1, at)
                  : words("stage 17 waits on full for parity %s and on empty for parity %s at k-tile %s",
                          at / stages & 1, (at / stages - 1) & 1, at);
  const Words empty = words("empty[%s] for parity %s before k-tile %s", field(producer, 8, 0xff),
                            field(producer, 0, 1), field(producer, 32, 0x7fffffff));
  const Words full = words("full[%s] for parity %s before k-tile %s", field(consumer, 8, 0xff), field(consumer, 0, 1),
                           field(consumer, 32, 0x7fffffff));
  if (producer && consumer)
    return words(
        "your plan deadlocks on the GPU: the producer waited on %s and the consumer on %s; neither wait passed "
        "within 100 ms (%s)",
        empty, full, stage17);
  if (consumer)
    return words("your plan deadlocks on the GPU: the consumer waited on %s, which did not pass within 100 ms (%s)",
                 full, stage17);
  return words("your plan deadlocks on the GPU: the producer waited on %s, which did not pass within 100 ms (%s)",
               empty, stage17);
}

// Where the host grade passed and the GPU differs, the same file computes otherwise there: what
// differs between the two builds is named.
Words fp8_quantize_wrong_scale(const std::string& gpu, int row, int block, const std::string& got,
                               const std::string& want) {
  return words("on %s your quantize_row gives block %s of activation row %s the scale %s; the simulator's quantizer "
               "gives %s (%s)",
               gpu, block, row, got, want, gpu_differs());
}

Words fp8_quantize_wrong_code(const std::string& gpu, int row, int col, const std::string& x, const std::string& scale,
                              const std::string& got, const std::string& want) {
  return words("on %s your quantize_row gives x = %s (activation row %s, element %s, scale %s) the code %s; the "
               "simulator's quantizer gives %s (%s)",
               gpu, x, row, col, scale, got, want, gpu_differs());
}

Words fp8_quantize_timed(const std::string& gpu, int m, int k, double ratio, double yours_ms, double solution_ms) {
  return words("the same codes and scales as the simulator's quantizer on %s for a %s x %s activation; your "
               "quantization runs at %sx the lesson's solution's speed (%s ms against %s ms, timed in turns)",
               gpu, m, k, printed("%.2f", ratio), printed("%.4f", yours_ms), printed("%.4f", solution_ms));
}

Words fp8_quantize_not_timed(const std::string& gpu, const std::string& why) {
  return words("the same codes and scales as the simulator's quantizer on %s; not timed: %s", gpu, why);
}

}  // namespace gemmlab::exercise
