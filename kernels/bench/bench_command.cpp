// `gemmlab bench`: the references first, then each selected stage; every (stage, size) is checked
// on fresh random inputs before it is timed (BenchSession). Progress on stderr, a table on stdout,
// the results JSON with --json.
#include "bench/bench_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.h"
#include "gemmlab/launch_facts.h"
#include "gemmlab/resnet50_layers.h"
#include "gemmlab/write_file.h"

namespace gemmlab::bench {
namespace {

using Json = nlohmann::ordered_json;
using cli::CliError;
using cli::OptionSpec;

constexpr long kMaxExtent = 1l << 20;

const std::vector<OptionSpec>& bench_options() {
  static const std::vector<OptionSpec> o = {
      {"--stages", "LIST",
       "comma-separated stage ids, or all, conv, or a track (fp32, fp16, hopper, fp8, fp8-block, conv-fp16, ...)",
       "all: the GEMM stages, or with --conv the conv stages"},
      {"--sizes", "LIST", "comma-separated N (N x N x N) or MxNxK, each 1..1048576",
       "4096; with --check 1,127x129x65,1000x1500x700,4096"},
      {"--conv", "SHAPE",
       "a convolution instead of GEMMs: N,H,W,C,K,R,S[,pad,stride[,dilation]] (NHWC input, KRSC filters, "
       "NPQK fp32 output; each 1..1048576, pad from 0), or resnet50 (its 23 distinct layers at N = 32: the "
       "7x7 stem, the 1x1 and 3x3 layers, strided and downsample; gemmlab/resnet50_layers.h). "
       "References: im2col + cublasGemmEx, and cuDNN where the build has it (CMake -DGEMMLAB_CUDNN_ROOT=...)",
       "none: GEMMs; pad 0, stride 1, dilation 1", true},
      {"--json", "FILE", "write the results JSON (the app shows it; assets/results/<device>.json); "
                         "with --list: print the registry as JSON", "none", false, true},
      {"--warmup", "N", "warm-up runs per entry (1..1048576)", "3"},
      {"--reps", "N", "timed runs per entry, median reported (1..1048576; a stage slower than the budget "
                      "gets fewer, at least 3)", "20, 10 from 8192^3 up"},
      {"--budget", "S", "seconds of timed runs per entry (1..1048576)", "4"},
      {"--per-turn", "N", "timed runs of a kernel in a row when it takes turns with others (1..1048576)", "2"},
      {"--check", "", "correctness only: no timing", ""},
      {"--list", "", "print the stage registry with each stage's lesson number; needs no GPU", ""},
  };
  return o;
}

std::string help_text() {
  return "usage: gemmlab bench [options]\n\noptions:\n" + cli::options_help(bench_options()) +
         "\nEvery entry is checked against its reference (cuBLAS; convolutions: im2col + cuBLAS) on fresh random\n"
         "inputs (output poisoned with NaN, relative Frobenius error < 1e-5 fp32, < 2e-3 fp16 in / fp32\n"
         "accumulate) before timing. Each reference first runs alone, in the same process. Each stage is\n"
         "timed in turns with its reference (the % column) and with the stage before it on its ladder when\n"
         "that is selected too (\"x prev\": that stage's time over this one's).\n"
         "FP8 stages (tracks fp8, fp8-block: e4m3 in, bf16 out, K a multiple of 16) and their cuBLASLt\n"
         "references alike are checked per element against the exact product of the dequantized operands in\n"
         "double: |d - r| <= 2^-7 |r| + ceil(K/32) 2^-13 S on random data, 2^-8 |r| on +-1 data.\n"
         "Exit: 0 all checks passed, 1 a check failed, 2 bad arguments, no GPU or a CUDA error.\n";
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char ch : s) {
    if (ch == sep) out.emplace_back();
    else out.back() += ch;
  }
  return out;
}

GemmSize parse_size(const std::string& s) {
  const std::vector<std::string> parts = split(s, 'x');
  if (parts.size() == 1) {
    const int n = cli::parse_int_in(parts[0], "size", 1, kMaxExtent);
    return {n, n, n};
  }
  if (parts.size() != 3) throw CliError("size '" + s + "' must be N or MxNxK (e.g. 4096 or 1000x1500x700)");
  return {cli::parse_int_in(parts[0], "M", 1, kMaxExtent), cli::parse_int_in(parts[1], "N", 1, kMaxExtent),
          cli::parse_int_in(parts[2], "K", 1, kMaxExtent)};
}

// N,H,W,C,K,R,S[,pad,stride[,dilation]]
conv::Shape parse_conv(const std::string& spec) {
  const std::vector<std::string> f = split(spec, ',');
  if (f.size() < 7 || f.size() > 10)
    throw CliError("--conv '" + spec +
                   "' must be N,H,W,C,K,R,S[,pad,stride[,dilation]] (e.g. 32,56,56,64,64,3,3,1,1) or resnet50");
  const char* names[10] = {"N", "H", "W", "C", "K", "R", "S", "pad", "stride", "dilation"};
  int v[10] = {1, 1, 1, 1, 1, 1, 1, 0, 1, 1};
  for (size_t i = 0; i < f.size(); ++i) v[i] = cli::parse_int_in(f[i], std::string("--conv ") + names[i], i == 7 ? 0 : 1, kMaxExtent);
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]};
}

