#include "model/files.h"

#include <algorithm>
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

bool has_png_signature(const std::string& bytes) {
  return bytes.size() >= 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) == 0;
}

std::string lesson_image_problem(const std::string& assets_dir, const std::string& href, std::string* canonical) {
  if (href.rfind("http://", 0) == 0 || href.rfind("https://", 0) == 0)
    return "is a web address; images are PNG files under assets/ (GEMM Lab downloads nothing)";
  if (href.empty() || fs::path(href).is_absolute())
    return "is not a path relative to assets/";
  std::error_code ec, ec2;
  const fs::path root = fs::canonical(assets_dir, ec);
  const fs::path file = fs::canonical(fs::path(assets_dir) / href, ec2);
  if (ec || ec2) return "not found: image paths are relative to assets/ (looked for " + (fs::path(assets_dir) / href).string() + ")";
  const auto [r, f] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  if (r != root.end()) return "is outside assets/ (" + file.string() + "); images must be under " + root.string();
  std::string why;
  if (path_kind(file.string(), &why) != PathKind::File) return "is not a regular file";
  if (fs::file_size(file, ec) > kMaxImageFileBytes)
    return "is larger than " + std::to_string(kMaxImageFileBytes >> 20) + " MiB";
  const auto size = png_size(file.string());
  if (!size) return "is not a PNG file (only PNG is shown; convert it with any image editor)";
  if (size->width < 1 || size->height < 1 || size->width > kMaxImageSide || size->height > kMaxImageSide ||
      size->width * size->height > kMaxImagePixels)
    return "is " + std::to_string(size->width) + " x " + std::to_string(size->height) + " pixels; the limit is " +
           std::to_string(kMaxImageSide) + " on a side and " + std::to_string(kMaxImagePixels >> 20) + " Mpixels in all";
  if (canonical) *canonical = file.string();
  return "";
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

}  // namespace gemmlab::app
