// Whole-file reads and writes with messages a user can act on.
#pragma once
#include <optional>
#include <string>

#include "gemmlab/write_file.h"

namespace gemmlab::app {

// nullopt (and *problem set, starting with the path) when missing, unreadable or larger than
// max_bytes.
std::optional<std::string> read_text_file(const std::string& path, std::string* problem,
                                          std::size_t max_bytes = 64u << 20);
// The same, with *problem not naming the path: for callers that report "file:line: problem".
std::optional<std::string> read_file_contents(const std::string& path, std::string* problem,
                                              std::size_t max_bytes);
// The one way GEMM Lab writes a file (gemmlab/write_file.h).
using ::gemmlab::write_text_file;

// What is at a path, without throwing: a name longer than the system allows, a symlink loop or a
// folder without permission give Error with the system's words in *problem.
enum class PathKind { Missing, File, Folder, Other, Error };
PathKind path_kind(const std::string& path, std::string* problem);

// Width and height of a PNG from its header (the first 24 bytes), without decoding it; nullopt
// when the file is not a PNG. For refusing huge images before anything allocates their pixels.
struct ImageSize {
  long long width = 0, height = 0;
};
std::optional<ImageSize> png_size(const std::string& path);
constexpr long long kMaxImageSide = 8192;
constexpr long long kMaxImagePixels = 16ll << 20;       // 64 MiB decoded (RGBA)
constexpr std::size_t kMaxImageFileBytes = 32u << 20;
bool has_png_signature(const std::string& bytes);

// "" when a lesson may show the image `href` (written relative to assets/), else why: the one
// rule the renderer and `lessons --check` both apply. The file must resolve (symlinks followed)
// to a regular file under assets_dir, start with PNG's signature (nothing else is ever decoded:
// stb_image would take a PGM or a PSD named .png), and its header must claim at most
// kMaxImageSide on a side and kMaxImagePixels in all. *canonical gets the resolved path, the
// key of the image cache.
std::string lesson_image_problem(const std::string& assets_dir, const std::string& href,
                                 std::string* canonical = nullptr);

}  // namespace gemmlab::app
