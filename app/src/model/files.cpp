#include "model/files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gemmlab::app {
namespace fs = std::filesystem;

std::optional<std::string> read_file_contents(const std::string& path, std::string* problem,
                                              std::size_t max_bytes) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    *problem = "no such file";
    return std::nullopt;
  }
  const auto size = fs::file_size(path, ec);
  if (ec) {
    *problem = ec.message();
    return std::nullopt;
  }
  if (size > max_bytes) {
    *problem = std::to_string(size) + " bytes is more than this file can be (" +
               std::to_string(max_bytes >> 20) + " MiB)";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *problem = "cannot open (permissions?)";
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<std::string> read_text_file(const std::string& path, std::string* problem,
                                          std::size_t max_bytes) {
  auto text = read_file_contents(path, problem, max_bytes);
  if (!text) *problem = path + ": " + *problem;
  return text;
}

std::string write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return "cannot write " + path + " (does the folder exist and is it writable?)";
  out << text;
  if (!out) return "cannot write " + path;
  return {};
}

}  // namespace gemmlab::app
