// A stage's CUDA source as the Code view shows it (kernels/stages, shipped with the project, so
// it reads without a GPU): the files of the stage's folder (its registry row's `folder`) and the
// shared headers they include, each line marked new when the previous stage of the track has no
// such line.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab::app {

struct SourceLine {
  std::string text;
  bool added = false;  // not in the previous stage (blank lines and lone braces never are)
};
struct SourceFile {
  std::string path;  // relative to the project folder: "kernels/stages/fp32/06_double_buffer/double_buffer.cu"
  std::vector<SourceLine> lines;
};
struct StageSource {
  std::string stage, previous;  // ids; previous "" for the first stage
  std::vector<SourceFile> files;
  int added = 0, total = 0;     // lines
};

// `root` is the project folder. Errors name the stage and the folder looked in.
Expected<StageSource> load_stage_source(const std::string& root, const std::string& stage_id);

// Which lines of `after` are new against `before`: a line (trimmed) is old while `before` still
// has an unmatched copy of it; blank lines and lines of only braces, parentheses or semicolons
// are never new.
std::vector<bool> lines_added(const std::vector<std::string>& before, const std::vector<std::string>& after);

}  // namespace gemmlab::app
