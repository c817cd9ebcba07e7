#include "sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

namespace gemmlab::exercise {
namespace {

using Clock = std::chrono::steady_clock;

void set_limit(int resource, rlim_t soft, rlim_t hard) {
  rlimit l{soft, hard};
  setrlimit(resource, &l);
}

// Only async-signal-safe calls between fork and exec: the app forks from a worker thread.
[[noreturn]] void child(char* const* argv, const char* cwd, int out_w, int res_w,
                        const SandboxLimits& limits) {
  setpgid(0, 0);
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, 0);
  dup2(out_w, 1);
  dup2(out_w, 2);
  dup2(res_w, 3);
  const auto cpu = static_cast<rlim_t>(std::ceil(limits.cpu_seconds));
  set_limit(RLIMIT_CPU, cpu, cpu + 1);
  set_limit(RLIMIT_AS, static_cast<rlim_t>(limits.address_space_bytes),
            static_cast<rlim_t>(limits.address_space_bytes));
  set_limit(RLIMIT_FSIZE, static_cast<rlim_t>(limits.file_bytes), static_cast<rlim_t>(limits.file_bytes));
  set_limit(RLIMIT_CORE, 0, 0);
  if (chdir(cwd) != 0) _exit(126);
  execv(argv[0], argv);
  const char msg[] = "could not start the program\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(127);
}

// Reads what is there; false at end of file or on an error.
bool drain(int fd, std::string& into) {
  char buf[65536];
  const ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) {
    into.append(buf, static_cast<size_t>(n));
    return true;
  }
  return n < 0 && (errno == EINTR || errno == EAGAIN);
}

}  // namespace

Words signal_words(int sig) {
  switch (sig) {
    case SIGSEGV: return words("segmentation fault (SIGSEGV): a read or write outside its memory");
    case SIGBUS: return words("bus error (SIGBUS): a misaligned or unmapped access");
    case SIGFPE: return words("arithmetic exception (SIGFPE): an integer division by zero");
    case SIGABRT: return words("abort (SIGABRT): an assert failed or memory ran out");
    case SIGILL: return words("illegal instruction (SIGILL)");
    case SIGXFSZ: return words("file too large (SIGXFSZ)");
    case SIGKILL: return words("killed (SIGKILL)");
    default: return words("signal %s (%s)", sig, strsignal(sig));
  }
}

SandboxResult run_sandboxed(const std::vector<std::string>& argv_in, const std::string& cwd,
                            const SandboxLimits& limits) {
  SandboxResult r;
  if (argv_in.empty()) {
    r.output = "no program to run";
    return r;
  }
  std::vector<char*> argv;
  for (const auto& a : argv_in) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  int out[2], res[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    r.output = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (pipe2(res, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    r.output = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out[0], out[1], res[0], res[1]}) close(fd);
    r.output = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) child(argv.data(), cwd.c_str(), out[1], res[1], limits);
  setpgid(pid, pid);  // also in the parent, so the kill below cannot miss the group
  close(out[1]);
  close(res[1]);

  const auto deadline = start + std::chrono::duration<double>(limits.wall_seconds);
  bool killed_wall = false, killed_output = false;
  bool out_open = true, res_open = true;
  auto kill_group = [&] { kill(-pid, SIGKILL); kill(pid, SIGKILL); };
  while (out_open || res_open) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      killed_wall = true;
      kill_group();
      break;
    }
    pollfd fds[2];
    int n = 0;
    if (out_open) fds[n++] = {out[0], POLLIN, 0};
    if (res_open) fds[n++] = {res[0], POLLIN, 0};
    const int ready = poll(fds, static_cast<nfds_t>(n), static_cast<int>(left < 100 ? left : 100));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (fds[i].fd == out[0]) out_open = drain(out[0], r.output);
      else res_open = drain(res[0], r.results);
    }
    if (static_cast<long long>(r.output.size()) > limits.output_bytes ||
        static_cast<long long>(r.results.size()) > limits.result_bytes) {
      killed_output = true;
      kill_group();
      break;
    }
  }
  close(out[0]);
  close(res[0]);

  // The pipes are closed; the child may still run (it closed its fds, or a grandchild held them).
  int status = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      status = 0;
      break;
    }
    if (Clock::now() >= deadline && !killed_wall && !killed_output) {
      killed_wall = true;
      kill_group();
    }
    usleep(2000);
  }
  kill(-pid, SIGKILL);  // whatever it left behind in its group
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (static_cast<long long>(r.output.size()) > limits.output_bytes)
    r.output.resize(static_cast<size_t>(limits.output_bytes));

  if (killed_output) r.end = SandboxEnd::OutputLimit;
  else if (killed_wall) r.end = SandboxEnd::WallLimit;
  else if (WIFEXITED(status)) {
    r.end = SandboxEnd::Exited;
    r.exit_code = WEXITSTATUS(status);
    if (r.exit_code == 127 && r.output.find("could not start the program") != std::string::npos)
      r.end = SandboxEnd::StartFailed;
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
    r.end = (r.signal == SIGXCPU || r.signal == SIGKILL) ? SandboxEnd::CpuLimit : SandboxEnd::Signalled;
  }
  return r;
}

}  // namespace gemmlab::exercise
