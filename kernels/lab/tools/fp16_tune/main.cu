// fp16_tune time [SIZES...]   check + time cuBLAS, the registered FP16 stages and the variants
//                             (FP16_TUNE_ONLY=id,id,... times only those)
// fp16_tune turns R [SIZES...] the selected stages and variants and cuBLAS timed in turns
//                             (Runner::time_interleaved, as `gemmlab bench` pairs a stage with
//                             cuBLAS), R rounds; each checked against cuBLAS at the size first
// fp16_tune run ID MxNxK       one cuBLAS check of a stage or variant (for ncu)
// fp16_tune sanitize          host-reference checks of the FP16 stages on small problems, for
//                             compute-sanitizer (both load paths: K % 8 == 0 and not)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fp16_tune/variants.h"
#include "runner.h"

using namespace gemmlab::kernels;

namespace {

int sanitize(Runner& r) {
  // Partial tiles everywhere; K % 8 == 0 sizes take cp.async, the others the fallback.
  const Problem sizes[] = {{1, 1, 1}, {127, 129, 72}, {130, 260, 136}, {67, 35, 300}, {257, 520, 64}};
  int failed = 0;
  for (const StageInfo& s : stage_registry()) {
    if (s.track != Track::fp16) continue;  // the registered FP16 stages
    for (const Problem& p : sizes)
      for (float beta : {0.f, -0.75f}) {
        const CheckResult c = r.check_host(Target::of(s), p, 1.5f, beta);
        std::printf("%-14s %5dx%5dx%5d beta %5.2f  %s rel_err %.2e nonfinite %lld guard %lld %s\n",
                    s.id, p.m, p.n, p.k, beta, c.ok ? "ok  " : "FAIL", c.rel_err, c.nonfinite,
                    c.guard_hits, c.rejected.c_str());
        failed += !c.ok;
      }
  }
  return failed ? 1 : 0;
}

std::vector<StageInfo> stages_and_variants() {
  // The registered FP16 stages (CUTLASS 2.x's peers) and Hopper stages (CUTLASS 3.x's), in ladder order.
  std::vector<StageInfo> all;
  for (const StageInfo& s : stage_registry())
    if (s.track == Track::fp16 || s.track == Track::hopper) all.push_back(s);
  for (auto* list : {fp16_tune::sync_variants, fp16_tune::multistage_variants,
                     fp16_tune::epilogue_variants})
    for (const StageInfo& s : list()) all.push_back(s);
#ifdef GEMMLAB_HAVE_CUTLASS
  for (const StageInfo& s : fp16_tune::cutlass_variants()) all.push_back(s);
  for (const StageInfo& s : fp16_tune::cutlass3_variants()) all.push_back(s);
#endif
  return all;
}

Problem parse_problem(const char* text) {
  int m = 0, n = 0, k = 0;
  if (std::sscanf(text, "%dx%dx%d", &m, &n, &k) != 3) m = n = k = std::atoi(text);
  return {m, n, k};
}

int run_one(Runner& r, const char* id, const Problem& p) {
  for (const StageInfo& s : stages_and_variants())
    if (!std::strcmp(s.id, id)) {
      const CheckResult c = r.check(Target::of(s), p);
      std::printf("%s %dx%dx%d: %s rel_err %.2e %s\n", id, p.m, p.n, p.k, c.ok ? "ok" : "FAIL",
                  c.rel_err, c.rejected.c_str());
      return c.ok ? 0 : 1;
    }
  std::fprintf(stderr, "fp16_tune: no stage or variant '%s'\n", id);
  return 2;
}

// FP16_TUNE_ONLY: a comma-separated list of ids; unset or empty: everything.
bool selected(const char* id) {
  const char* only = std::getenv("FP16_TUNE_ONLY");
  if (!only || !*only) return true;
  const std::string list = "," + std::string(only) + ",";
  return list.find("," + std::string(id) + ",") != std::string::npos;
}

std::vector<StageInfo> selected_stages() {
  std::vector<StageInfo> all;
  for (const StageInfo& s : stages_and_variants())
    if (selected(s.id)) all.push_back(s);
  return all;
}

int time_all(Runner& r, const std::vector<Problem>& sizes) {
  const std::vector<StageInfo> all = selected_stages();
  int failed = 0;
  std::printf("%-18s %-16s %9s %9s %8s %10s\n", "stage", "size", "ms", "TFLOP/s", "cuBLAS%",
              "rel_err");
  for (const Problem& p : sizes) {
    const TimeResult ref = r.time(Target::cublas(Track::fp16), p, {});
    std::printf("%-18s %5dx%5dx%5d %9.3f %9.1f %8s %10s\n", "cublas-fp16", p.m, p.n, p.k,
                ref.median_ms, ref.tflops, "100", "-");
    std::fflush(stdout);
    for (const StageInfo& s : all) {
      const Target t = Target::of(s);
      CheckResult c = r.check(t, p);
      const CheckResult odd = r.check(t, {127, 129, 72});
      if (!odd.ok) c = odd;
      const TimeResult tr = r.time(t, p, {});
      std::printf("%-18s %5dx%5dx%5d %9.3f %9.1f %8.1f %10.2e %s\n", s.id, p.m, p.n, p.k,
                  tr.median_ms, tr.tflops, 100.0 * tr.tflops / ref.tflops, c.rel_err,
                  c.ok ? "" : "CHECK FAILED");
      std::fflush(stdout);
      failed += !c.ok;
    }
  }
  return failed ? 1 : 0;
}

// Every selected target and cuBLAS in one interleaved timing per round, so that all of them see
// the same clocks; prints each round's median and its ratio to cuBLAS's in that round.
int time_in_turns(Runner& r, int rounds, const std::vector<Problem>& sizes) {
  const std::vector<StageInfo> all = selected_stages();
  int failed = 0;
  for (const Problem& p : sizes) {
    std::vector<Target> targets{Target::cublas(Track::fp16)};
    for (const StageInfo& s : all) {
      const CheckResult c = r.check(Target::of(s), p);
      std::printf("check %-28s %5dx%5dx%5d %s rel_err %.2e %s\n", s.id, p.m, p.n, p.k,
                  c.ok ? "ok" : "FAILED", c.rel_err, c.rejected.c_str());
      if (c.ok) targets.push_back(Target::of(s));
      failed += !c.ok;
    }
    for (int round = 1; round <= rounds; ++round) {
      const std::vector<TimeResult> t = r.time_interleaved(targets, p, {});
      for (size_t j = 0; j < targets.size(); ++j)
        std::printf("turns %5dx%5dx%5d round %d %-28s %9.4f ms %7.1f TFLOP/s %6.1f %%\n", p.m, p.n, p.k,
                    round, targets[j].id().c_str(), t[j].median_ms, t[j].tflops,
                    t[j].median_ms > 0 ? 100.0 * t[0].median_ms / t[j].median_ms : 0.0);
      std::fflush(stdout);
    }
  }
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fp16_tune time [N|MxNxK ...] | turns ROUNDS [N|MxNxK ...] | run ID MxNxK | sanitize\n");
    return 2;
  }
  try {
    Runner r;
    std::printf("device: %s, %d SMs, %d MHz\n", r.device().name.c_str(), r.device().sms,
                r.device().clock_mhz);
    if (!std::strcmp(argv[1], "sanitize")) return sanitize(r);
    if (!std::strcmp(argv[1], "run") && argc == 4) return run_one(r, argv[2], parse_problem(argv[3]));
    const bool turns = !std::strcmp(argv[1], "turns") && argc >= 3;
    std::vector<Problem> sizes;
    for (int i = turns ? 3 : 2; i < argc; ++i) sizes.push_back(parse_problem(argv[i]));
    if (sizes.empty()) sizes = {{4096, 4096, 4096}, {8192, 8192, 8192}};
    return turns ? time_in_turns(r, std::max(1, std::atoi(argv[2])), sizes) : time_all(r, sizes);
  } catch (const GpuError& e) {
    std::fprintf(stderr, "fp16_tune: %s\n", e.what());
    return 2;
  }
}
