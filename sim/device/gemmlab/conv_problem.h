// Implicit-GEMM convolution (seed 003, CUTLASS's conv2d fprop): where each element of the GEMM
// lives in the convolution's tensors. No CUDA here: the conv kernels (kernels/stages/conv) include
// these functions for every address they form, `gemmlab sim conv` and the Conv view list the same
// numbers, sim/tests/test_conv_problem.cpp checks them.
//
// Tensors: activations NHWC, filters KRSC, output NPQK (c, k fastest), in elements.
//   P = (H + 2 pad - dilation (R - 1) - 1) / stride + 1, Q likewise from W and S.
// GEMM (CUTLASS's fprop order):
//   M = N*P*Q  row m = (n, p, q), q fastest, then p, then n
//   N = K      column = output channel k
//   K = R*S*C  index kk = (r, s, c), c fastest, then s, then r: the KRSC filter's own order, so
//              filter k is column k of a K-contiguous ("column-major", ldb = R*S*C) GEMM B.
// A(m, kk) = activation (n, p*stride - pad + r*dilation, q*stride - pad + s*dilation, c), or 0
// where that falls into the padding; the output NPQK is the GEMM C row-major (m x K, ldc = K).
//   3x3, pad 1, 56x56x64: row 57 = (n 0, p 1, q 1), kk 64 = (r 0, s 1, c 0) -> input (0, 0, 1, 0)
#pragma once
#include <cstdint>

#include "gemmlab/hd.h"

namespace gemmlab::conv {

// The element types of the conv stages: fp16, and seed 003's integer forms (s32 accumulate).
enum class Element { F16, S8, S4 };
GL_HD constexpr int element_bits(Element e) { return e == Element::F16 ? 16 : e == Element::S8 ? 8 : 4; }
// Elements in one 16-byte vector (the kernels' unit of global and shared memory traffic).
GL_HD constexpr int elements_per_vector(Element e) { return 128 / element_bits(e); }

struct Shape {
  int n = 1, h = 1, w = 1, c = 1;  // activations
  int k = 1, r = 1, s = 1;         // filters: k output channels of R x S x C
  int pad = 0, stride = 1, dilation = 1;

