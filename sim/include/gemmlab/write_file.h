// The one way GEMM Lab writes a file (settings, progress, exercises, results, screenshots, `gemmlab
// bench --json`): host code only.
#pragma once
#include <string>

namespace gemmlab {

// The bytes go to a temporary file of a unique name beside `path` (opened with
// O_CREAT|O_EXCL|O_NOFOLLOW, so no file or symlink an attacker left there is followed), every write
// and the close are checked, the data is fsync'ed, then the file is renamed over `path`. A full
// disk or a failed write leaves `path` as it was and the temporary file removed. Empty string on
// success, else the problem (naming the path).
std::string write_text_file(const std::string& path, const std::string& text);

}  // namespace gemmlab
