// gemmlab: one executable. `gemmlab` opens the desktop app; every other command is a row of
// kCommands below, the one place where subcommands are registered (its name, what it does, and
// the function that parses the rest of the line with CLI11, sim/cli/args.h). Parts missing at
// build time say so.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <string>

#include "exercise_cli.h"
#include "sim_cli.h"
#if GEMMLAB_WITH_BENCH
#include "bench_cli.h"
#endif
#if GEMMLAB_WITH_GUI
#include "gui_main.h"
#endif

namespace {

const char* const kNoKernels = "this build has no CUDA kernels (nvcc was not found when it was configured). Install "
                               "the CUDA toolkit and rebuild, or open the app to see the reference results in "
                               "assets/results/.";
const char* const kNoApp = "this build has no desktop app (GUI packages were not found or GEMMLAB_APP=OFF). Run "
                           "./run.sh to install them and rebuild.";

int sim(int argc, char** argv) { return gemmlab::cli::run_sim_cli(argc, argv, 2); }
#if GEMMLAB_WITH_BENCH
int bench(int argc, char** argv) { return gemmlab::bench_main(argc, argv, 2); }
#endif
int exercise(int argc, char** argv) { return gemmlab::exercise::run_exercise_cli(argc, argv, 2, std::cout, std::cerr); }

struct Subcommand {
  const char* name;
  const char* synopsis;  // after "gemmlab NAME" in `gemmlab --help`
  const char* purpose;
  int (*run)(int argc, char** argv);  // nullptr: not in this build
  const char* missing;                // why not, when run is nullptr
};

const Subcommand kCommands[] = {
    {"sim", "<what> ...", "simulator results as JSON (gemmlab sim --help)", sim, nullptr},
    {"exercise", "--list | ID --solution FILE", "grade an exercise (gemmlab exercise --help)", exercise, nullptr},
#if GEMMLAB_WITH_BENCH
    {"bench", "...", "run the CUDA kernels against their references (gemmlab bench --help)", bench, nullptr},
#else
    {"bench", "...", "run the CUDA kernels against their references (gemmlab bench --help)", nullptr, kNoKernels},
#endif
#if GEMMLAB_WITH_GUI
    {"shot", "...", "render a lesson step to PNG (gemmlab shot --help)", gemmlab::app::shot_main, nullptr},
    {"lessons", "--json|--check [DIR]", "list or validate a course (gemmlab lessons --help)",
     gemmlab::app::lessons_main, nullptr},
    {"results", "--markdown", "assets/results/RESULTS.md from the results JSON (gemmlab results --help)",
     gemmlab::app::results_main, nullptr},
#else
    {"shot", "...", "render a lesson step to PNG (gemmlab shot --help)", nullptr, kNoApp},
    {"lessons", "--json|--check [DIR]", "list or validate a course (gemmlab lessons --help)", nullptr, kNoApp},
    {"results", "--markdown", "assets/results/RESULTS.md from the results JSON (gemmlab results --help)", nullptr,
     kNoApp},
#endif
};

void print_usage(std::ostream& os) {
  os << "GEMM Lab " GEMMLAB_VERSION " - see how CUTLASS-style GEMM kernels work\n\n"
        "usage:\n"
        "  gemmlab [options]            open the desktop app on the last lesson (options below)\n";
  for (const Subcommand& c : kCommands) {
    std::string head = std::string("gemmlab ") + c.name + " " + c.synopsis;
    head.resize(std::max<size_t>(head.size() + 2, 29), ' ');
    os << "  " << head << c.purpose << "\n";
  }
  os << "  gemmlab --version            the version\n\nbuilt with: sim"
#if GEMMLAB_WITH_BENCH
        ", kernels"
#else
        ", no kernels (nvcc was not found at build time)"
#endif
#if GEMMLAB_WITH_GUI
        ", app"
#else
        ", no app (GUI packages were not found or GEMMLAB_APP=OFF)"
#endif
        "\n";
}

}  // namespace

int run_command(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    print_usage(std::cout);
#if GEMMLAB_WITH_GUI
    std::cout << "\n";  // and the window's own options
    char help[] = "--help";
    char* args[] = {argv[0], help, nullptr};
    return gemmlab::app::window_main(2, args);
#else
    return 0;
#endif
  }
  if (cmd == "--version") {
    std::cout << "gemmlab " GEMMLAB_VERSION "\n";
    return 0;
  }
  for (const Subcommand& c : kCommands) {
    if (cmd != c.name) continue;
    if (c.run) return c.run(argc, argv);
    std::cerr << "gemmlab " << c.name << ": " << c.missing << "\n";
    return 2;
  }
  if (!cmd.empty() && cmd[0] != '-') {
    std::cerr << "gemmlab: unknown command '" << cmd << "' (gemmlab --help lists them)\n";
    return 2;
  }
#if GEMMLAB_WITH_GUI
  return gemmlab::app::window_main(argc, argv);
#else
  std::cerr << "gemmlab: " << kNoApp << "\n";
  print_usage(std::cerr);
  return 2;
#endif
}

int main(int argc, char** argv) {
  // Whatever a command lets escape ends it with a message and a non-zero status, never abort().
  try {
    return run_command(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "gemmlab: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "gemmlab: internal error (please report it): " << e.what() << "\n";
  } catch (...) {
    std::cerr << "gemmlab: internal error (please report it)\n";
  }
  return 70;
}