struct Options {
  SessionRequest request;
  std::string json_path;
  TimeSettings time;
  bool help = false, list = false, list_json = false;
};

// The stages a --stages word names: one id, all (of the bench's kind), conv, or a track's name.
void select_stages(const std::string& word, bool conv_bench, std::vector<std::string>& out) {
  bool group = false;
  for (const StageDesc& s : stage_table())
    if (word == "all" ? is_conv(s.track) == conv_bench : word == "conv" ? is_conv(s.track) : word == track_name(s.track)) {
      out.push_back(s.id);
      group = true;
    }
  if (group || word == "all" || word == "conv") return;
  if (!find_stage_desc(word)) {
    std::string known;
    for (const StageDesc& r : stage_table()) known += std::string(" ") + r.id;
    throw CliError("unknown stage '" + word + "'; stages are:" + known);
  }
  out.push_back(word);
}

Options parse(int argc, char** argv, int first) {
  const cli::Args a("gemmlab bench", bench_options(), argc, argv, first);
  Options o;
  o.help = a.help();
  if (o.help) return o;
  o.list = a.has("--list");
  if (o.list) {
    o.list_json = a.has("--json");
    if (!a.str("--json", "").empty()) throw CliError("--list --json prints to stdout and takes no file");
    return o;
  }
  if (a.has("--json")) {
    o.json_path = a.str("--json");
    if (o.json_path.empty()) throw CliError("--json needs a file name (or use --list --json)");
  }
  o.time.warmup = cli::parse_int_in(a.str("--warmup", "3"), "--warmup", 1, kMaxExtent);
  if (a.has("--reps")) o.time.reps = cli::parse_int_in(a.str("--reps"), "--reps", 1, kMaxExtent);
  o.time.budget_s = cli::parse_int_in(a.str("--budget", "4"), "--budget", 1, kMaxExtent);
  o.time.per_turn = cli::parse_int_in(a.str("--per-turn", "2"), "--per-turn", 1, kMaxExtent);
  SessionRequest& r = o.request;
  r.check_only = a.has("--check");
  for (const std::string& spec : a.all("--conv")) {
    if (spec == "resnet50") {
      for (const conv::NetworkLayer& l : conv::resnet50_layers(32)) {
        r.convs.push_back(l.shape);
        r.conv_layers.push_back(l.name);
        r.conv_epilogues.push_back({l.relu, l.residual});
      }
      continue;
    }
    r.convs.push_back(parse_conv(spec));
    r.conv_layers.emplace_back();
    r.conv_epilogues.emplace_back();
  }
  const bool conv_bench = !r.convs.empty();
  for (const std::string& word : split(a.str("--stages", "all"), ','))
    if (!word.empty()) select_stages(word, conv_bench, r.entries);
  if (r.entries.empty()) throw CliError("no stage selected (none of them is built?)");
  for (const std::string& id : r.entries)
    if (is_conv(find_stage_desc(id)->track) != conv_bench)
      throw CliError("stage '" + id + "' " +
                     (conv_bench ? "is a GEMM stage: --conv runs the conv stages (--stages conv)"
                                 : "is a convolution: give it --conv N,H,W,C,K,R,S (or --conv resnet50)"));
  if (conv_bench) {
    if (a.has("--sizes")) throw CliError("--sizes is for GEMMs; a convolution's size is its --conv shape");
    return o;
  }
  const std::string sizes = a.str("--sizes", r.check_only ? "1,127x129x65,1000x1500x700,4096" : "4096");
  for (const std::string& s : split(sizes, ','))
    if (!s.empty()) r.sizes.push_back(parse_size(s));
  if (r.sizes.empty()) throw CliError("--sizes is empty");
  return o;
}

// The registry's number ("9", "13b", "20a": gemmlab/stage_desc.h derives it), "-" for none.
std::string stage_number(const StageDesc& s) { return *s.number ? std::string(s.number) : "-"; }

