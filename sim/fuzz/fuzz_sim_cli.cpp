// libFuzzer target: `gemmlab sim ...` argument vectors, one argument per line of the input (the
// first line names the command). stdout and stderr go nowhere. Every command, `l2` included: its
// replays are held to kFuzzL2Lookups (a 1024^3 GEMM: a few hundredths of a second under the sanitizers), where
// the CLI allows kMaxL2Lookups (~30 s, which a fuzzer would read as a hang); above it `sim l2`
// refuses the problem with the same message as at the CLI's own limit.
// Seeds: sim/fuzz/seeds/*.txt, one per command.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sim_cli.h"

constexpr std::uint64_t kFuzzL2Lookups = 500'000;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args = {"gemmlab", "sim"};
  std::string line;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  while (std::getline(in, line) && args.size() < 40) args.push_back(line);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  static std::ostringstream sink;
  auto* out = std::cout.rdbuf(sink.rdbuf());
  auto* err = std::cerr.rdbuf(sink.rdbuf());
  const int rc = gemmlab::cli::run_sim_cli(static_cast<int>(args.size()), argv.data(), 2,
                                           gemmlab::cli::SimCliLimits{kFuzzL2Lookups});
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
  sink.str("");
  if (rc != 0 && rc != 2) __builtin_trap();  // 0 or a usage error, never anything else
  return 0;
}
