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

}  // namespace gemmlab::app
