// Whole-file reads and writes with messages a user can act on.
#pragma once
#include <optional>
#include <string>

namespace gemmlab::app {

// nullopt (and *problem set, starting with the path) when missing, unreadable or larger than
// max_bytes.
std::optional<std::string> read_text_file(const std::string& path, std::string* problem,
                                          std::size_t max_bytes = 64u << 20);
// The same, with *problem not naming the path: for callers that report "file:line: problem".
std::optional<std::string> read_file_contents(const std::string& path, std::string* problem,
                                              std::size_t max_bytes);
// Empty string on success, else the problem.
std::string write_text_file(const std::string& path, const std::string& text);

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

}  // namespace gemmlab::app
