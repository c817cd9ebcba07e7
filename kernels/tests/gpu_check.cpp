// GPU correctness test (ctest label `gpu`): every registered stage, both tracks, against cuBLAS at
// the sizes and the lesson sizes (convolutions: against im2col + cuBLAS, and ragged shapes
// against a direct convolution on the host); cuBLAS itself and the small sizes against a host
// reference in double; alpha/beta. Exit 0 all pass, 1 a failure, 77 no GPU (ctest: Skipped).
//
//   gpu_check                       the full test
//   gpu_check --sanitizer           small sizes, host reference only (no cuBLAS kernels in the
//                                   sanitizer's trace): what run_sanitizer.sh runs
//   gpu_check --stages a,b          only these stages (ids or tracks: fp32, fp16, hopper, fp8, conv-fp16, ...)
//   gpu_check --probe               77 when there is no GPU, else 0
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "gemmlab/resnet50_layers.h"
#include "runner.h"

using namespace gemmlab::kernels;
namespace conv = gemmlab::conv;

namespace {

// The sizes, then the lesson problems (lessons/*/lesson.toml: 4096^3, 32768x1024x1024
// for block-swizzle, 512x512x32768 for split-k / stream-k, 256x32768x8192 for cluster) and odd
// shapes that leave partial tiles and k-tiles everywhere (a K split into uneven pieces, M not a
// multiple of 4).
// The Hopper stages need K % 8 == 0 (TMA row strides): 1001x1499x712 gives them ragged M and N,
// 1000x1500x712 the same with M % 4 == 0 (the persistent stage's TMA-store epilogue).
const Problem kSizes[] = {{1, 1, 1},        {127, 129, 65},     {1000, 1500, 700},
                          {4096, 4096, 4096}, {32768, 1024, 1024}, {512, 512, 32768},
                          {512, 512, 16384}, {33, 65, 5003},      {130, 3, 1031},
                          {1001, 1499, 712}, {1000, 1500, 712}, {256, 32768, 8192}};
// Small enough for the host reference and for the sanitizers (which run 10-100x slower).
// 132x68x300 takes the 128-bit load path of stages 6, 11, 13a, 13b (M, K multiples of 4) with a k residue.
// 127x129x72, 130x260x24 and 132x260x40: partial tiles with K % 8 == 0, which the Hopper stages
// accept (the last with M % 4 == 0: the persistent stage's TMA-store epilogue).
const Problem kSmallSizes[] = {{1, 1, 1},      {127, 129, 65}, {67, 35, 300},  {130, 260, 17},
                               {132, 68, 300}, {127, 129, 72}, {130, 260, 24}, {132, 260, 40}};

const Problem kTailSize{2304, 2048, 128};
// One cluster tile (both blocks' columns stop at 124) with 528 k-tiles, just under the host
// reference's 2^30: the persistent stage splits it over every cluster (8 k-tiles each), one
// store and 65 reduce-adds into the same C.
const Problem kSplitAllSize{256, 124, 33792};
// 264 units on 66 clusters: the persistent stage's narrowed rows (tile rows 16-31 in 240- and
// 248-column tiles, their last columns stored as 32 x 8 boxes), one partial k-tile; with alpha and
// beta the same tiles through the direct stores.
const Problem kNarrowedSize{4096, 4096, 56};

// The dispatcher (a Dispatch row, stage 19c): the shape sweep's smaller shapes, one per clause of
// gemmlab/auto_dispatch.h's rule on 132 SMs, and ragged ones beside them (M, N not multiples of
// the tiles; K % 8 == 0): 17 rows in one tile row, 63 x 28680 one wave of big tiles, 1000^3 and
// 520 x 500 x 16384 under the split.
const Problem kDispatchSizes[] = {{16, 8192, 8192},  {128, 8192, 8192},  {64, 28672, 8192}, {1024, 1024, 1024},
                                  {512, 512, 16384}, {2048, 2048, 2048}, {17, 8200, 8192},  {63, 28680, 8192},
                                  {1000, 1000, 1000}, {520, 500, 16384}, {130, 8190, 4104}};

// Convolutions for an element type whose 16-byte vector holds cv channels: the ragged
// shapes (N = 1, 7x7, K = 24, 3x3 stride 2 with pad 0 and 1; 1x1; 5x5), dilation, odd K, several
// images, one tile with a long K; small enough for the host reference and the sanitizers.
std::vector<conv::Shape> small_convs(int cv) {
  return {{1, 7, 7, cv, 24, 3, 3, 0, 2, 1},     {1, 7, 7, cv, 24, 3, 3, 1, 2, 1},  {2, 9, 11, 2 * cv, 40, 1, 1, 0, 1, 1},
          {1, 10, 12, cv, 8, 5, 5, 2, 1, 1},    {1, 9, 9, cv, 16, 3, 3, 1, 1, 2},  {3, 5, 6, 2 * cv, 72, 3, 3, 1, 1, 1},
          {1, 6, 6, cv, 13, 3, 3, 1, 1, 1},     {2, 12, 12, 4 * cv, 136, 3, 3, 1, 1, 1},
          {1, 4, 4, 32 * cv, 72, 3, 3, 1, 1, 1},  // one tile, long K: conv-wgmma splits its 36 k-tiles in 2 (a cluster)
          {1, 12, 12, 48 * cv, 100, 3, 3, 1, 1, 1},  // conv-wgmma: 3 tiles, 54 k-tiles in 3 slices (clusters of 3)
          // 64 fp16 channels and more: conv-wgmma's TMA im2col boxes (h != w, stride 2, dilation 2)
          {2, 11, 9, 8 * cv, 40, 3, 3, 1, 2, 1}, {1, 10, 13, 8 * cv, 24, 3, 3, 2, 1, 2},
          // fp16: 267 x 2 tiles of 64 x 128 (M and N ragged), one k-tile: conv-wgmma's resident blocks
          // (conv::wgmma_persistent_grid), 264 of them taking 2-3 tiles each.
          {1, 130, 131, 8 * cv, 136, 1, 1, 0, 1, 1}};
}
// ResNet-50's layers at N = 32 (3x3 pad 1, and the 1x1 expand / reduce layers), and a ragged
// large one (M, N and K all partial tiles).
std::vector<conv::Shape> large_convs() {
  std::vector<conv::Shape> v;
  for (auto [hw, c] : {std::pair{56, 64}, {28, 128}, {14, 256}, {7, 512}}) {
    v.push_back({32, hw, hw, c, c, 3, 3, 1, 1, 1});
    v.push_back({32, hw, hw, c, 4 * c, 1, 1, 0, 1, 1});
    v.push_back({32, hw, hw, 4 * c, c, 1, 1, 0, 1, 1});
  }
  v.push_back({3, 37, 41, 96, 100, 3, 3, 1, 2, 1});
  v.push_back({3, 37, 41, 128, 100, 3, 3, 1, 2, 1});  // the same through conv-wgmma's im2col boxes
  return v;
}

// Few channels (C % 8 != 0): the stem's C = 3 (7x7 / 2, pad 3) on a small image, C = 3 and 12 with
// 3x3 filters, C = 5 with stride 2 and an odd K; what stage 14d / 14e's element-by-element producer
// loads (its columns cross filter taps inside one 16-byte vector).
const conv::Shape kFewChannelConvs[] = {{2, 23, 19, 3, 64, 7, 7, 3, 2, 1}, {1, 9, 9, 3, 24, 3, 3, 1, 1, 1},
                                        {1, 10, 7, 12, 40, 3, 3, 1, 1, 1}, {3, 11, 11, 5, 13, 3, 3, 1, 2, 1}};
// The fused epilogue's forms: bias + ReLU (most layers), + residual (a block's expand), bias only
// (a downsample).
const ConvEpilogue kEpilogues[] = {{true, false}, {true, true}, {false, false}};
std::string epilogue_text(const ConvEpilogue& e) {
  return std::string("bias") + (e.residual ? "+res" : "") + (e.relu ? "+relu" : "");
}

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
};