// The dispatcher's picks, "17,19a,19b,19d" (gemmlab/launch_facts.h); "" for any other stage.
std::string per_shape(const StageDesc& s) {
  std::string out;
  for (const StageDesc* c : dispatch_choices(s)) out += (out.empty() ? "" : ",") + stage_number(*c);
  return out;
}

Json registry_json() {
  Json stages = Json::array();
  for (const StageDesc& s : stage_table()) {
    Json row = {{"id", s.id},
                {"number", stage_number(s)},
                {"name", s.name},
                {"track", track_name(s.track)},
                {"lesson", s.lesson},
                {"loads", load_name(s.loads)},
                {"coresident", coresidency_name(s.coresident)}};
    // The dispatcher has no tile or resources of its own: per shape it runs one of these stages.
    if (const auto picks = dispatch_choices(s); !picks.empty()) {
      row["per_shape"] = Json::array();
      for (const StageDesc* c : picks) row["per_shape"].push_back(c->id);
    } else {
      row["tile"] = {s.tile_m, s.tile_n, s.tile_k};
      row["threads"] = s.threads;
      row["regs"] = s.regs;
      row["smem"] = s.smem;
    }
    stages.push_back(row);
  }
  Json tracks = Json::array();
  for (const TrackDesc& t : kTrackTable)
    tracks.push_back({{"name", t.name},
                      {"reference", t.reference},
                      {"reference_name", find_reference(t.reference)->name},
                      {"required_sm", t.required_sm},
                      {"element_bytes", t.element_bytes},
                      {"rate_unit", t.rate_unit}});
  return {{"stages", stages}, {"tracks", tracks}};
}

void print_registry_table() {
  std::printf("%-6s %-18s %-30s %-11s %-22s %-13s %-7s %-5s %s\n", "number", "id", "name", "track", "lesson",
              "tile", "threads", "regs", "smem");
  for (const StageDesc& s : stage_table()) {
    const std::string name = s.name;
    if (const std::string picks = per_shape(s); !picks.empty()) {  // the dispatcher: per shape, a pick's
      std::printf("%-6s %-18s %-30s %-11s %-22s %-13s %-7s %-5s %s\n", stage_number(s).c_str(), s.id, name.c_str(),
                  track_name(s.track), s.lesson, ("per shape: " + picks).c_str(), "-", "-", "-");
      continue;
    }
    char tile[40];
    std::snprintf(tile, sizeof tile, "%dx%dx%d", s.tile_m, s.tile_n, s.tile_k);
    std::printf("%-6s %-18s %-30s %-11s %-22s %-13s %-7d %-5d %d\n", stage_number(s).c_str(), s.id, name.c_str(),
                track_name(s.track), s.lesson, tile, s.threads, s.regs, s.smem);
  }
  std::printf("\n%-11s %-20s %-34s %-6s %s\n", "track", "reference", "reference name", "GPU", "unit");
  for (const TrackDesc& t : kTrackTable)
    std::printf("%-11s %-20s %-34s %-6s %s\n", t.name, t.reference, find_reference(t.reference)->name,
                t.required_sm ? ("sm_" + std::to_string(t.required_sm)).c_str() : "any", t.rate_unit);
}

class Progress {
 public:
  Progress() : tty_(isatty(2)) {}
  void show(const SessionProgress& p) {
    if (p.current.empty()) {
      if (tty_) std::fprintf(stderr, "\r\033[K");
      return;
    }
    if (tty_) std::fprintf(stderr, "\r\033[K[%d/%d] %s", p.done + 1, p.total, p.current.c_str());
    else std::fprintf(stderr, "[%d/%d] %s\n", p.done + 1, p.total, p.current.c_str());
    std::fflush(stderr);
  }

 private:
  bool tty_;
};

// A launch that waits for the GPU (a synchronizing call inside it) cannot be held (stream_hold.h):
// its times then include the host's launch work, which the table should not pass off as GPU time.
void warn_unheld(const Row& r) {
  if (r.time.unheld > 0)
    std::fprintf(stderr, "gemmlab bench: %s %s: %d of %d timed runs waited for the GPU inside their launch; "
                         "their times include host work\n",
                 r.stage.c_str(), r.problem.text().c_str(), r.time.unheld, r.time.reps);
}

std::string percent_header(const std::vector<Row>& rows, size_t i) {
  for (const Row& r : rows)
    if (!r.is_reference && r.against.size() > i) return "% " + r.against[i].reference->name;
  return i == 0 ? "% ref" : "";
}

void print_failure(const CheckOutcome& c) {
  if (c.per_element)
    std::printf("FAILED (%lld outside the e4m3 tolerance on random data, worst %.3g x it; %lld outside 2^-8 |r| on "
                "+-1 data; %lld non-finite, %lld guard words changed)\n",
                c.outside, c.worst, c.outside_exact, c.nonfinite, c.guard_hits);
  else
    std::printf("FAILED (tolerance %.0e, %lld non-finite, %lld guard words changed)\n", c.tolerance, c.nonfinite,
                c.guard_hits);
}