  GL_HD constexpr int p() const { return (h + 2 * pad - dilation * (r - 1) - 1) / stride + 1; }
  GL_HD constexpr int q() const { return (w + 2 * pad - dilation * (s - 1) - 1) / stride + 1; }
  GL_HD constexpr long long gemm_m() const { return 1ll * n * p() * q(); }
  GL_HD constexpr int gemm_n() const { return k; }
  GL_HD constexpr long long gemm_k() const { return 1ll * r * s * c; }
  GL_HD constexpr long long input_elements() const { return 1ll * n * h * w * c; }
  GL_HD constexpr long long filter_elements() const { return 1ll * k * r * s * c; }
  GL_HD constexpr long long output_elements() const { return gemm_m() * k; }
  GL_HD constexpr double flops() const { return 2.0 * double(gemm_m()) * k * double(gemm_k()); }
};

struct Npq { int n, p, q; };
struct Rsc { int r, s, c; };
struct Nhwc { int n, h, w, c; };

// GEMM row m -> output pixel (n, p, q): q fastest, then p, then n.
GL_HD constexpr Npq row_pixel(const Shape& sh, long long m) {
  const int pq = sh.p() * sh.q();
  const int n = int(m / pq), rest = int(m % pq);
  return {n, rest / sh.q(), rest % sh.q()};
}
// GEMM k index -> filter tap (r, s, c): c fastest, then s, then r.
GL_HD constexpr Rsc k_tap(const Shape& sh, int kk) {
  const int rs = kk / sh.c;
  return {rs / sh.s, rs % sh.s, kk % sh.c};
}
// The input element A(m, kk) reads; h or w outside the tensor means the padding (a zero).
GL_HD constexpr Nhwc input_of(const Shape& sh, const Npq& o, const Rsc& t) {
  return {o.n, o.p * sh.stride - sh.pad + t.r * sh.dilation, o.q * sh.stride - sh.pad + t.s * sh.dilation, t.c};
}
GL_HD constexpr bool in_tensor(const Shape& sh, const Nhwc& x) {
  return x.h >= 0 && x.h < sh.h && x.w >= 0 && x.w < sh.w;
}
GL_HD constexpr long long activation_offset(const Shape& sh, const Nhwc& x) {
  return ((1ll * x.n * sh.h + x.h) * sh.w + x.w) * sh.c + x.c;
}
GL_HD constexpr long long filter_offset(const Shape& sh, int k, const Rsc& t) {
  return ((1ll * k * sh.r + t.r) * sh.s + t.s) * sh.c + t.c;
}
GL_HD constexpr long long output_offset(const Shape& sh, long long m, int k) { return m * sh.k + k; }

// ---- The kernels' incremental form of the same address function --------------------------------
// A thread's A rows stay the same over the whole main loop and its k moves by whole tiles, so the
// kernel splits the offset into a per-row part (computed once) and a per-tap part (once per k-tile,
// shared by all of the thread's rows):
//   activation_offset = row.base + tap.delta,  valid = 0 <= row.h0 + tap.dh < H, same for w.
struct RowOrigin {
  long long base;  // offset of input (n, h0, w0, 0), h0 and w0 possibly outside the tensor
  int h0, w0;      // p*stride - pad, q*stride - pad
};
struct TapStep {
  long long delta;  // (dh*W + dw)*C + c
  int dh, dw;       // r*dilation, s*dilation
};
GL_HD constexpr RowOrigin row_origin(const Shape& sh, long long m) {
  const Npq o = row_pixel(sh, m);
  const int h0 = o.p * sh.stride - sh.pad, w0 = o.q * sh.stride - sh.pad;
  return {((1ll * o.n * sh.h + h0) * sh.w + w0) * sh.c, h0, w0};
}
GL_HD constexpr TapStep tap_step(const Shape& sh, int kk) {
  const Rsc t = k_tap(sh, kk);
  const int dh = t.r * sh.dilation, dw = t.s * sh.dilation;
  return {(1ll * dh * sh.w + dw) * sh.c + t.c, dh, dw};
}
GL_HD constexpr bool tap_in_tensor(const Shape& sh, const RowOrigin& o, const TapStep& t) {
  return unsigned(o.h0 + t.dh) < unsigned(sh.h) && unsigned(o.w0 + t.dw) < unsigned(sh.w);
}
// (57, 64) of the example above: base of (0, 0, 0) + delta of (0, 1, 0) = input (0, 0, 1, 0).
static_assert(row_origin(Shape{1, 56, 56, 64, 64, 3, 3, 1, 1, 1}, 57).base +
                  tap_step(Shape{1, 56, 56, 64, 64, 3, 3, 1, 1, 1}, 64).delta ==
              activation_offset(Shape{1, 56, 56, 64, 64, 3, 3, 1, 1, 1}, Nhwc{0, 0, 1, 0}));

// ---- TMA im2col mode (stage 14d where C is a multiple of 64) ---------------------------------------
// The copy engine walks a tile's output pixels itself: one cp.async.bulk.tensor.4d ... .im2col per
// k-tile loads kTileM pixels x 64 channels, starting at the tile's first window origin (n, h0, w0)
// moved by the tap's offsets (s * dilation, r * dilation). Per image it visits the window origins
// inside the box [lower, extent - 1 + upper] of each spatial dimension, stepping by the stride, w
// fastest, then h, then n: exactly the GEMM rows' order (q fastest, then p, then n). A pixel outside
// the tensor (the padding, an image past N) reads as zero. Corners as CUTLASS 3 computes them
// (fprop): lower = -pad, upper = pad - (filter - 1) * dilation; the driver takes them w first.
struct Im2colBox {
  int lower_w, lower_h, upper_w, upper_h;
};
GL_HD constexpr Im2colBox im2col_box(const Shape& sh) {
  return {-sh.pad, -sh.pad, sh.pad - (sh.s - 1) * sh.dilation, sh.pad - (sh.r - 1) * sh.dilation};
}
// 56x56, 3x3, pad 1: origins h0 in [-1, 54], 56 of them (P = 56).
static_assert(im2col_box(Shape{32, 56, 56, 64, 64, 3, 3, 1, 1, 1}).upper_h == -1 &&
              56 + im2col_box(Shape{32, 56, 56, 64, 64, 3, 3, 1, 1, 1}).upper_h -
                      im2col_box(Shape{32, 56, 56, 64, 64, 3, 3, 1, 1, 1}).lower_h == 56);
// The coordinates one box instruction names: the channel, the tile's first window origin
// (w0, h0, n) and the tap's offsets (dw, dh). The kernel's producer issues exactly these; the
// simulator replays them. im2col_tile: the tile's part, once per tile (64-bit divisions);
// im2col_load: k-tile kk's (one tap, 64 channels), each k-tile.
struct Im2colLoad {
  int c, w0, h0, n;
  int dw, dh;
};
GL_HD constexpr Im2colLoad im2col_tile(const Shape& sh, long long m0) {
  const RowOrigin o = row_origin(sh, m0);
  return {0, o.w0, o.h0, row_pixel(sh, m0).n, 0, 0};
}
GL_HD constexpr Im2colLoad im2col_load(const Shape& sh, Im2colLoad tile, int kk) {
  const Rsc t = k_tap(sh, kk);
  tile.c = t.c, tile.dw = t.s * sh.dilation, tile.dh = t.r * sh.dilation;
  return tile;
}
// The copy engine's walk, as the PTX ISA describes im2col mode: per image the window origins
// (lower + i * stride) up to extent - 1 + upper, w fastest, then h, then n; row `row` of the box is
// the row-th origin from the load's (n, h0, w0), moved by its (dh, dw). test_conv_problem checks it
// against the GEMM's address function (input_of): this is the kernel's claim that one box per
// k-tile loads exactly the implicit im2col tile.
GL_HD constexpr Nhwc im2col_box_pixel(const Shape& sh, const Im2colLoad& l, int row) {
  const Im2colBox b = im2col_box(sh);
  const long long along_w = (sh.w - 1 + b.upper_w - b.lower_w) / sh.stride + 1;
  const long long along_h = (sh.h - 1 + b.upper_h - b.lower_h) / sh.stride + 1;
  const long long start =
      (1ll * l.n * along_h + (l.h0 - b.lower_h) / sh.stride) * along_w + (l.w0 - b.lower_w) / sh.stride;
  const long long i = start + row;
  const long long q = i % along_w, p = i / along_w % along_h;
  return {int(i / (along_w * along_h)), int(b.lower_h + p * sh.stride + l.dh), int(b.lower_w + q * sh.stride + l.dw),
          l.c};
}
// What a 4D im2col tensor map can express (cuTensorMapEncodeIm2col): corners in [-128, 127],
// traversal strides up to 8, tap offsets in 16 bits; and one k-tile must be 64 channels of one tap.
GL_HD constexpr bool im2col_tma_fits(const Shape& sh) {
  const Im2colBox b = im2col_box(sh);
  auto corner = [](int v) { return v >= -128 && v <= 127; };
  return sh.c % 64 == 0 && corner(b.lower_w) && corner(b.lower_h) && corner(b.upper_w) && corner(b.upper_h) &&
         sh.stride <= 8 && 1ll * (sh.r - 1) * sh.dilation < 65536 && 1ll * (sh.s - 1) * sh.dilation < 65536;
}
static_assert(im2col_tma_fits(Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}) &&
              !im2col_tma_fits(Shape{3, 37, 41, 96, 100, 3, 3, 1, 2, 1}));
