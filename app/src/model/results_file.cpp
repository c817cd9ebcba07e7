#include "model/results_file.h"

#include "model/files.h"
#include "model/json_text.h"

namespace gemmlab::app {

Expected<BenchResults> parse_bench_results(const std::string& text, const std::string& source) {
  if (const std::string deep = json_nesting_problem(text); !deep.empty()) return Error{source + ": " + deep};
  return bench::parse_bench_results(text, source);
}

Expected<BenchResults> load_bench_results(const std::string& path) {
  std::string problem;
  auto text = read_text_file(path, &problem, 16u << 20);
  if (!text) return Error{problem};
  return parse_bench_results(*text, path);
}

}  // namespace gemmlab::app