void print_row_tail(const Row& r) {
  if (r.checked) std::printf("%10.2e ", r.check.rel_err);
  else std::printf("%10s ", "-");
  if (r.timed) std::printf("%6d ", r.time.reps);
  else std::printf("%6s ", "-");
  if (!r.rejected.empty()) std::printf("skipped: %s\n", r.rejected.c_str());
  else if (r.checked && !r.check.ok) print_failure(r.check);
  else if (r.is_reference) std::printf(r.checked ? "reference, ok\n" : "reference\n");
  else if (!r.checked) std::printf("-\n");
  else std::printf("ok\n");
}

// One table for GEMMs and convolutions: the first reference's % and, for convolutions, the second's.
void print_table(const std::vector<Row>& rows, bool conv) {
  const std::string ref0 = percent_header(rows, 0), ref1 = conv ? percent_header(rows, 1) : "";
  const bool layers = conv && std::any_of(rows.begin(), rows.end(), [](const Row& r) { return !r.problem.layer.empty(); });
  std::printf("%-18s %-26s ", "stage", conv ? "N,H,W,C,K,R,S,pad,stride" : "M x N x K");
  if (layers) std::printf("%-28s ", "layer");
  std::printf("%10s %9s %18s ", "ms", "TFLOP/s", ref0.c_str());
  if (conv) std::printf("%14s ", ref1.empty() ? "-" : ref1.c_str());
  else std::printf("%8s ", "x prev");
  std::printf("%10s %6s %s\n", "rel_err", "reps", "check");
  for (const Row& r : rows) {
    std::printf("%-18s %-26s ", r.stage.c_str(), r.problem.text().c_str());
    if (layers) std::printf("%-28s ", r.problem.layer.c_str());
    if (r.timed) std::printf("%10.4f %9.2f %17.1f%% ", r.time.ms, r.time.tflops, 100 * r.ratio());
    else std::printf("%10s %9s %18s ", "-", "-", "-");
    if (conv) {
      if (!r.is_reference && r.timed && r.against.size() > 1 && r.against[1].ms > 0)
        std::printf("%13.1f%% ", 100 * r.against[1].ms / r.time.ms);
      else std::printf("%14s ", "-");
    } else if (r.previous_ms > 0) {
      // The speed-up over the stage before, timed in the same turns: its time over this one's.
      std::printf("%7.3fx ", r.previous_ms / r.time.ms);
    } else {
      std::printf("%8s ", "-");
    }
    print_row_tail(r);
  }
}

void write_json(const std::string& path, const BenchResults& results) {
  if (const std::string problem = write_text_file(path, bench_results_json(results)); !problem.empty())
    throw CliError(problem);
  std::fprintf(stderr, "gemmlab bench: wrote %s\n", path.c_str());
}

int run(const Options& o, const BackendFactory& make_backend) {
  std::unique_ptr<Backend> backend = make_backend(o.time);
  const BenchDevice dev = backend->device();
  std::fprintf(stderr, "gemmlab bench: %s, %d SMs, L2 %lld MiB, %d MHz, driver %s, CUDA %s\n", dev.name.c_str(), dev.sms,
               dev.l2_bytes >> 20, dev.clock_mhz, dev.driver.c_str(), dev.cuda.c_str());
  BenchSession session(*backend, o.request);
  Progress progress;
  session.run([&](const SessionProgress& p) { progress.show(p); });
  for (const Row& r : session.rows()) warn_unheld(r);
  print_table(session.rows(), !o.request.convs.empty());
  if (!o.json_path.empty()) write_json(o.json_path, to_results(session.rows(), dev, utc_now(), o.json_path));
  if (!session.all_checks_passed()) {
    std::fprintf(stderr, "gemmlab bench: a correctness check FAILED (see the table)\n");
    return 1;
  }
  return 0;
}

}  // namespace

int bench_command(int argc, char** argv, int first, const BackendFactory& make_backend) {
  try {
    const Options o = parse(argc, argv, first);
    if (o.list) {
      if (o.list_json) std::cout << registry_json().dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
      else print_registry_table();
      return 0;
    }
    if (o.help) {
      std::cout << help_text();
      return 0;
    }
    return run(o, make_backend);
  } catch (const CliError& e) {
    std::cerr << "gemmlab bench: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "gemmlab bench: out of host memory\n";
    return 2;
  } catch (const std::runtime_error& e) {  // no GPU, a CUDA error
    std::cerr << "gemmlab bench: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace gemmlab::bench
