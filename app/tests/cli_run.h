// Runs the gemmlab executable the tests were built with (GEMMLAB_EXE) and keeps what it printed,
// stdout and stderr together, and its exit status: for the tests of the command line.
//   CliRun r = run_gemmlab("lessons --check " + dir);   // r.code 0/1/2, r.out
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace gemmlab::app {

struct CliRun {
  int code = -1;  // -1: it did not start, or a signal ended it
  std::string out;
};

inline CliRun run_gemmlab(const std::string& args) {
  CliRun r;
  FILE* p = popen((std::string(GEMMLAB_EXE) + " " + args + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace gemmlab::app
