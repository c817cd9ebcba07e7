// libFuzzer target: a results JSON (gemmlab bench --json) as the Kernels view opens it, and its
// re-serialisation for "Save results JSON". Seeds: assets/results/*.json.
#include <string>

#include "model/results_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto r = gemmlab::app::parse_bench_results(text, "fuzz.json");
  if (r.ok()) {
    const std::string again = gemmlab::app::bench_results_json(*r);
    auto back = gemmlab::app::parse_bench_results(again, "saved.json");
    if (!back.ok()) __builtin_trap();  // what we save we must read back
  }
  return 0;
}
