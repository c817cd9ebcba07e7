// bench_banks: how long analyze_banks takes for one warp instruction. The banks view re-runs it
// on every edit and for every row of a tile it sweeps, so it should stay well under 1 us.
// Prints the median over many batches (a batch = 1000 calls, timed as one).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "gemmlab/banks.h"

using namespace gemmlab;

namespace {

struct Case {
  const char* op;
  const char* pattern;
  std::function<long long(int)> address_of_lane;
};

double median_ns_per_call(const WarpRequest& req) {
  constexpr int kBatch = 1000, kBatches = 201;
  std::vector<double> per_call;
  per_call.reserve(kBatches);
  volatile int sink = 0;
  for (int b = 0; b < kBatches; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kBatch; ++i) {
      auto r = analyze_banks(req);
      sink = sink + r->wavefronts;
    }
    const auto t1 = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kBatch);
  }
  std::nth_element(per_call.begin(), per_call.begin() + kBatches / 2, per_call.end());
  return per_call[kBatches / 2];
}

}  // namespace

int main() {
  const std::vector<Case> cases = {
      {"lds.32", "8-byte stride", [](int t) { return 8 * t; }},
      {"lds.32", "32 words in one bank", [](int t) { return 128 * t; }},
      {"lds.128", "linear", [](int t) { return 16 * t; }},
      {"lds.128", "T shares with T^1", [](int t) { return 16 * (t / 2); }},
      {"ldsm.x4", "rows 128 B apart", [](int t) { return 128 * t; }},
  };
  std::printf("%-9s %-22s %5s %5s %12s\n", "op", "pattern", "W", "C", "median ns");
  bool all_under_1us = true;
  for (const auto& c : cases) {
    WarpRequest req;
    req.op = *parse_smem_op(c.op);
    for (int t = 0; t < kWarpLanes; ++t) req.addresses[t] = c.address_of_lane(t);
    const auto r = analyze_banks(req);
    if (!r) {
      std::fprintf(stderr, "%s: %s\n", c.op, r.error().c_str());
      return 1;
    }
    const double ns = median_ns_per_call(req);
    all_under_1us = all_under_1us && ns < 1000.0;
    std::printf("%-9s %-22s %5d %5d %12.1f\n", c.op, c.pattern, r->wavefronts, r->conflicts, ns);
  }
  std::printf("target < 1000 ns per instruction: %s\n", all_under_1us ? "met" : "NOT met");
  return 0;
}
