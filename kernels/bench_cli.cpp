// `gemmlab bench`: cuBLAS first as the reference, then each selected stage; every (stage, size)
// is checked on fresh random inputs before it is timed. Progress on stderr, a table on stdout,
// the results JSON (the app's format, see --help) with --json.
#include "bench_cli.h"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <algorithm>
#include <map>
#include <set>
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
    "  --stages LIST   comma-separated stage ids, or all | fp32 | fp16 | hopper | conv (default: all\n"
    "                  GEMM stages; with --conv all conv stages)\n"
    "  --sizes LIST    comma-separated N (N x N x N) or MxNxK (default: 4096)\n"
    "  --conv SHAPE    convolutions instead of GEMMs: N,H,W,C,K,R,S[,pad,stride[,dilation]]\n"
    "                  (NHWC input, KRSC filters, NPQK fp32 output; pad 0, stride 1 by default),\n"
    "                  or resnet50 (its 3x3 and 1x1 layers at N = 32, pad 1 for 3x3); repeat\n"
    "                  --conv for several. References: im2col + cublasGemmEx, and cuDNN when\n"
    "                  the build has it (CMake -DGEMMLAB_CUDNN_ROOT=...)\n"
    "  --json FILE     write the results JSON (the app shows it; assets/results/<device>.json)\n"
    "  --warmup N      warm-up runs per entry (default 3)\n"
    "  --reps N        timed runs per entry; median reported (default 20, 10 from 8192^3 up;\n"
    "                  a stage slower than the time budget gets fewer, at least 3)\n"
    "  --budget S      seconds of timed runs per entry (default 4)\n"
    "  --per-turn N    timed runs of a kernel in a row when it takes turns with others (default 2)\n"
    "  --check         correctness only: no timing (default sizes 1,127x129x65,1000x1500x700,4096)\n"
    "  --list          print the stage registry (with --json: as JSON); needs no GPU\n"
    "Every entry is checked against cuBLAS (convolutions: im2col + cuBLAS) on fresh random inputs (output poisoned with NaN,\n"
    "relative Frobenius error < 1e-5 fp32, < 2e-3 fp16 in / fp32 accumulate) before timing.\n"
    "cuBLAS runs in the same process first: cublasSgemm (no TF32) and cublasGemmEx fp16/fp32.\n"
    "Each stage is timed in turns with cuBLAS (its % of cuBLAS) and with the stage before it on\n"
    "its ladder when that is selected too (\"x prev\": that stage's time over this one's).\n"
    "Exit: 0 all checks passed, 1 a check failed, 2 bad arguments, no GPU or a CUDA error.\n";

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

int parse_int_in(const std::string& text, const char* what, long lo, long hi) {
  size_t used = 0;
  long v = 0;
  try {
    v = std::stol(text, &used);
  } catch (...) {
    used = 0;
  }
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || used != text.size() || v < lo || v > hi)
    throw UsageError(std::string(what) + " '" + text + "' must be an integer from " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  return int(v);
}
int parse_positive(const std::string& text, const char* what) { return parse_int_in(text, what, 1, 1l << 20); }

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

// N,H,W,C,K,R,S[,pad,stride[,dilation]]
conv::Shape parse_conv(const std::string& spec) {
  const std::vector<std::string> f = [&] {
    std::vector<std::string> out(1);
    for (char ch : spec) {
      if (ch == ',') out.emplace_back();
      else out.back() += ch;
    }
    return out;
  }();
  if (f.size() < 7 || f.size() > 10)
    throw UsageError("--conv '" + spec + "' must be N,H,W,C,K,R,S[,pad,stride[,dilation]] (e.g. 32,56,56,64,64,3,3,1,1) or resnet50");
  auto at = [&](size_t i, const char* what, int fallback) {
    return i < f.size() ? parse_int_in(f[i], what, i == 7 ? 0 : 1, 1l << 20) : fallback;
  };
  conv::Shape s{at(0, "N", 1), at(1, "H", 1), at(2, "W", 1), at(3, "C", 1), at(4, "K", 1), at(5, "R", 1), at(6, "S", 1),
                at(7, "pad", 0), at(8, "stride", 1), at(9, "dilation", 1)};
  return s;
}

