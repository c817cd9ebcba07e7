#include "support.h"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace gemmlab::test {

namespace {
nlohmann::json read_test_data(const std::string& name) {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/" + name);
  if (!in) throw std::runtime_error("cannot open " + name);
  return nlohmann::json::parse(in);
}
}  // namespace

const nlohmann::json& cutlass_reference() {
  static const nlohmann::json j = read_test_data("cutlass_layouts.json");
  return j;
}

const nlohmann::json& cute_hopper_reference() {
  static const nlohmann::json j = read_test_data("cute_hopper_layouts.json");
  return j;
}

std::vector<nlohmann::json> cutlass_cases(const std::string& kind) {
  std::vector<nlohmann::json> out;
  for (const auto& c : cutlass_reference()["cases"])
    if (c["kind"] == kind) out.push_back(c);
  return out;
}

namespace {

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) out.push_back(cur), cur.clear();
    else cur += ch;
  }
  out.push_back(cur);
  return out;
}

double number(const std::string& text) {
  std::string digits;
  for (char ch : text)
    if (ch != ',') digits += ch;
  return std::stod(digits);
}

}  // namespace

std::map<std::string, NcuSection> read_ncu_csv_sections(const std::string& file, const std::string& prefix) {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/" + file);
  if (!in) throw std::runtime_error("cannot open " + file);
  std::map<std::string, NcuSection> out;
  std::string key, line;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) {
      key = line.substr(prefix.size());
      header.clear();
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const auto f = csv_fields(line);
    if (header.empty()) {
      header = f;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < f.size() && i < header.size(); ++i) row[header[i]] = f[i];
    out[key].kernel = row["Kernel Name"];
    out[key].metrics[row["Metric Name"]] = number(row["Metric Value"]);
  }
  return out;
}

std::vector<NcuLaunch> read_ncu_csv_launches(const std::string& repo_path) {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/../../../" + repo_path);
  if (!in) throw std::runtime_error("cannot open " + repo_path);
  std::vector<NcuLaunch> out;
  std::map<std::string, size_t> by_id;
  std::vector<std::string> header;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("\"ID\"", 0) == 0) {
      header = csv_fields(line);
      continue;
    }
    if (header.empty() || line.empty() || line[0] != '"') continue;
    const auto f = csv_fields(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < f.size() && i < header.size(); ++i) row[header[i]] = f[i];
    auto [it, fresh] = by_id.emplace(row["ID"], out.size());
    if (fresh) out.push_back({row["Kernel Name"], row["Block Size"], row["Grid Size"], {}});
    try {
      out[it->second].metrics[row["Metric Name"]] = number(row["Metric Value"]);
    } catch (const std::exception&) {
      // a metric ncu printed as text (e.g. "n/a"): not a number to compare
    }
  }
  return out;
}

static std::string quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

CliResult run_gemmlab(const std::vector<std::string>& args) {
  char err_path[] = "/tmp/gemmlab_test_stderr_XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  std::string cmd = quote(GEMMLAB_EXE);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " 2>" + quote(err_path);
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("popen failed");
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_path);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  std::remove(err_path);
  return r;
}

}  // namespace gemmlab::test