std::string text(const Problem& p) {
  return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}
std::string text(const conv::Shape& c) {
  return std::to_string(c.n) + "," + std::to_string(c.h) + "," + std::to_string(c.w) + "," + std::to_string(c.c) + "," +
         std::to_string(c.k) + "," + std::to_string(c.r) + "," + std::to_string(c.s) + "," + std::to_string(c.pad) +
         "," + std::to_string(c.stride) + "," + std::to_string(c.dilation);
}

template <class Size>
void report(Tally& t, const std::string& what, const Size& p, const CheckResult& r, Track tr) {
  if (!r.rejected.empty()) {
    // A stage may refuse a shape, but must say which rule (checked to be non-empty here).
    std::printf("  SKIP  %-18s %-16s rejected: %s\n", what.c_str(), text(p).c_str(),
                r.rejected.c_str());
    ++t.skipped;
    return;
  }
  const bool ok = r.ok;
  if (r.per_element)  // FP8: per element, against the exact product (fp8_runner.cu)
    std::printf("  %s  %-18s %-16s outside %lld (+-1 data: %lld), worst %.3f of the tolerance, rel_err %.3e  "
                "non-finite %lld  guard %lld\n",
                ok ? "ok  " : "FAIL", what.c_str(), text(p).c_str(), r.outside, r.outside_exact, r.worst, r.rel_err,
                r.nonfinite, r.guard_hits);
  else
    std::printf("  %s  %-18s %-16s rel_err %.3e (< %.0e)  non-finite %lld  guard %lld\n",
                ok ? "ok  " : "FAIL", what.c_str(), text(p).c_str(), r.rel_err, tolerance(tr),
                r.nonfinite, r.guard_hits);
  ok ? ++t.passed : ++t.failed;
}

