#include "model/results_file.h"

#include <filesystem>
#include <map>
#include <mutex>

#include "model/files.h"
#include "model/json_text.h"

namespace gemmlab::app {

Expected<BenchResults> parse_bench_results(const std::string& text, const std::string& source) {
  if (const std::string deep = json_nesting_problem(text); !deep.empty()) return Error{source + ": " + deep};
  return bench::parse_bench_results(text, source);
}

namespace {

// The shipped results are asked for every time a step opens (the Kernels view, the placeholders
// of the lesson text): each file is parsed once per size and modification time, so a file a Run
// rewrites is read again. At most kCached files are kept.
constexpr size_t kCached = 16;
std::mutex g_cache_mutex;
std::map<std::string, BenchResults> g_cache;

std::string cache_key(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return {};
  const auto stamp = std::filesystem::last_write_time(path, ec);
  if (ec) return {};
  return path + "|" + std::to_string(size) + "|" + std::to_string(stamp.time_since_epoch().count());
}

}  // namespace

Expected<BenchResults> load_bench_results(const std::string& path) {
  const std::string key = cache_key(path);
  if (!key.empty()) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    if (auto it = g_cache.find(key); it != g_cache.end()) return it->second;
  }
  std::string problem;
  auto text = read_text_file(path, &problem, 16u << 20);
  if (!text) return Error{problem};
  auto parsed = parse_bench_results(*text, path);
  if (parsed && !key.empty()) {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    if (g_cache.size() >= kCached) g_cache.erase(g_cache.begin());
    g_cache.emplace(key, *parsed);
  }
  return parsed;
}

}  // namespace gemmlab::app
