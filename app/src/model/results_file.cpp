#include "model/results_file.h"

#include "model/files.h"

namespace gemmlab::app {

Expected<BenchResults> load_bench_results(const std::string& path) {
  std::string problem;
  auto text = read_text_file(path, &problem, 16u << 20);
  if (!text) return Error{problem};
  return parse_bench_results(*text, path);
}

}  // namespace gemmlab::app
