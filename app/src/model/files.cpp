#include "model/files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gemmlab::app {
namespace fs = std::filesystem;

PathKind path_kind(const std::string& path, std::string* problem) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    if (problem) *problem = ec.message();
    return PathKind::Error;
  }
  switch (st.type()) {
    case fs::file_type::not_found: return PathKind::Missing;
    case fs::file_type::regular: return PathKind::File;
    case fs::file_type::directory: return PathKind::Folder;
    default: return PathKind::Other;
  }
}

std::optional<ImageSize> png_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[24] = {};
  if (!in.read(reinterpret_cast<char*>(h), sizeof h)) return std::nullopt;
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  for (int i = 0; i < 8; ++i)
    if (h[i] != kSignature[i]) return std::nullopt;
  auto be32 = [&](int at) { return (static_cast<long long>(h[at]) << 24) | (h[at + 1] << 16) | (h[at + 2] << 8) | h[at + 3]; };
  return ImageSize{be32(16), be32(20)};  // IHDR: width, height
}

std::optional<std::string> read_file_contents(const std::string& path, std::string* problem,
                                              std::size_t max_bytes) {
  std::error_code ec;
  switch (path_kind(path, problem)) {
    case PathKind::File: break;
    case PathKind::Missing: *problem = "no such file"; return std::nullopt;
    case PathKind::Folder: *problem = "is a folder, not a file"; return std::nullopt;
    case PathKind::Other: *problem = "not a regular file (a pipe, device or socket)"; return std::nullopt;
    case PathKind::Error: return std::nullopt;
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