// A 1x1 filter without padding whose output keeps the input's H x W (stride 1, or a 1 x 1 image)
// reads pixel m for output row m: the implicit im2col matrix is the NHWC input itself, N*H*W rows of
// C channels, and stage 14d loads its boxes with the TMA's tiled mode (a 2D box, as the GEMM stages
// do) instead of the im2col mode. Same bytes in the same rows; on the H200 the tiled boxes made
// ResNet-50's eight such layers on the plain launch 4.5-9.5 % faster (kernels/lab/results/conv/README.md).
GL_HD constexpr bool a_is_matrix(const Shape& sh) {
  return sh.r == 1 && sh.s == 1 && sh.pad == 0 && sh.p() == sh.h && sh.q() == sh.w;
}
static_assert(a_is_matrix(Shape{32, 28, 28, 512, 128, 1, 1, 0, 1, 1}) &&
              !a_is_matrix(Shape{32, 56, 56, 256, 512, 1, 1, 0, 2, 1}) &&  // the downsample: every other pixel
              !a_is_matrix(Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}));

// ---- Sub-byte packing (seed 003's Array<int4b_t> / SubbyteReference) -----------------------------
// Eight s4 values per 32-bit word, element i in bits 4i .. 4i+3 (element 0 in the low nibble), so
// the s4 tensor's element e is nibble e % 8 of word e / 8, byte e / 2.
GL_HD constexpr int s4_word(long long e) { return int(e / 8); }    // within its tensor or vector
GL_HD constexpr int s4_nibble(long long e) { return int(e % 8); }
GL_HD constexpr int s4_get(std::uint32_t word, int i) {
  const int nib = int((word >> (4 * i)) & 0xFu);
  return nib >= 8 ? nib - 16 : nib;
}
GL_HD constexpr std::uint32_t s4_set(std::uint32_t word, int i, int v) {
  return (word & ~(0xFu << (4 * i))) | ((std::uint32_t(v) & 0xFu) << (4 * i));
}
static_assert(s4_get(0x0000'00F0u, 1) == -1 && s4_get(0x7000'0000u, 7) == 7 &&
              s4_set(0, 2, -8) == 0x800u);

