// `gemmlab bench`: cuBLAS first as the reference, then each selected stage; every (stage, size)
// is checked on fresh random inputs before it is timed. Progress on stderr, a table on stdout,
// the results JSON (the app's format, see --help) with --json.
#include "bench_cli.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "runner.h"

namespace gemmlab {
namespace {

using Json = nlohmann::ordered_json;
using namespace gemmlab::kernels;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* kHelp =
    "usage: gemmlab bench [options]\n"
    "  --stages LIST   comma-separated stage ids, or all | fp32 | fp16 | hopper (default: all built)\n"
    "  --sizes LIST    comma-separated N (N x N x N) or MxNxK (default: 4096)\n"
    "  --json FILE     write the results JSON (the app shows it; assets/results/<device>.json)\n"
    "  --warmup N      warm-up runs per entry (default 3)\n"
    "  --reps N        timed runs per entry; median reported (default 20, 10 from 8192^3 up;\n"
    "                  a stage slower than the time budget gets fewer, at least 3)\n"
    "  --budget S      seconds of timed runs per entry (default 4)\n"
    "  --check         correctness only: no timing (default sizes 1,127x129x65,1000x1500x700,4096)\n"
    "  --list          print the stage registry (with --json: as JSON); needs no GPU\n"
    "Every entry is checked against cuBLAS on fresh random inputs (output poisoned with NaN,\n"
    "relative Frobenius error < 1e-5 fp32, < 2e-3 fp16 in / fp32 accumulate) before timing.\n"
    "cuBLAS runs in the same process first: cublasSgemm (no TF32) and cublasGemmEx fp16/fp32.\n"
    "Exit: 0 all checks passed, 1 a check failed, 2 bad arguments, no GPU or a CUDA error.\n";

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

int parse_positive(const std::string& text, const char* what) {
  size_t used = 0;
  long v = 0;
  try {
    v = std::stol(text, &used);
  } catch (...) {
    used = 0;
  }
  if (used != text.size() || v < 1 || v > (1l << 20))
    throw UsageError(std::string(what) + " '" + text + "' must be an integer from 1 to 1048576");
  return int(v);
}

Problem parse_size(const std::string& s) {
  std::vector<std::string> parts(1);
  for (char ch : s) {
    if (ch == 'x') parts.emplace_back();
    else parts.back() += ch;
  }
  if (parts.size() == 1) {
    const int n = parse_positive(parts[0], "size");
    return {n, n, n};
  }
  if (parts.size() != 3)
    throw UsageError("size '" + s + "' must be N or MxNxK (e.g. 4096 or 1000x1500x700)");
  return {parse_positive(parts[0], "M"), parse_positive(parts[1], "N"),
          parse_positive(parts[2], "K")};
}

std::string size_text(const Problem& p) {
  return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

struct Options {
  std::vector<const StageInfo*> stages;
  std::vector<Problem> sizes;
  std::string json_path;
  TimeOptions time;
  bool check_only = false;
  bool list = false;
  bool list_json = false;
};

Options parse(int argc, char** argv, int first) {
  Options o;
  std::string stages_arg = "all", sizes_arg;
  bool json_flag = false;
  for (int i = first; i < argc; ++i) {
    const std::string key = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc || std::strncmp(argv[i + 1], "--", 2) == 0)
        throw UsageError(key + " needs a value");
      return argv[++i];
    };
    if (key == "--stages") stages_arg = value();
    else if (key == "--sizes") sizes_arg = value();
    else if (key == "--json") {
      // `--list --json` takes no file; `--json FILE` otherwise.
      if (i + 1 < argc && std::strncmp(argv[i + 1], "--", 2) != 0) o.json_path = argv[++i];
      else json_flag = true;
    } else if (key == "--warmup") o.time.warmup = parse_positive(value(), "--warmup");
    else if (key == "--reps") o.time.reps = parse_positive(value(), "--reps");
    else if (key == "--budget") o.time.budget_s = parse_positive(value(), "--budget");
    else if (key == "--check") o.check_only = true;
    else if (key == "--list") o.list = true;
    else throw UsageError("unknown option '" + key + "' (see gemmlab bench --help)");
  }
  if (o.list) {
    o.list_json = json_flag || !o.json_path.empty();
    if (!o.json_path.empty()) throw UsageError("--list --json prints to stdout and takes no file");
    return o;
  }
  if (json_flag) throw UsageError("--json needs a file name (or use --list --json)");

