// Nsight Compute CSV (`ncu --csv --metrics a,b,c ...`): one row per (kernel launch, metric), or
// with `--page raw` one row per launch and one column per metric. Program output that ncu
// interleaves before the table ("==PROF==" lines, the profiled program's own prints) is kept
// aside. Values lose their thousands separators ("170,967,040" -> 170967040).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab::app {

struct NcuMetric {
  std::string unit;
  double value = 0;
};

struct NcuKernel {
  std::string id;     // ncu's launch ID
  std::string name;   // demangled kernel name as ncu prints it
  std::string block;  // "(256, 1, 1)"
  std::string grid;   // "(32, 32, 1)"
  std::string device;
  std::map<std::string, NcuMetric> metrics;
  std::optional<double> metric(const std::string& name) const;
  std::string short_name() const;  // "sync_tile_kernel" from "void sync_tile_kernel<...>(...)"
};

struct NcuReport {
  std::string source;
  std::vector<NcuKernel> kernels;       // in the file's launch order
  std::vector<std::string> preamble;    // lines before the table
};

// Kernels one file may hold: each is simulated for the Measured view (on background_pool(), a few
// threads); a file with more is refused with this number, not read for minutes.
constexpr std::size_t kMaxNcuKernels = 4096;

Expected<NcuReport> parse_ncu_csv(const std::string& text, const std::string& source);
Expected<NcuReport> load_ncu_csv(const std::string& path);

// Split one CSV line (RFC 4180 quotes).
std::vector<std::string> split_csv_line(const std::string& line);
// "170,967,040" -> 170967040; nullopt for text that is not a number ("n/a").
// A counter value ("1,234.5"); nullopt for text, NaN, infinities and magnitudes over 2^53
// (beyond any counter a GPU run produces, and beyond exact doubles).
inline constexpr double kMaxNcuNumber = 9007199254740992.0;
std::optional<double> parse_ncu_number(const std::string& text);

}  // namespace gemmlab::app