// ---- mma.sync rates on an H100 (register-only loops, ../shared/reference/hardware_rules.md) ------
// Why stage 14c is slow on Hopper, and what the Kernels view says beside it.
struct MmaRate {
  const char* instruction;
  double tera_ops;  // TFLOP/s or TOP/s
};
inline constexpr MmaRate kH100MmaSyncRates[] = {
    {"mma.sync m16n8k16 f16 -> f32", 634}, {"mma.sync m16n8k32 s8 -> s32", 1285}, {"mma.sync m8n8k32 s4 -> s32", 34}};

// ---- What the mapping and the conv kernels accept --------------------------------------------------
// nullptr when the implicit GEMM of this shape is defined (any C: the mapping above does not
// depend on how many channels one load moves), else the rule it breaks. The loads' width is a
// rule of the alignment (conv_alignment.h).
GL_HD constexpr const char* check_problem(const Shape& sh) {
  if (sh.n < 1 || sh.h < 1 || sh.w < 1 || sh.c < 1 || sh.k < 1 || sh.r < 1 || sh.s < 1)
    return "N, H, W, C, K, R and S must be at least 1";
  if (sh.pad < 0 || sh.stride < 1 || sh.dilation < 1)
    return "padding must be >= 0, stride and dilation >= 1";
  if (sh.n > (1 << 20) || sh.h > (1 << 16) || sh.w > (1 << 16) || sh.c > (1 << 16) ||
      sh.k > (1 << 16) || sh.r > 64 || sh.s > 64 || sh.pad > 64 || sh.stride > 64 || sh.dilation > 64)
    return "N must be at most 2^20, H, W, C and K at most 65536, R, S, padding, stride and dilation at most 64";
  if (sh.h + 2 * sh.pad < sh.dilation * (sh.r - 1) + 1 || sh.w + 2 * sh.pad < sh.dilation * (sh.s - 1) + 1)
    return "the filter (with its dilation) is larger than the padded input: P or Q would be 0";
  constexpr long long kMax = (1ll << 31) - 1;  // 32-bit element indices inside the kernels
  if (sh.input_elements() > kMax || sh.filter_elements() > kMax || sh.output_elements() > kMax)
    return "each tensor must have fewer than 2^31 elements (the kernels index with 32-bit ints)";
  return nullptr;
}
// nullptr when the kernels can run this shape with 16-byte loads of `e`, else the rule it breaks.
GL_HD constexpr const char* check_shape(const Shape& sh, Element e) {
  if (const char* why = check_problem(sh)) return why;
  if (e == Element::F16 && sh.c % 8 != 0) return "C must be a multiple of 8 for 16-byte fp16 loads";
  if (e == Element::S8 && sh.c % 16 != 0) return "C must be a multiple of 16 for 16-byte int8 loads";
  if (e == Element::S4 && sh.c % 32 != 0) return "C must be a multiple of 32 for 16-byte int4 loads";
  return nullptr;
}

}  // namespace gemmlab::conv

