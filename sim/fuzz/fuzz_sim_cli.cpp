// libFuzzer target: `gemmlab sim ...` argument vectors, one argument per line of the input (the
// first line names the command). stdout and stderr go nowhere. `l2` is left out: its replays are
// bounded by kMaxL2Lookups but may take tens of seconds at that bound, which a fuzzer reads as a
// hang; its options are range-checked by the same Args code the other commands use.
// Seeds: sim/fuzz/seeds/*.txt, one per command.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sim_cli.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args = {"gemmlab", "sim"};
  std::string line;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  while (std::getline(in, line) && args.size() < 40) args.push_back(line);
  if (args.size() > 2 && args[2] == "l2") return 0;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  static std::ostringstream sink;
  auto* out = std::cout.rdbuf(sink.rdbuf());
  auto* err = std::cerr.rdbuf(sink.rdbuf());
  const int rc = gemmlab::cli::run_sim_cli(static_cast<int>(args.size()), argv.data(), 2);
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
  sink.str("");
  if (rc != 0 && rc != 2) __builtin_trap();  // 0 or a usage error, never anything else
  return 0;
}
