// Runs a program the learner wrote in a child process that cannot take the app down with it:
// its own process group, CPU seconds, a wall-clock limit, an address-space cap (RLIMIT_AS), a
// file-size cap, no core dumps, and a cap on what it may print. The parent reads stdout+stderr
// and the result channel (fd 3) through pipes with poll(), so a child that prints forever or
// never exits is killed at the limit, never waited on blindly. POSIX only.
#pragma once
#include <string>
#include <vector>

#include "words.h"

namespace gemmlab::exercise {

struct SandboxLimits {
  double cpu_seconds = 2;
  double wall_seconds = 5;
  long long address_space_bytes = 512ll << 20;  // RLIMIT_AS
  long long output_bytes = 64 << 10;            // stdout + stderr kept (more: the child is killed)
  long long result_bytes = 8 << 20;             // fd 3 (more: the child is killed)
  long long file_bytes = 1 << 20;               // RLIMIT_FSIZE
};

enum class SandboxEnd {
  Exited,        // exit_code is valid
  Signalled,     // signal is valid (a crash: SIGSEGV, SIGABRT, SIGFPE, ...)
  CpuLimit,      // SIGXCPU / SIGKILL after the CPU limit
  WallLimit,     // killed after wall_seconds
  OutputLimit,   // killed: printed more than output_bytes (or result_bytes on fd 3)
  StartFailed,   // fork / exec failed (message in `output`)
};

struct SandboxResult {
  SandboxEnd end = SandboxEnd::StartFailed;
  int exit_code = -1;
  int signal = 0;
  std::string output;   // stdout + stderr, interleaved as written
  std::string results;  // what the child wrote to fd 3
  double wall_seconds = 0;
};

// argv[0] is the program path (no PATH search). The child's working directory is `cwd`.
SandboxResult run_sandboxed(const std::vector<std::string>& argv, const std::string& cwd,
                            const SandboxLimits& limits);

// "segmentation fault (SIGSEGV): ...", "abort (SIGABRT): ...", as a verdict's words (words.h).
Words signal_words(int signal);

}  // namespace gemmlab::exercise