namespace gemmlab::conv {

// ---- The block tiles the conv kernels are built with ---------------------------------------------
// GEMM rows (output pixels) x columns (output channels) per block, and per warp; every tile takes
// 64 bytes of K per k-tile (32 fp16, 64 int8, 128 int4 channels) through 4 cp.async stages, the
// FP16 ladder's Swizzle<3,3,3> layout and ldmatrix.x4 (kernels/stages/conv/conv_mainloop.cuh).
struct TileShape {
  int m, n, warp_m, warp_n;
  constexpr int threads() const { return (m / warp_m) * (n / warp_n) * 32; }
};
inline constexpr TileShape kTiles[] = {{128, 128, 64, 32}, {128, 64, 64, 32}, {64, 128, 64, 32}, {64, 64, 32, 32}};
inline constexpr int kTileCount = int(sizeof(kTiles) / sizeof(kTiles[0]));
inline constexpr int kTileKBytes = 64, kStages = 4;
static_assert(kTiles[0].threads() == 256 && kTiles[1].threads() == 128 && kTiles[3].threads() == 128);

constexpr long long tile_blocks(const Shape& sh, const TileShape& t) {
  return ((sh.gemm_m() + t.m - 1) / t.m) * ((sh.k + t.n - 1) / t.n);
}
// Which of kTiles a conv stage launches for this problem on a GPU of `sms` SMs, as measured on an
// H100 (kernels/lab/CONV_NOTES.md: each tile forced on ResNet-50's 3x3 layers, fp16):
// 128x64 where K <= 64 (a 128-column tile would be half padding), 128x128 only with blocks to
// spare (4 per SM), else 64x128, which beat 128x128, 128x64 and 64x64 on the 28x28, 14x14 and 7x7
// layers (169, 191, 134 TFLOP/s against at best 156, 176, 126), and 64x64 when even 64x128 leaves
// more than half of the SMs idle. ResNet-50's 3x3 layers at N = 32 on 132 SMs:
//   56x56 C=K=64 -> 128x64 (784 blocks), 28x28 C=K=128 -> 64x128 (392),
//   14x14 C=K=256 -> 64x128 (196), 7x7 C=K=512 -> 64x128 (100)
constexpr int choose_tile(const Shape& sh, int sms) {
  if (sh.k <= 64) return 1;
  if (tile_blocks(sh, kTiles[0]) >= 4ll * sms) return 0;
  if (2 * tile_blocks(sh, kTiles[2]) >= sms) return 2;
  return 3;
}
static_assert(choose_tile(Shape{32, 56, 56, 64, 64, 3, 3, 1, 1, 1}, 132) == 1 &&
              choose_tile(Shape{32, 28, 28, 128, 128, 3, 3, 1, 1, 1}, 132) == 2 &&
              choose_tile(Shape{32, 14, 14, 256, 256, 3, 3, 1, 1, 1}, 132) == 2 &&
              choose_tile(Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 132) == 2);

// Stage 14d (conv-wgmma): its block tile and its work split, on a GPU of `sms` SMs. Measured on an
// H100 (CONV_NOTES.md, TFLOP/s on ResNet-50's 3x3 layers at N = 32):
// - activations by the TMA's im2col mode (C % 64 == 0): 128 x 64 where K <= 64 (56x56: 203-210
//   against 191 for 64 x 64 at four blocks per SM); 256 x 128 at one block per SM where those
//   tiles make one wave of at least half the SMs and K is long (28x28: 258-268 against 240-242
//   for 64 x 128; not on 1x1 layers, whose 8 k-tiles leave the epilogue bare); else 64 x 128.
// - activations gathered by the producer warpgroup: 64 x 64 where K <= 64, else 64 x 128.
struct WgmmaTile {
  int m, n, blocks_per_sm;
  int max_splits;  // 1 + how many m x n fp32 partial tiles the stages' shared memory holds
};
constexpr WgmmaTile wgmma_tile(const Shape& sh, int sms, bool im2col) {
  if (!im2col) return sh.k <= 64 ? WgmmaTile{64, 64, 4, 4} : WgmmaTile{64, 128, 2, 4};
  if (sh.k <= 64) return {128, 64, 2, 4};
  const long long tall = ((sh.gemm_m() + 255) / 256) * ((sh.k + 127) / 128);
  if (2 * tall >= sms && tall <= sms && sh.gemm_k() >= 16 * 64) return {256, 128, 1, 2};
  return {64, 128, 2, 4};
}
constexpr WgmmaTile wgmma_tile(const Shape& sh, int sms) { return wgmma_tile(sh, sms, im2col_tma_fits(sh)); }
static_assert(wgmma_tile(Shape{32, 56, 56, 64, 64, 3, 3, 1, 1, 1}, 132).m == 128 &&
              wgmma_tile(Shape{32, 28, 28, 128, 128, 3, 3, 1, 1, 1}, 132).m == 256 &&
              wgmma_tile(Shape{32, 28, 28, 512, 128, 1, 1, 0, 1, 1}, 132).m == 64 &&
              wgmma_tile(Shape{32, 14, 14, 256, 256, 3, 3, 1, 1, 1}, 132).m == 64 &&
              wgmma_tile(Shape{3, 37, 41, 96, 100, 3, 3, 1, 2, 1}, 132).n == 128);

// Stages 14d / 14e keep their blocks resident over several tiles (14d_conv_wgmma/conv_wgmma_persistent.cuh)
// where the layer has more 64 x 128 tiles (im2col boxes, one k slice) than two blocks an SM take at
// once and a short K (at most 4 k-tiles: with 8, the 3 stages it fits lost 2-7 % on the H200's 1x1
// layers, with 1-4 it gained 4-21 %): a grid of two blocks per SM, block b taking tiles b, b + grid,
// ... so the next tile's loads run under the last one's epilogue.
inline constexpr int kPersistentBlocksPerSm = 2;
constexpr bool resident_fits(const WgmmaTile& t, long long tiles, int splits, int k_tiles, int sms) {
  return t.m == 64 && t.n == 128 && splits == 1 && tiles > 1ll * kPersistentBlocksPerSm * sms && k_tiles <= 4;
}

// The work of stage 14d's blocks: block b computes k-tiles [k_begin, k_end) of slice b % splits
// of tile b / splits (tiles m fastest). With several slices (where the tiles leave SMs idle and K
// is long) the slices of a tile are one cluster: the others send their accumulators into the
// shared memory of its first block (distributed shared memory), which adds them and stores the
// tile; no zeroed output, no atomics, any beta.
struct ConvBlock {
  int m_tile, n_tile, k_begin, k_end;
};
struct ConvWork {
  int m_tiles = 1, n_tiles = 1, k_tiles = 1, splits = 1;
  bool a_matrix = false;  // A's boxes from the input as a plain [M][C] matrix (a_is_matrix), not im2col ones
  GL_HD constexpr int tiles() const { return m_tiles * n_tiles; }
  GL_HD constexpr long long blocks() const { return 1ll * tiles() * splits; }
  GL_HD constexpr ConvBlock block(int b) const {
    const int tile = b / splits, slice = b % splits;
    return {tile % m_tiles, tile / m_tiles, int(1ll * k_tiles * slice / splits), int(1ll * k_tiles * (slice + 1) / splits)};
  }
};
// 7x7 C=K=512 at N = 32: 100 tiles of 64 x 128 on 132 SMs, 72 k-tiles -> 2 slices, 200 blocks.
constexpr ConvWork wgmma_work(const Shape& sh, int sms, bool im2col) {
  const WgmmaTile t = wgmma_tile(sh, sms, im2col);
  ConvWork w{int((sh.gemm_m() + t.m - 1) / t.m), (sh.k + t.n - 1) / t.n, int((sh.gemm_k() + 63) / 64), 1};
  const long long tiles = w.tiles();
  // (More tiles than SMs are never split: the 14x14 3x3 layers' 196 tiles in 2 slices, 3 blocks
  // on most SMs instead of 2 on half of them, ran at 0.75 x the unsplit speed on the H200.)
  if (tiles < sms && w.k_tiles >= 32)
    while (w.splits < t.max_splits && tiles * (w.splits + 1) <= 1ll * t.blocks_per_sm * sms &&
           w.k_tiles / (w.splits + 1) >= 16)
      ++w.splits;
  // The resident blocks keep the im2col boxes: with 2D ones their fused epilogue needed fewer residual
  // loads in flight to fit 128 registers, and the expand layers lost 5.6-11.7 % (results/conv/README.md).
  w.a_matrix = im2col && a_is_matrix(sh) && !resident_fits(t, tiles, w.splits, w.k_tiles, sms);
  return w;
}
constexpr ConvWork wgmma_work(const Shape& sh, int sms) { return wgmma_work(sh, sms, im2col_tma_fits(sh)); }
static_assert(wgmma_work(Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 132).splits == 2 &&
              wgmma_work(Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 132).block(151).k_begin == 36 &&
              wgmma_work(Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 132).block(151).n_tile == 3 &&
              wgmma_work(Shape{32, 14, 14, 256, 256, 3, 3, 1, 1, 1}, 132).splits == 1);

// The resident launch's grid (resident_fits above), or 0: the plain launch (a block per tile and k slice).
constexpr long long wgmma_persistent_grid(const Shape& sh, int sms, bool im2col) {
  const WgmmaTile t = wgmma_tile(sh, sms, im2col);
  const ConvWork w = wgmma_work(sh, sms, im2col);
  if (!im2col || !resident_fits(t, w.tiles(), w.splits, w.k_tiles, sms)) return 0;
  return 1ll * kPersistentBlocksPerSm * sms;
}
constexpr long long wgmma_persistent_grid(const Shape& sh, int sms) {
  return wgmma_persistent_grid(sh, sms, im2col_tma_fits(sh));
}
// 1x1 56x56 C 256 -> K 512, stride 2: 392 x 4 tiles of 64 x 128, 4 k-tiles -> 264 resident blocks;
// the 7x7 3x3 layer's 100 tiles, split in 2, and the 28x28 C 512 layer's 8 k-tiles keep the plain launch.
static_assert(wgmma_persistent_grid(Shape{32, 56, 56, 256, 512, 1, 1, 0, 2, 1}, 132) == 264 &&
              wgmma_persistent_grid(Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 132) == 0 &&
              wgmma_persistent_grid(Shape{32, 28, 28, 512, 256, 1, 1, 0, 1, 1}, 132) == 0);  // 8 k-tiles

}  // namespace gemmlab::conv
