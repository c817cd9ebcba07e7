// Whole-file reads and writes with messages a user can act on.
#pragma once
#include <optional>
#include <string>

namespace gemmlab::app {

// nullopt (and *problem set) when missing, unreadable or larger than max_bytes.
std::optional<std::string> read_text_file(const std::string& path, std::string* problem,
                                          std::size_t max_bytes = 64u << 20);
// Empty string on success, else the problem.
std::string write_text_file(const std::string& path, const std::string& text);

}  // namespace gemmlab::app
