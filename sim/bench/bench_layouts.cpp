// Time of the listings the GUI recomputes when a slider moves: a full 128x128 thread map
// (analyze_thread_map, 256 threads; target < 100 us), a TensorOp layout and a fragment map.
// Prints the median of many runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "gemmlab/fragment_analysis.h"
#include "gemmlab/layout_analysis.h"
#include "gemmlab/thread_map_analysis.h"

namespace {

template <class F>
double median_us(F&& f, int runs) {
  std::vector<double> t;
  t.reserve(runs);
  size_t sink = 0;
  for (int i = 0; i < runs; ++i) {
    const auto a = std::chrono::steady_clock::now();
    sink += f();
    const auto b = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  if (sink == 0) std::puts("(empty result)");
  return t[t.size() / 2];
}

}  // namespace

int main() {
  using namespace gemmlab;
  const int runs = 2000;
  struct Map {
    const char* name;
    ThreadMapParams p;
  };
  const Map maps[] = {
      {"stripmined (128,128) 256 thr, access 1", {ThreadMapKind::Stripmined, 128, 128, 256, 1}},
      {"stripmined (128,128) 256 thr, access 8", {ThreadMapKind::Stripmined, 128, 128, 256, 8}},
      {"warp-raked (128,128) 256 thr, (8,4), access 8",
       {ThreadMapKind::WarpRaked, 128, 128, 256, 8, 8, 4}},
  };
  for (const auto& m : maps) {
    const double us = median_us(
        [&] {
          auto r = analyze_thread_map(m.p);
          return r.ok() ? r->accesses.size() : 0;
        },
        runs);
    std::printf("analyze_thread_map %-46s median %8.1f us (%d runs)\n", m.name, us, runs);
  }
  LayoutRequest lr;
  lr.kind = LayoutKind::TensorOpMultiplicand;
  lr.extent0 = 128;
  lr.extent1 = 64;
  lr.element_bits = 16;
  lr.crosswise = 64;
  const double lus = median_us(
      [&] {
        auto r = analyze_layout(lr);
        return r.ok() ? r->offsets.size() : 0;
      },
      runs);
  std::printf("analyze_layout tensorop-multiplicand<16,64> 128x64          median %8.1f us\n", lus);
  const double fus = median_us(
      [&] {
        auto r = analyze_fragment({FragmentOp::LdsmX4, false, FragmentOperand::A});
        return r.ok() ? r->elements.size() : 0;
      },
      runs);
  std::printf("analyze_fragment ldsm.x4 operand a                            median %8.1f us\n", fus);
  return 0;
}