// ResNet-50's convolutions at batch 32 (NHWC): the four 3x3 layers (pad 1) and the 1x1 layers
// of its bottleneck blocks.
std::vector<conv::Shape> resnet50_layers() {
  std::vector<conv::Shape> v;
  for (auto [hw, c] : {std::pair{56, 64}, {28, 128}, {14, 256}, {7, 512}})
    v.push_back({32, hw, hw, c, c, 3, 3, 1, 1, 1});
  for (auto [hw, c] : {std::pair{56, 64}, {28, 128}, {14, 256}, {7, 512}}) {
    v.push_back({32, hw, hw, c, 4 * c, 1, 1, 0, 1, 1});  // expand
    v.push_back({32, hw, hw, 4 * c, c, 1, 1, 0, 1, 1});  // reduce
  }
  return v;
}

std::string conv_text(const conv::Shape& s) {
  std::string t = std::to_string(s.n) + "," + std::to_string(s.h) + "," + std::to_string(s.w) + "," +
                  std::to_string(s.c) + "," + std::to_string(s.k) + "," + std::to_string(s.r) + "," +
                  std::to_string(s.s) + "," + std::to_string(s.pad) + "," + std::to_string(s.stride);
  if (s.dilation != 1) t += "," + std::to_string(s.dilation);
  return t;
}

