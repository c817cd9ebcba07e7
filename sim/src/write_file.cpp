#include "gemmlab/write_file.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace gemmlab {
namespace fs = std::filesystem;

namespace {

// A name no other writer uses: pid, a per-process counter and the clock.
std::string unique_temporary_name(const fs::path& target) {
  static std::atomic<unsigned> counter{0};
  const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
  return (target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                  std::to_string(counter++) + "-" + std::to_string(ticks & 0xffffff)))
      .string();
}

std::string system_error(const char* what, const std::string& path) {
  return std::string(what) + " " + path + ": " + std::strerror(errno);
}

}  // namespace

std::string write_text_file(const std::string& path, const std::string& text) {
  const fs::path target(path);
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    tmp = unique_temporary_name(target.parent_path().empty() ? fs::path(".") / target : target);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST)
      return system_error("cannot write", path) + " (does the folder exist and is it writable?)";
  }
  if (fd < 0) return "cannot write " + path + ": no unused temporary name beside it";
  const char* p = text.data();
  std::size_t left = text.size();
  std::string problem;
  while (left > 0 && problem.empty()) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) problem = system_error("cannot write", path) + " (is the disk full?)";
    else p += n, left -= std::size_t(n);
  }
  if (problem.empty() && ::fsync(fd) != 0) problem = system_error("cannot write", path);
  if (::close(fd) != 0 && problem.empty()) problem = system_error("cannot write", path);
  if (problem.empty() && ::rename(tmp.c_str(), path.c_str()) != 0) problem = system_error("cannot replace", path);
  if (!problem.empty()) ::unlink(tmp.c_str());
  return problem;
}

}  // namespace gemmlab