// FP8: K a multiple of 16 (TMA), partial tiles in M, N and K, N odd and N % 8 != 0 (the direct
// bf16 stores), one full unit; small enough for the host reference and the sanitizers.
const Problem kFp8SmallSizes[] = {{1, 1, 16}, {129, 257, 144}, {130, 255, 48}, {256, 256, 128}, {77, 1000, 272}};
const Problem kFp8Sizes[] = {{4096, 4096, 4096}, {1000, 1500, 2048}, {4000, 3000, 2000}, {777, 1531, 4112},
                             {8192, 8192, 8192}, {4096, 7168, 16384}};

void check_fp8_stage(Runner& runner, Tally& t, const StageInfo& s, bool sanitizer) {
  const Fp8Target target = Fp8Target::of(s);
  for (const Problem& p : kFp8SmallSizes) report(t, "host", p, runner.check_fp8_host(target, p), s.track);
  if (sanitizer) return;
  for (const Problem& p : kFp8Sizes) report(t, "gpu double", p, runner.check_fp8(target, p), s.track);
  // K = 1000: rows of 1000 bytes, which TMA cannot stride: refused with the rule.
  const CheckResult r = runner.check_fp8(target, {1024, 1024, 1000});
  const bool named = r.rejected.find("K must be a multiple of 16") != std::string::npos;
  std::printf("  %s  refuses K = 1000: %s\n", named ? "ok  " : "FAIL", r.rejected.c_str());
  named ? ++t.passed : ++t.failed;
}

// Stage 14e (fp16 output, bias, residual, ReLU): the small and few-channel shapes in every form of
// the epilogue against the host's double reference (alpha 1 and 1.5), then every ResNet-50 layer at
// N = 32 with the epilogue the network runs there against im2col + cuBLAS + the same epilogue.
void check_fused_stage(Tally& t, Runner& runner, const StageInfo& s, bool sanitizer) {
  for (const ConvEpilogue& ep : kEpilogues) {
    ConvTarget target = ConvTarget::of(s);
    target.epilogue = ep;
    const std::string form = epilogue_text(ep);
    for (const conv::Shape& c : small_convs(8)) {
      report(t, "host " + form, c, runner.check_conv_host(target, c), s.track);
      report(t, "host a " + form, c, runner.check_conv_host(target, c, 1.5f), s.track);
    }
    for (const conv::Shape& c : kFewChannelConvs) report(t, "host " + form, c, runner.check_conv_host(target, c), s.track);
  }
  if (sanitizer) return;
  for (const gemmlab::conv::NetworkLayer& l : gemmlab::conv::resnet50_layers(32)) {
    ConvTarget target = ConvTarget::of(s);
    target.epilogue = {l.relu, l.residual};
    report(t, l.name, l.shape, runner.check_conv(target, l.shape), s.track);
  }
  ConvTarget target = ConvTarget::of(s);
  target.epilogue = {true, true};
  for (const conv::Shape& c : large_convs()) report(t, "im2col-cublas", c, runner.check_conv(target, c), s.track);
  // beta has no meaning with an epilogue: refused with a reason.
  const CheckResult r = runner.check_conv(target, small_convs(8)[0], 1.f, 0.5f);
  const bool named = r.rejected.find("not beta") != std::string::npos;
  std::printf("  %s  refuses beta != 0: %s\n", named ? "ok  " : "FAIL", r.rejected.c_str());
  named ? ++t.passed : ++t.failed;
}

}  // namespace

