// gemmlab: one executable. `gemmlab` opens the desktop app; `gemmlab sim ...` prints simulator
// results as JSON; `gemmlab bench ...` runs the CUDA kernels against cuBLAS; `gemmlab shot` and
// `gemmlab lessons` are the app's headless commands. Parts missing at build time say so.
#include <cstring>
#include <iostream>

#include "exercise_cli.h"
#include "sim_cli.h"
#if GEMMLAB_WITH_BENCH
#include "bench_cli.h"
#endif
#if GEMMLAB_WITH_GUI
#include "gui_main.h"
#endif

namespace {

void print_usage(std::ostream& os) {
  os << "GEMM Lab " GEMMLAB_VERSION " - see how CUTLASS-style GEMM kernels work\n\n"
        "usage:\n"
        "  gemmlab                      open the desktop app on the last lesson\n"
        "  gemmlab sim <what> ...       simulator results as JSON (gemmlab sim --help)\n"
        "  gemmlab bench ...            run the CUDA kernels vs cuBLAS (gemmlab bench --help)\n"
        "  gemmlab shot ...             render a lesson step to PNG (gemmlab shot --help)\n"
        "  gemmlab lessons --json|--check [DIR]   list or validate a course (gemmlab lessons --help)\n"
        "  gemmlab results --markdown   assets/results/RESULTS.md from the results JSON\n"
        "  gemmlab exercise --list | ID --solution FILE   grade an exercise (gemmlab exercise --help)\n\n"
        "built with: sim"
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
  const char* cmd = argc > 1 ? argv[1] : "";
  if (!std::strcmp(cmd, "--help") || !std::strcmp(cmd, "-h") || !std::strcmp(cmd, "help")) {
    print_usage(std::cout);
    return 0;
  }
  if (!std::strcmp(cmd, "--version")) {
    std::cout << "gemmlab " GEMMLAB_VERSION "\n";
    return 0;
  }
  if (!std::strcmp(cmd, "sim")) return gemmlab::cli::run_sim_cli(argc, argv, 2);
  if (!std::strcmp(cmd, "exercise")) return gemmlab::exercise::run_exercise_cli(argc, argv, 2, std::cout, std::cerr);
  if (!std::strcmp(cmd, "bench")) {
#if GEMMLAB_WITH_BENCH
    return gemmlab::bench_main(argc, argv, 2);
#else
    std::cerr << "gemmlab bench: this build has no CUDA kernels (nvcc was not found when it was "
                 "configured). Install the CUDA toolkit and rebuild, or open the app to see the "
                 "reference results in assets/results/.\n";
    return 2;
#endif
  }
#if GEMMLAB_WITH_GUI
  return gemmlab::app::gui_main(argc, argv);
#else
  if (argc > 1 && std::strcmp(cmd, "shot") && std::strcmp(cmd, "lessons") && std::strcmp(cmd, "results")) {
    std::cerr << "gemmlab: unknown command '" << cmd << "'\n";
    print_usage(std::cerr);
    return 2;
  }
  std::cerr << "gemmlab: this build has no desktop app (GUI packages were not found or "
               "GEMMLAB_APP=OFF). Run ./run.sh to install them and rebuild.\n";
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
