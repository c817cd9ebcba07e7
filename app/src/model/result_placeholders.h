// Measured numbers in lesson text come from the results loaded, never typed in (FORMAT.md,
// "Placeholders"):
//   {ratio STAGE SIZE}       the stage's time ratio to its reference, "104.3%"
//   {tflops STAGE SIZE}      the stage's TFLOP/s (TOP/s for the int convolutions)
//   {ref_tflops STAGE SIZE}  its reference's TFLOP/s, timed in turns with it in the same run
//   {ref STAGE}              the reference's name: "cuBLAS", "cuDNN", "im2col + cuBLAS"
//   {device}                 the GPU the numbers were measured on
// SIZE is 4096 for a cube or MxNxK (a convolution's implicit GEMM). Code spans and code blocks
// are left alone. One text takes all its numbers from one device's results: the learner's own
// runs first, then the shipped assets/results/*.json (one source per device).
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "model/lesson_format.h"
#include "model/results_file.h"

namespace gemmlab::app {

struct Placeholder {
  std::string kind;   // ratio, tflops, ref_tflops, ref, device
  std::string stage;  // empty for device
  int m = 0, n = 0, k = 0;
  std::string text;   // as written, braces included
  size_t offset = 0;  // in the Markdown searched
  size_t length = 0;  // of the text a value replaces: the braces and all between, or "{kind" if unclosed
  int line = 1;       // 1-based line in it
  std::string error;  // not empty: malformed, and why
};

// Every "{kind ...}" outside code whose kind is a lowercase word; an unknown kind or wrong
// arguments are kept with `error` set (so the checker can name them). Other braces are text.
std::vector<Placeholder> find_placeholders(const std::string& markdown);

// One device's results: what one text's numbers are taken from.
struct ResultsSource {
  std::string device;   // "NVIDIA H200"
  bool own = false;     // the learner's run (or a file they opened), not a shipped file
  std::vector<const BenchResults*> sets;
};

// Sources in the order placeholders prefer them: `own` newest first (one source each), then the
// shipped sets grouped by device, in the order given (load_results_dir's).
std::vector<ResultsSource> results_sources(const std::vector<const BenchResults*>& own,
                                           const std::vector<BenchResults>& shipped);

// The value a (well-formed) placeholder shows with this source's results, or what is missing.
Expected<std::string> resolve_placeholder(const Placeholder& p, const ResultsSource& source);

struct FilledText {
  std::string markdown;               // placeholders replaced; "—" where a value is missing
  std::vector<std::string> missing;   // one line per "—": the placeholder and what is missing
  std::string device;                 // the source used ("" when the text has no placeholder)
  bool own = false;
};
// Picks the source that resolves the most placeholders of the text (the earliest on a tie).
FilledText fill_placeholders(const std::string& markdown, const std::vector<ResultsSource>& sources);

// assets/results/*.json in the order of their names without ".json" (nvidia-h200.json before
// nvidia-h200-conv.json); a file that does not parse is skipped with a problem.
std::vector<BenchResults> load_results_dir(const std::string& dir, std::vector<std::string>* problems);

// The checker's rule: every placeholder of lesson text and notes well formed and resolved by one
// of the shipped sources.
std::vector<Diagnostic> check_placeholders(const Course& course, const std::vector<ResultsSource>& shipped);

}  // namespace gemmlab::app
