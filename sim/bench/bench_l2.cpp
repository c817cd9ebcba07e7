// Times a full L2 replay (plan + timeline + replay) on one core. The targets:
// 4096^3 < 0.3 s and 8192^3 < 2 s with 128x128x32 tiles (H100, f16, identity:1).
// Judged on this process's CPU time: on a shared machine the wall time also counts other
// processes' turns on the core. Both are printed.
#include <ctime>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gemmlab/device_presets.h"
#include "gemmlab/l2_model.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"

using namespace gemmlab;

static double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run(int n, const char* order, double target_s) {
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds();
  const DeviceDesc dev = *device_preset("h100");
  PlanRequest rq;
  rq.problem = {n, n, n};
  rq.tile = {128, 128, 32};
  rq.order = *parse_order(order);
  auto plan = make_block_plan(rq);
  if (!plan) return std::printf("plan: %s\n", plan.error().c_str()), 1;
  auto tl = simulate_timeline(*plan, dev.sms, 1, CostModel{});
  if (!tl) return std::printf("timeline: %s\n", tl.error().c_str()), 1;
  L2ReplayOptions o;
  auto rep = replay_l2(*plan, *tl, dev, o);
  if (!rep) return std::printf("replay: %s\n", rep.error().c_str()), 1;
  const double cpu = cpu_seconds() - c0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%5d^3 %-12s cpu %6.3f s, wall %6.3f s (target < %.1f s)  near look-ups %llu sectors  hit rate %.4f"
              "  DRAM read %.1f MB  %s\n",
              n, order, cpu, wall, target_s, static_cast<unsigned long long>(rep->counters.read_lookups),
              rep->hit_rate, rep->dram_bytes_read / 1e6, cpu < target_s ? "ok" : "SLOW");
  return cpu < target_s ? 0 : 3;
}

int main(int argc, char** argv) {
  const std::string order = argc > 1 ? argv[1] : "identity:1";
  int rc = 0;
  rc |= run(4096, order.c_str(), 0.3);
  rc |= run(8192, order.c_str(), 2.0);
  return rc;
}
