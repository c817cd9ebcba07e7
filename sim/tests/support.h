// Shared helpers for the sim tests: the CUTLASS reference cases and running the CLI.
#pragma once
#include <nlohmann/json.hpp>
#include <map>
#include <string>
#include <vector>

namespace gemmlab::test {

// ../shared/reference/cutlass_layouts.json, copied to sim/tests/data (CUTLASS 4.7 values).
const nlohmann::json& cutlass_reference();
// ../shared/reference/cute_hopper_layouts.json, copied to sim/tests/data (CuTe's GMMA layouts and
// wgmma accumulators).
const nlohmann::json& cute_hopper_reference();
std::vector<nlohmann::json> cutlass_cases(const std::string& kind);

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs the built `gemmlab` executable with the given arguments (each shell-quoted).
CliResult run_gemmlab(const std::vector<std::string>& args);

// An ncu --csv file of sim/tests/data cut into sections by comment lines starting with `prefix`
// ("# stage=" -> key "double-buffer size=4096"): the (last) kernel's name and its metrics, with
// thousands separators removed.
struct NcuSection {
  std::string kernel;
  std::map<std::string, double> metrics;
};
std::map<std::string, NcuSection> read_ncu_csv_sections(const std::string& file, const std::string& prefix);

// Every kernel launch of a plain ncu --csv file (path from the repository root), in launch order.
struct NcuLaunch {
  std::string kernel, block, grid;  // "(256, 1, 1)"
  std::map<std::string, double> metrics;
};
std::vector<NcuLaunch> read_ncu_csv_launches(const std::string& repo_path);

}  // namespace gemmlab::test