int main(int argc, char** argv) {
  bool sanitizer = false, probe = false;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--sanitizer")) sanitizer = true;
    else if (!std::strcmp(argv[i], "--probe")) probe = true;
    else if (!std::strcmp(argv[i], "--stages") && i + 1 < argc) {
      std::stringstream ss(argv[++i]);
      for (std::string id; std::getline(ss, id, ',');) only.push_back(id);
    } else {
      std::fprintf(stderr, "gpu_check: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (std::string why = gpu_unavailable_reason(); !why.empty()) {
    std::printf("skipped: no GPU (%s)\n", why.c_str());
    return 77;
  }
  if (probe) return 0;

  Tally t;
  try {
    Runner runner;
    std::printf("device: %s (%d SMs)\n", runner.device().name.c_str(), runner.device().sms);

    // The reference itself, against double precision on the host (layouts included).
    if (!sanitizer) {
      std::printf("cuBLAS reference vs host double:\n");
      for (Track tr : {Track::fp32, Track::fp16})
        for (const Problem& p : kSmallSizes) {
          report(t, Target::cublas(tr).id(), p, runner.check_host(Target::cublas(tr), p), tr);
          report(t, Target::cublas(tr).id() + " a/b", p,
                 runner.check_host(Target::cublas(tr), p, 1.5f, -0.75f), tr);
        }
    }

    // The conv references against a direct convolution in double on the host.
    if (!sanitizer) {
      std::printf("conv references vs host double:\n");
      for (conv::Element e : {conv::Element::F16, conv::Element::S8, conv::Element::S4}) {
        std::vector<ConvTarget> refs{ConvTarget::im2col_cublas(e)};
        if (cudnn_built() && e == conv::Element::F16) refs.push_back(ConvTarget::cudnn(e));
        for (const ConvTarget& ref : refs)
          for (const conv::Shape& c : small_convs(conv::elements_per_vector(e)))
            report(t, ref.id() + " " + track_name(gemmlab::conv_track(e)), c, runner.check_conv_host(ref, c),
                   gemmlab::conv_track(e));
      }
      // The fp16 references on few channels (the im2col kernel's scalar form), and cuDNN's fused graph.
      for (const conv::Shape& c : kFewChannelConvs)
        report(t, "im2col-cublas", c, runner.check_conv_host(ConvTarget::im2col_cublas(conv::Element::F16), c),
               Track::conv_fp16);
      // (A graph cuDNN has no engine for is a skip with cuDNN's words, not a failure of this build.)
      if (cudnn_built())
        for (const ConvEpilogue& ep : kEpilogues)
          for (const conv::Shape& c : small_convs(8)) {
            CheckResult r;
            try {
              r = runner.check_conv_host(ConvTarget::cudnn_fused(ep), c);
            } catch (const GpuError& e) {
              r.rejected = e.what();
            }
            report(t, "cudnn-fused " + epilogue_text(ep), c, r, Track::conv_fused);
          }
    }

    // cuBLASLt FP8 (both scalings) against the exact product on the host (fp8_runner.cu).
    if (!sanitizer && runner.device().cc_major == 9) {
      std::printf("cuBLASLt FP8 references vs host double:\n");
      for (Track tr : {Track::fp8, Track::fp8_block})
        for (const Problem& p : kFp8SmallSizes) report(t, Fp8Target::cublaslt(tr).id(), p, runner.check_fp8_host(Fp8Target::cublaslt(tr), p), tr);
    }

    for (const StageInfo& s : stage_registry()) {
      if (!only.empty() && std::find(only.begin(), only.end(), s.id) == only.end() &&
          std::find(only.begin(), only.end(), track_name(s.track)) == only.end())
        continue;
      std::printf("%s (%s, %s):\n", s.id, s.name, track_name(s.track));
      if (is_fp8(s.track)) {
        check_fp8_stage(runner, t, s, sanitizer);
        continue;
      }
      if (s.track == Track::conv_fused) {
        check_fused_stage(t, runner, s, sanitizer);
        continue;
      }
      if (is_conv(s.track)) {
        const ConvTarget target = ConvTarget::of(s);
        for (const conv::Shape& c : small_convs(conv::elements_per_vector(target.element))) {
          report(t, "host", c, runner.check_conv_host(target, c), s.track);
          report(t, "host a/b", c, runner.check_conv_host(target, c, 1.5f, -0.75f), s.track);
        }
        // Stage 14d loads any C (element by element where C % 8 != 0); the others refuse such C
        // with their rule.
        const conv::Shape odd{1, 8, 8, conv::elements_per_vector(target.element) / 2, 8, 3, 3, 1, 1, 1};
        if (s.track == Track::conv_hopper) {
          for (const conv::Shape& c : kFewChannelConvs) report(t, "host", c, runner.check_conv_host(target, c), s.track);
          report(t, "host", odd, runner.check_conv_host(target, odd), s.track);
        }
        if (sanitizer) continue;
        for (const conv::Shape& c : large_convs()) report(t, "im2col-cublas", c, runner.check_conv(target, c), s.track);
        if (s.track == Track::conv_hopper) {
          report(t, "im2col-cublas", gemmlab::conv::resnet50_layers(32)[0].shape,
                 runner.check_conv(target, gemmlab::conv::resnet50_layers(32)[0].shape), s.track);
          continue;
        }
        const CheckResult r = runner.check_conv(target, odd);
        const bool named = r.rejected.find("C must be a multiple of") != std::string::npos;
        std::printf("  %s  refuses C = %d: %s\n", named ? "ok  " : "FAIL", odd.c, r.rejected.c_str());
        named ? ++t.passed : ++t.failed;
        continue;
      }
      const Target target = Target::of(s);
      for (const Problem& p : kSmallSizes) {
        report(t, "host", p, runner.check_host(target, p), s.track);
        report(t, "host a/b", p, runner.check_host(target, p, 1.5f, -0.75f), s.track);
      }
      // More cluster tiles (72 of 2 x 128 x 256) than an H100 or H200 runs clusters at once (66), one
      // with a long K and one in narrowed rows: the persistent stage's stream-k tail, its split of
      // fewer units than clusters (TMA stores and reduce-adds) and its narrowed tiles, under the
      // sanitizers too.
      if (s.track == Track::hopper) {
        report(t, "host", kTailSize, runner.check_host(target, kTailSize), s.track);
        report(t, "host", kSplitAllSize, runner.check_host(target, kSplitAllSize), s.track);
        report(t, "host", kNarrowedSize, runner.check_host(target, kNarrowedSize), s.track);
        report(t, "host a/b", kNarrowedSize, runner.check_host(target, kNarrowedSize, 1.5f, -0.75f), s.track);
      }
      if (sanitizer) continue;
      for (const Problem& p : kSizes) report(t, "cuBLAS", p, runner.check(target, p), s.track);
      if (s.track == Track::hopper)  // the Hopper issue's second benchmark size
        report(t, "cuBLAS", Problem{8192, 8192, 8192}, runner.check(target, {8192, 8192, 8192}), s.track);
      if (s.schedule == gemmlab::BlockSchedule::Dispatch)  // each launch it picks, and ragged edges
        for (const Problem& p : kDispatchSizes) report(t, "cuBLAS", p, runner.check(target, p), s.track);
      report(t, "cuBLAS a/b", Problem{1000, 1500, 700},
             runner.check(target, {1000, 1500, 700}, 0.5f, 2.0f), s.track);
      // A rejection must name its rule.
      for (const Problem& p : kSizes) {
        const char* why = s.get().check(p.m, p.n, p.k);
        if (why && !*why) {
          std::printf("  FAIL  %s rejects %s with an empty message\n", s.id, text(p).c_str());
          ++t.failed;
        }
      }
    }
  } catch (const GpuError& e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  std::printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
  return t.failed ? 1 : 0;
}