  for (const std::string& id : split_commas(stages_arg)) {
    if (id == "all" || id == "fp32" || id == "fp16" || id == "hopper") {
      for (const StageInfo& s : stage_registry())
        if ((id == "all" || id == track_name(s.track))) o.stages.push_back(&s);
      continue;
    }
    const StageInfo* s = find_stage(id);
    if (!s) {
      std::string known;
      for (const StageInfo& r : stage_registry()) known += std::string(" ") + r.id;
      throw UsageError("unknown stage '" + id + "'; stages are:" + known);
    }
    o.stages.push_back(s);
  }
  if (o.stages.empty()) throw UsageError("no stage selected (none of them is built?)");
  if (sizes_arg.empty()) sizes_arg = o.check_only ? "1,127x129x65,1000x1500x700,4096" : "4096";
  for (const std::string& s : split_commas(sizes_arg)) o.sizes.push_back(parse_size(s));
  if (o.sizes.empty()) throw UsageError("--sizes is empty");
  return o;
}

Json registry_json() {
  Json stages = Json::array();
  for (const StageInfo& s : stage_registry()) {
    stages.push_back({{"id", s.id},
                      {"name", s.name},
                      {"track", track_name(s.track)},
                      {"lesson", s.lesson},
                      {"tile", {s.tile_m, s.tile_n, s.tile_k}},
                      {"threads", s.threads},
                      {"regs", s.regs},
                      {"smem", s.smem},
                      {"loads", load_name(s.loads)},
                      {"coresident", coresidency_name(s.coresident)}});
  }
  return {{"stages", stages}};
}

void print_registry_table() {
  std::printf("%-14s %-30s %-5s %-22s %-13s %-7s %-5s %s\n", "id", "name", "track", "lesson", "tile",
              "threads", "regs", "smem");
  for (const StageInfo& s : stage_registry()) {
    char tile[32];
    std::snprintf(tile, sizeof tile, "%dx%dx%d", s.tile_m, s.tile_n, s.tile_k);
    std::printf("%-14s %-30s %-5s %-22s %-13s %-7d %-5d %d\n", s.id, s.name, track_name(s.track),
                s.lesson, tile, s.threads, s.regs, s.smem);
  }
}

struct Row {
  std::string stage, track;
  Problem p;
  TimeResult t;
  CheckResult c;
  bool timed = false, checked = false;
  double ratio = 0;
  double cublas_ms = 0;  // the cuBLAS median `ratio` divides (timed in turns with the stage)
  std::string rejected;
};

class Progress {
 public:
  explicit Progress(int total) : total_(total), tty_(isatty(2)) {}
  void show(int i, const std::string& what) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "[%d/%d] %s", i, total_, what.c_str());
    if (tty_) std::fprintf(stderr, "\r\033[K%s", buf);
    else std::fprintf(stderr, "%s\n", buf);
    std::fflush(stderr);
  }
  void done() {
    if (tty_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  int total_;
  bool tty_;
};

std::string iso_date_utc() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

int run_bench(const Options& o) {
  Runner runner;
  const DeviceInfo& dev = runner.device();
  std::fprintf(stderr, "gemmlab bench: %s, %d SMs, L2 %zu MiB, %d MHz, driver %s, CUDA %s\n",
               dev.name.c_str(), dev.sms, dev.l2_bytes >> 20, dev.clock_mhz, dev.driver.c_str(),
               dev.cuda.c_str());

  bool tracks[2] = {false, false};
  for (const StageInfo* s : o.stages) tracks[int(operand_track(s->track))] = true;
  const int per_size = int(o.stages.size()) + (o.check_only ? 0 : tracks[0] + tracks[1]);
  Progress progress(per_size * int(o.sizes.size()));
  int step = 0;

  std::vector<Row> rows;
  bool all_ok = true;
  for (const Problem& p : o.sizes) {
    if (!o.check_only) {
      for (int tr = 0; tr < 2; ++tr) {
        if (!tracks[tr]) continue;
        const Target target = Target::cublas(Track(tr));
        progress.show(++step, target.id() + " " + size_text(p) + ": timing");
        Row row;
        row.stage = target.id(), row.track = track_name(Track(tr)), row.p = p;
        if (std::string why = runner.validate(p, target); !why.empty()) {
          row.rejected = why;
        } else {
          row.t = runner.time(target, p, o.time);
          row.rejected = row.t.rejected;
          row.timed = row.rejected.empty();
          row.ratio = 1.0;
        }
        rows.push_back(row);
      }
    }
    for (const StageInfo* s : o.stages) {
      const Target target = Target::of(*s);
      Row row;
      row.stage = s->id, row.track = track_name(s->track), row.p = p;
      progress.show(++step, row.stage + " " + size_text(p) + ": checking");
      row.c = runner.check(target, p);
      row.rejected = row.c.rejected;
      row.checked = row.rejected.empty();
      if (row.checked && !row.c.ok) all_ok = false;
      if (row.checked && !o.check_only) {
        progress.show(step, row.stage + " " + size_text(p) + ": timing");
        // The ratio: against cuBLAS timed in turns with the stage (Runner::time_interleaved), not
        // against the reference row above, which ran earlier on a cooler GPU.
        const std::vector<TimeResult> pair =
            runner.time_interleaved({target, Target::cublas(target.track)}, p, o.time);
        row.t = pair[0];
        row.timed = row.t.rejected.empty();
        if (!row.timed) row.rejected = row.t.rejected;
        row.ratio = row.timed && pair[1].median_ms > 0 ? pair[1].median_ms / row.t.median_ms : 0;
        row.cublas_ms = pair[1].median_ms;
      }
      rows.push_back(row);
    }
  }
  progress.done();

  // The table.
  std::printf("%-16s %-17s %10s %9s %9s %10s %6s %s\n", "stage", "M x N x K", "ms", "TFLOP/s",
              "% cuBLAS", "rel_err", "reps", "check");
  for (const Row& r : rows) {
    std::printf("%-16s %-17s ", r.stage.c_str(), size_text(r.p).c_str());
    if (r.timed)
      std::printf("%10.4f %9.2f %8.1f%% ", r.t.median_ms, r.t.tflops, 100 * r.ratio);
    else
      std::printf("%10s %9s %9s ", "-", "-", "-");
    if (r.checked) std::printf("%10.2e ", r.c.rel_err);
    else std::printf("%10s ", "-");
    if (r.timed) std::printf("%6d ", r.t.reps);
    else std::printf("%6s ", "-");
    if (!r.rejected.empty()) std::printf("skipped: %s\n", r.rejected.c_str());
    else if (!r.checked) std::printf("reference\n");
    else if (r.c.ok) std::printf("ok\n");
    else
      std::printf("FAILED (tolerance %.0e, %lld non-finite, %lld guard words changed)\n",
                  tolerance(r.track == "fp32" ? Track::fp32 : Track::fp16), r.c.nonfinite,
                  r.c.guard_hits);
  }

  if (!o.json_path.empty()) {
    Json results = Json::array(), skipped = Json::array();
    for (const Row& r : rows) {
      if (!r.rejected.empty()) {
        skipped.push_back({{"stage", r.stage}, {"m", r.p.m}, {"n", r.p.n}, {"k", r.p.k},
                           {"reason", r.rejected}});
        continue;
      }
      if (!r.timed) continue;
      const bool reference = !r.checked;
      results.push_back({{"stage", r.stage},
                         {"track", r.track},
                         {"m", r.p.m},
                         {"n", r.p.n},
                         {"k", r.p.k},
                         {"ms", r.t.median_ms},
                         {"tflops", r.t.tflops},
                         {"ratio_to_cublas", r.ratio},
                         {"cublas_ms", reference ? r.t.median_ms : r.cublas_ms},
                         {"rel_err", reference ? 0.0 : r.c.rel_err},
                         {"ok", reference || r.c.ok},
                         {"reps", r.t.reps}});
    }
    Json doc = {{"device",
                 {{"name", dev.name},
                  {"sms", dev.sms},
                  {"l2_bytes", dev.l2_bytes},
                  {"clock_mhz", dev.clock_mhz},
                  {"driver", dev.driver},
                  {"cuda", dev.cuda}}},
                {"date", iso_date_utc()},
                {"results", results}};
    if (!skipped.empty()) doc["skipped"] = skipped;
    std::ofstream f(o.json_path);
    if (!f) throw UsageError("cannot write '" + o.json_path + "'");
    f << doc.dump(2) << "\n";
    if (!f) throw UsageError("writing '" + o.json_path + "' failed");
    std::fprintf(stderr, "gemmlab bench: wrote %s\n", o.json_path.c_str());
  }
  if (!all_ok) std::fprintf(stderr, "gemmlab bench: a correctness check FAILED (see the table)\n");
  return all_ok ? 0 : 1;
}

}  // namespace

int bench_main(int argc, char** argv, int first) {
  for (int i = first; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::cout << kHelp;
      return 0;
    }
  try {
    const Options o = parse(argc, argv, first);
    if (o.list) {
      if (o.list_json) std::cout << registry_json().dump(2) << "\n";
      else print_registry_table();
      return 0;
    }
    return run_bench(o);
  } catch (const UsageError& e) {
    std::cerr << "gemmlab bench: " << e.what() << "\n";
    return 2;
  } catch (const GpuError& e) {
    std::cerr << "gemmlab bench: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "gemmlab bench: out of host memory\n";
    return 2;
  }
}

}  // namespace gemmlab
