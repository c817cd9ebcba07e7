#include "model/ncu_csv.h"

#include <cmath>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "model/files.h"

namespace gemmlab::app {

std::optional<double> NcuKernel::metric(const std::string& n) const {
  auto it = metrics.find(n);
  if (it == metrics.end()) return std::nullopt;
  return it->second.value;
}

std::string NcuKernel::short_name() const {
  std::string s = name;
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  // Namespaces say nothing a learner needs; ncu writes an anonymous one as "unnamed>::" or
  // "(anonymous namespace)::". "void unnamed>::double_buffer_kernel<4>(int, ...)" -> "double_buffer_kernel".
  for (const char* anonymous : {"(anonymous namespace)::", "<unnamed>::", "unnamed>::"})
    for (size_t at; (at = s.find(anonymous)) != std::string::npos;) s.erase(at, std::string(anonymous).size());
  const auto cut = s.find_first_of("<(");
  if (cut != std::string::npos) s = s.substr(0, cut);
  const auto scope = s.rfind("::");
  return scope == std::string::npos ? s : s.substr(scope + 2);
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::optional<double> parse_ncu_number(const std::string& text) {
  std::string t;
  for (char c : text)
    if (c != ',' && c != ' ') t += c;
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  // "nan", "inf" and 1e300 parse, but no counter is any of them: refused here, so that no
  // later float -> int conversion meets them.
  if (end != t.c_str() + t.size() || !std::isfinite(v) || std::fabs(v) > kMaxNcuNumber) return std::nullopt;
  return v;
}

Expected<NcuReport> parse_ncu_csv(const std::string& text, const std::string& source) {
  NcuReport r;
  r.source = source;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  int line_no = 0, header_line = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("\"ID\"", 0) == 0 || line.rfind("ID,", 0) == 0) {
      header = split_csv_line(line);
      header_line = line_no;
      break;
    }
    if (!line.empty()) r.preamble.push_back(line);
  }
  if (header.empty())
    return Error{source + ": no ncu table found (expected a header line starting with \"ID\"); "
                 "make it with ncu --csv --metrics ..."};
  auto col = [&](const char* name) -> int {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  const int c_id = col("ID"), c_name = col("Kernel Name"), c_block = col("Block Size"),
            c_grid = col("Grid Size"), c_dev = col("Device");
  const int c_mname = col("Metric Name"), c_munit = col("Metric Unit"), c_mvalue = col("Metric Value");
  if (c_name < 0)
    return Error{source + ":" + std::to_string(header_line) + ": the header has no \"Kernel Name\" column"};
  const bool long_format = c_mname >= 0 && c_mvalue >= 0;
  auto at = [](const std::vector<std::string>& f, int c) { return c >= 0 && c < int(f.size()) ? f[c] : std::string(); };
  std::vector<std::string> units;  // raw format: the units row
  std::map<std::pair<std::string, std::string>, std::size_t> index;  // (id, name) -> r.kernels
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line.rfind("==", 0) == 0) continue;
    const auto f = split_csv_line(line);
    if (f.size() != header.size())
      return Error{source + ":" + std::to_string(line_no) + ": " + std::to_string(f.size()) +
                   " fields where the header has " + std::to_string(header.size())};
    const std::string id = at(f, c_id);
    if (!long_format && id.empty()) {  // raw page: the row of units under the header
      units = f;
      continue;
    }
    NcuKernel* k = nullptr;
    // Found by (id, name) in a map: a scan of the kernels so far per row was quadratic.
    auto [slot, added] = index.try_emplace({id, at(f, c_name)}, r.kernels.size());
    if (!added) k = &r.kernels[slot->second];
    if (!k && r.kernels.size() >= kMaxNcuKernels)
      return Error{source + ":" + std::to_string(line_no) + ": more than " + std::to_string(kMaxNcuKernels) +
                   " kernels; GEMM Lab reads at most that many (profile fewer: ncu --launch-count N)"};
    if (!k) {
      NcuKernel nk;
      nk.id = id;
      nk.name = at(f, c_name);
      nk.block = at(f, c_block);
      nk.grid = at(f, c_grid);
      nk.device = at(f, c_dev);
      r.kernels.push_back(std::move(nk));
      k = &r.kernels.back();
    }
    if (long_format) {
      if (auto v = parse_ncu_number(at(f, c_mvalue)))
        k->metrics[at(f, c_mname)] = {at(f, c_munit), *v};
    } else {
      for (size_t c = 0; c < header.size(); ++c) {
        if (header[c].find("__") == std::string::npos) continue;  // metric names have "__"
        if (auto v = parse_ncu_number(f[c]))
          k->metrics[header[c]] = {c < units.size() ? units[c] : std::string(), *v};
      }
    }
  }
  if (r.kernels.empty()) return Error{source + ": the ncu table has no kernel rows"};
  return r;
}

Expected<NcuReport> load_ncu_csv(const std::string& path) {
  std::string problem;
  auto text = read_text_file(path, &problem, 64u << 20);
  if (!text) return Error{problem};
  return parse_ncu_csv(*text, path);
}

}  // namespace gemmlab::app