struct Options {
  std::vector<const StageInfo*> stages;
  std::vector<Problem> sizes;
  std::vector<conv::Shape> convs;  // non-empty: a convolution bench
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
  std::set<std::string> seen;
  for (int i = first; i < argc; ++i) {
    const std::string key = argv[i];
    // Every option once, except --conv, which adds a convolution each time.
    if (key != "--conv" && !seen.insert(key).second) throw UsageError(key + " is given twice");
    auto value = [&]() -> std::string {
      if (i + 1 >= argc || std::strncmp(argv[i + 1], "--", 2) == 0)
        throw UsageError(key + " needs a value");
      return argv[++i];
    };
    if (key == "--stages") stages_arg = value();
    else if (key == "--sizes") sizes_arg = value();
    else if (key == "--conv") {
      const std::string spec = value();
      if (spec == "resnet50") for (const conv::Shape& c : resnet50_layers()) o.convs.push_back(c);
      else o.convs.push_back(parse_conv(spec));
    }
    else if (key == "--json") {
      // `--list --json` takes no file; `--json FILE` otherwise.
      if (i + 1 < argc && std::strncmp(argv[i + 1], "--", 2) != 0) o.json_path = argv[++i];
      else json_flag = true;
    } else if (key == "--warmup") o.time.warmup = parse_positive(value(), "--warmup");
    else if (key == "--reps") o.time.reps = parse_positive(value(), "--reps");
    else if (key == "--budget") o.time.budget_s = parse_positive(value(), "--budget");
    else if (key == "--per-turn") o.time.per_turn = parse_positive(value(), "--per-turn");
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

  const bool conv_bench = !o.convs.empty();
  for (const std::string& id : split_commas(stages_arg)) {
    if (id == "all" || id == "fp32" || id == "fp16" || id == "hopper" || id == "conv") {
      for (const StageInfo& s : stage_registry())
        if (id == "all" ? is_conv(s.track) == conv_bench
                        : id == "conv" ? is_conv(s.track) : id == track_name(s.track))
          o.stages.push_back(&s);
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
  for (const StageInfo* s : o.stages)
    if (is_conv(s->track) != conv_bench)
      throw UsageError(std::string("stage '") + s->id + "' " +
                       (conv_bench ? "is a GEMM stage: --conv runs the conv stages (--stages conv)"
                                   : "is a convolution: give it --conv N,H,W,C,K,R,S (or --conv resnet50)"));
  if (conv_bench) {
    if (!sizes_arg.empty()) throw UsageError("--sizes is for GEMMs; a convolution's size is its --conv shape");
    return o;
  }
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

// A launch that waits for the GPU (a synchronizing call inside it) cannot be held (stream_hold.h):
// its times then include the host's launch work, which the table should not pass off as GPU time.
void warn_unheld(const std::string& what, const std::vector<TimeResult>& turns) {
  for (const TimeResult& t : turns)
    if (t.unheld > 0)
      std::fprintf(stderr, "gemmlab bench: %s: %d of %d timed runs waited for the GPU inside their launch; "
                           "their times include host work\n", what.c_str(), t.unheld, t.reps);
}

struct Row {
  std::string stage, track;
  Problem p;
  TimeResult t;
  CheckResult c;
  bool timed = false, checked = false;
  double ratio = 0;
  double cublas_ms = 0;  // the cuBLAS median `ratio` divides (timed in turns with the stage)
  // The stage before this one on its ladder, timed in turns with it and cuBLAS (empty: none, or
  // not selected, or it could not run this size).
  std::string previous;
  double previous_ms = 0;
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

// The results JSON (app/src/model/results_file.h reads it).
void write_results(const std::string& path, const DeviceInfo& dev, const Json& results, const Json& skipped) {
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
  std::ofstream f(path);
  if (!f) throw UsageError("cannot write '" + path + "'");
  f << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!f) throw UsageError("writing '" + path + "' failed");
  std::fprintf(stderr, "gemmlab bench: wrote %s\n", path.c_str());
}

Json conv_json(const conv::Shape& c) {
  return {{"n", c.n}, {"h", c.h}, {"w", c.w}, {"c", c.c}, {"k", c.k}, {"r", c.r}, {"s", c.s},
          {"pad", c.pad}, {"stride", c.stride}, {"dilation", c.dilation}};
}

// A convolution row: a conv stage (timed in turns with its references), or a reference alone.
struct ConvRow {
  std::string stage, track;
  conv::Shape shape;
  TimeResult t;
  CheckResult c;
  bool timed = false, checked = false;
  double im2col_ms = 0, cudnn_ms = 0;  // the references' medians from the same turns (0: not run)
  std::string rejected;
};

int run_conv_bench(const Options& o, Runner& runner, Progress& progress) {
  const DeviceInfo& dev = runner.device();
  std::vector<conv::Element> elements;
  for (const StageInfo* s : o.stages)
    if (std::find(elements.begin(), elements.end(), conv_element(s->track)) == elements.end())
      elements.push_back(conv_element(s->track));
  if (!cudnn_built() && !o.check_only)
    std::fprintf(stderr, "gemmlab bench: no cuDNN in this build (configure with -DGEMMLAB_CUDNN_ROOT=...): "
                         "im2col + cuBLAS is the only reference\n");
  int step = 0;
  std::vector<ConvRow> rows;
  bool all_ok = true;
  for (const conv::Shape& sh : o.convs) {
    const std::string shape_text = conv_text(sh);
    if (!o.check_only)
      for (conv::Element e : elements) {
        std::vector<ConvTarget> refs{ConvTarget::im2col_cublas(e)};
        if (cudnn_built() && e == conv::Element::F16) refs.push_back(ConvTarget::cudnn(e));
        for (const ConvTarget& t : refs) {
          progress.show(++step, t.id() + " " + shape_text + ": timing");
          ConvRow row;
          row.stage = t.id(), row.track = track_name(conv_track(e)), row.shape = sh;
          try {
            row.rejected = runner.validate_conv(sh, t);
            if (row.rejected.empty()) {
              row.t = runner.time_conv({t}, sh, o.time).front();
              row.rejected = row.t.rejected;
              row.timed = row.rejected.empty();
            }
          } catch (const GpuError& err) {
            if (t.kind != ConvTarget::Kind::Cudnn) throw;
            row.rejected = err.what();  // cuDNN refused this shape: say so, go on
          }
          rows.push_back(row);
        }
      }
    for (const StageInfo* s : o.stages) {
      const ConvTarget target = ConvTarget::of(*s);
      ConvRow row;
      row.stage = s->id, row.track = track_name(s->track), row.shape = sh;
      progress.show(++step, row.stage + " " + shape_text + ": checking");
      row.c = runner.check_conv(target, sh);
      row.rejected = row.c.rejected;
      row.checked = row.rejected.empty();
      if (row.checked && !row.c.ok) all_ok = false;
      if (row.checked && !o.check_only) {
        progress.show(step, row.stage + " " + shape_text + ": timing");
        std::vector<ConvTarget> turns{target, ConvTarget::im2col_cublas(target.element)};
        const bool with_cudnn = cudnn_built() && target.element == conv::Element::F16;
        if (with_cudnn) turns.push_back(ConvTarget::cudnn(target.element));
        std::vector<TimeResult> t;
        try {
          t = runner.time_conv(turns, sh, o.time);
        } catch (const GpuError&) {
          if (!with_cudnn) throw;
          turns.pop_back();  // cuDNN refused the shape: time against im2col + cuBLAS alone
          t = runner.time_conv(turns, sh, o.time);
        }
        warn_unheld(row.stage + " " + shape_text, t);
        row.t = t[0];
        row.timed = row.t.rejected.empty();
        if (!row.timed) row.rejected = row.t.rejected;
        row.im2col_ms = t[1].median_ms;
        if (t.size() > 2) row.cudnn_ms = t[2].median_ms;
      }
      rows.push_back(row);
    }
  }
  progress.done();

  std::printf("%-14s %-10s %-26s %9s %9s %9s %9s %10s %5s %s\n", "stage", "track", "N,H,W,C,K,R,S,pad,stride", "ms",
              "TFLOP/s", "% im2col", "% cuDNN", "rel_err", "reps", "check");
  for (const ConvRow& r : rows) {
    std::printf("%-14s %-10s %-26s ", r.stage.c_str(), r.track.c_str(), conv_text(r.shape).c_str());
    if (r.timed) {
      std::printf("%9.4f %9.2f ", r.t.median_ms, r.t.tflops);
      if (r.im2col_ms > 0) std::printf("%8.1f%% ", 100 * r.im2col_ms / r.t.median_ms);
      else std::printf("%9s ", "-");
      if (r.cudnn_ms > 0) std::printf("%8.1f%% ", 100 * r.cudnn_ms / r.t.median_ms);
      else std::printf("%9s ", "-");
    } else {
      std::printf("%9s %9s %9s %9s ", "-", "-", "-", "-");
    }
    if (r.checked) std::printf("%10.2e ", r.c.rel_err);
    else std::printf("%10s ", "-");
    if (r.timed) std::printf("%5d ", r.t.reps);
    else std::printf("%5s ", "-");
    if (!r.rejected.empty()) std::printf("skipped: %s\n", r.rejected.c_str());
    else if (!r.checked) std::printf("reference\n");
    else if (r.c.ok) std::printf("ok\n");
    else
      std::printf("FAILED (%lld non-finite, %lld guard words changed)\n", r.c.nonfinite, r.c.guard_hits);
  }

  if (!o.json_path.empty()) {
    Json results = Json::array(), skipped = Json::array();
    for (const ConvRow& r : rows) {
      const conv::Shape& c = r.shape;
      if (!r.rejected.empty()) {
        skipped.push_back({{"stage", r.stage}, {"m", c.gemm_m()}, {"n", c.gemm_n()}, {"k", c.gemm_k()},
                           {"conv", conv_json(c)}, {"reason", r.rejected}});
        continue;
      }
      if (!r.timed) continue;
      const bool reference = !r.checked;
      Json x = {{"stage", r.stage}, {"track", r.track}, {"m", c.gemm_m()}, {"n", c.gemm_n()}, {"k", c.gemm_k()},
                {"conv", conv_json(c)}, {"ms", r.t.median_ms}, {"tflops", r.t.tflops}};
      // TFLOP/s ratios in the same run: the references' time over this stage's.
      if (!reference) {
        x["ratio_to_im2col"] = r.im2col_ms / r.t.median_ms;
        x["im2col_ms"] = r.im2col_ms;
        if (r.cudnn_ms > 0) x["ratio_to_cudnn"] = r.cudnn_ms / r.t.median_ms, x["cudnn_ms"] = r.cudnn_ms;
      }
      x["rel_err"] = reference ? 0.0 : r.c.rel_err;
      x["ok"] = reference || r.c.ok;
      x["reps"] = r.t.reps;
      results.push_back(x);
    }
    write_results(o.json_path, dev, results, skipped);
  }
  if (!all_ok) std::fprintf(stderr, "gemmlab bench: a correctness check FAILED (see the table)\n");
  return all_ok ? 0 : 1;
}

int run_bench(const Options& o) {
  Runner runner;
  const DeviceInfo& dev = runner.device();
  std::fprintf(stderr, "gemmlab bench: %s, %d SMs, L2 %zu MiB, %d MHz, driver %s, CUDA %s%s\n",
               dev.name.c_str(), dev.sms, dev.l2_bytes >> 20, dev.clock_mhz, dev.driver.c_str(),
               dev.cuda.c_str(), cudnn_built() ? (", cuDNN " + cudnn_version()).c_str() : "");
  if (!o.convs.empty()) {
    std::set<int> elements;  // one set of references per element type (conv-fp16 and conv-wgmma share fp16's)
    for (const StageInfo* s : o.stages) elements.insert(int(conv_element(s->track)));
    const bool fp16 = elements.count(int(conv::Element::F16)) > 0;
    const int refs = o.check_only ? 0 : int(elements.size()) + (cudnn_built() && fp16 ? 1 : 0);
    Progress progress(int(o.convs.size()) * (int(o.stages.size()) + refs));
    return run_conv_bench(o, runner, progress);
  }

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
        // The ratio: against cuBLAS timed in turns with the stage (Runner::time_stage), not
        // against the reference row above, which ran earlier on a cooler GPU; and the stage
        // before it on the ladder in the same turns, where it is selected and ran this size.
        std::optional<Target> before = Target::previous_of(*s);
        if (before && std::none_of(rows.begin(), rows.end(), [&](const Row& r) {
              return r.stage == before->id() && r.p.m == p.m && r.p.n == p.n && r.p.k == p.k && r.timed && r.c.ok;
            }))
          before.reset();
        const Target* previous = before ? &*before : nullptr;
        const Runner::StageTurns turns = runner.time_stage(target, previous, p, o.time);
        warn_unheld(row.stage + " " + size_text(p), {turns.stage, turns.cublas, turns.previous});
        row.t = turns.stage;
        row.timed = row.t.rejected.empty();
        if (!row.timed) row.rejected = row.t.rejected;
        row.ratio = row.timed && turns.cublas.median_ms > 0 ? turns.cublas.median_ms / row.t.median_ms : 0;
        row.cublas_ms = turns.cublas.median_ms;
        if (row.timed && previous) row.previous = previous->id(), row.previous_ms = turns.previous.median_ms;
      }
      rows.push_back(row);
    }
  }
  progress.done();

  // The table.
  std::printf("%-16s %-17s %10s %9s %9s %8s %10s %6s %s\n", "stage", "M x N x K", "ms", "TFLOP/s",
              "% cuBLAS", "x prev", "rel_err", "reps", "check");
  for (const Row& r : rows) {
    std::printf("%-16s %-17s ", r.stage.c_str(), size_text(r.p).c_str());
    if (r.timed)
      std::printf("%10.4f %9.2f %8.1f%% ", r.t.median_ms, r.t.tflops, 100 * r.ratio);
    else
      std::printf("%10s %9s %9s ", "-", "-", "-");
    // The speed-up over the stage before, timed in the same turns: its time over this one's.
    if (r.previous_ms > 0) std::printf("%7.3fx ", r.previous_ms / r.t.median_ms);
    else std::printf("%8s ", "-");
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
      Json x = {{"stage", r.stage},
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
                {"reps", r.t.reps}};
      if (r.previous_ms > 0) x["previous_stage"] = r.previous, x["previous_ms"] = r.previous_ms;
      results.push_back(x);
    }
    write_results(o.json_path, dev, results, skipped);
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
      if (o.list_json) std::cout << registry_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
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
