// The bench session with a fake GPU: `gemmlab bench` (bench_command) and the app's Run (KernelRun)
// run the same session, so for the same stages and sizes they give the same rows; the session's
// order of work, its ratios, the stage before, skips, progress and cancel, as the fake saw them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "bench/bench_command.h"
#include "gemmlab/resnet50_layers.h"
#include "model/kernel_run.h"
#include "model/results_file.h"

namespace gemmlab::app {
namespace {

using bench::Backend;
using bench::CheckOutcome;
using bench::Problem;
using bench::Reference;
using bench::Target;
using bench::Timing;

// A GPU whose every time is a function of what runs and the problem, so two sessions that ask
// for the same work get the same numbers: ms = (1 + index in the registry) * M*N*K / 1e9, a
// reference 0.5 * M*N*K / 1e9. It refuses N > 5000 for `naive`, and `sliced-k` fails its check.
// Its FP8 reference (the fp8 track's, like cuBLASLt) checks itself: it refuses N > 5000 and fails
// its check at M = 7.
class FakeGpu final : public Backend {
 public:
  explicit FakeGpu(std::vector<std::string>* log = nullptr) : log_(log) {}
  bench::BenchDevice device() override { return {"Fake GPU", "1.0", "13.0", 4, 1000, 1 << 20}; }
  std::vector<const Reference*> references_for(StageTrack t) const override {
    if (is_conv(t)) return {&refs_[2]};
    if (is_fp8(t)) return {&refs_[3]};
    return {operand_track(t) == StageTrack::fp32 ? &refs_[0] : &refs_[1]};
  }
  const Reference* find_reference(std::string_view id) const override {
    for (const Reference& r : refs_)
      if (r.id == id) return &r;
    return nullptr;
  }
  std::string validate(const Target& t, const Problem& p) override {
    if (t.stage && std::string_view(t.stage->id) == "naive" && p.gemm.n > 5000) return "naive: N must be at most 5000";
    return "";
  }
  CheckOutcome check(const StageDesc& s, const Problem& p) override {
    note("check " + std::string(s.id) + " " + p.text());
    const bool bad = std::string_view(s.id) == "sliced-k";
    return {"", bad ? 0.5 : 1e-7, 1e-5, bad ? 3 : 0, 0, !bad};
  }
  std::optional<CheckOutcome> check_reference(const Reference& r, const Problem& p) override {
    if (&r != &refs_[3]) return std::nullopt;
    note("check " + r.id + " " + p.text());
    if (p.gemm.n > 5000) return CheckOutcome{"FakeLt refuses N > 5000 (status 15)"};
    const bool bad = p.gemm.m == 7;
    CheckOutcome c{"", 1e-3, 7.8e-3, 0, 0, !bad};
    c.per_element = true, c.outside = bad ? 12 : 0, c.worst = bad ? 3.5 : 0.25;
    return c;
  }
  std::vector<Timing> time_in_turns(const std::vector<Target>& targets, const Problem& p) override {
    std::string line = "time " + p.text();
    std::vector<Timing> out;
    for (const Target& t : targets) {
      line += " " + t.id();
      const double ms = ms_of(t, p);
      out.push_back({"", ms, p.flops() / (ms * 1e-3) / 1e12, 20, 0});
    }
    note(line);
    return out;
  }
  static double ms_of(const Target& t, const Problem& p) {
    const double size = double(p.gemm.m) * p.gemm.n * p.gemm.k / 1e9;
    return t.stage ? (1 + stage_index(t.stage->id)) * size : 0.5 * size;
  }

 private:
  void note(const std::string& s) {
    if (log_) log_->push_back(s);
  }
  const Reference refs_[4] = {{"fake-blas-32", "FakeBLAS", StageTrack::fp32},
                              {"fake-blas-16", "FakeBLAS", StageTrack::fp16},
                              {"fake-im2col", "fake im2col", StageTrack::conv_fp16},
                              {"fake-lt-8", "FakeLt FP8", StageTrack::fp8}};
  std::vector<std::string>* log_;
};

bench::BackendFactory fake_factory(std::vector<std::string>* log = nullptr) {
  return [log](const bench::TimeSettings&) -> std::unique_ptr<Backend> { return std::make_unique<FakeGpu>(log); };
}

struct Captured {
  int code = 0;
  std::string out, err;
};

Captured bench_cli(const std::vector<std::string>& args, const bench::BackendFactory& f) {
  std::vector<std::string> all = {"gemmlab", "bench"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Captured c;
  c.code = bench::bench_command(int(all.size()), argv.data(), 2, f);
  c.out = testing::internal::GetCapturedStdout();
  c.err = testing::internal::GetCapturedStderr();
  return c;
}

KernelRunSnapshot run_app(const std::vector<std::string>& stages, bench::GemmSize size,
                          const bench::BackendFactory& f) {
  auto run = start_kernel_run(stages, size, f);
  for (int i = 0; i < 2000 && !run->snapshot().finished; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return run->snapshot();
}

// One line per row with every field the results JSON carries.
std::string describe(const BenchResult& r) {
  std::ostringstream s;
  s << r.stage << " " << r.track << " " << r.m << "x" << r.n << "x" << r.k << " ms " << r.ms << " tflops " << r.tflops
    << " ref " << r.reference << " (" << r.reference_name << ") " << r.reference_ms << " ratio " << r.ratio
    << " cublas_ms " << r.cublas_ms << " prev " << r.previous_stage << " " << r.previous_ms << " err " << r.rel_err
    << " ok " << r.ok << " reps " << r.reps;
  return s.str();
}

const std::string kTmp = testing::TempDir();

TEST(BenchSession, BenchAndTheAppGiveTheSameRows) {
  const std::vector<std::string> stages = {"naive-uncoalesced", "naive", "sliced-k", "mma-sync", "ldmatrix"};
  const std::string json = kTmp + "/bench_rows.json";
  const Captured cli = bench_cli({"--stages", "naive-uncoalesced,naive,sliced-k,mma-sync,ldmatrix", "--sizes",
                                  "512,1000x6000x700", "--json", json}, fake_factory());
  EXPECT_EQ(cli.code, 1) << cli.err;  // sliced-k's check fails
  std::ifstream f(json);
  std::stringstream text;
  text << f.rdbuf();
  auto from_cli = parse_bench_results(text.str(), json);
  ASSERT_TRUE(from_cli.ok()) << from_cli.error();

  std::vector<std::string> app_rows;
  for (bench::GemmSize size : {bench::GemmSize{512, 512, 512}, bench::GemmSize{1000, 6000, 700}}) {
    const KernelRunSnapshot s = run_app(stages, size, fake_factory());
    ASSERT_TRUE(s.finished);
    EXPECT_EQ(s.error, "");
    EXPECT_EQ(s.done, s.total);
    EXPECT_EQ(s.total, 2 + 5);  // two references (fp32, fp16), five stages
    for (const BenchResult& r : s.results.results) app_rows.push_back(describe(r));
  }
  std::vector<std::string> cli_rows;
  for (const BenchResult& r : from_cli->results) cli_rows.push_back(describe(r));
  // The app runs one size at a time: its skipped rows follow each run's results.
  std::vector<std::string> cli_skipped;
  for (const BenchSkipped& s : from_cli->skipped) cli_skipped.push_back(s.stage + " " + s.size_key + ": " + s.reason);
  EXPECT_EQ(cli_rows, app_rows);
  ASSERT_EQ(cli_skipped.size(), 1u);
  EXPECT_EQ(cli_skipped[0], "naive 1000 x 6000 x 700: naive: N must be at most 5000");
  EXPECT_EQ(cli_rows.size(), 2u * 2 + 5 + 4);  // references of both tracks at both sizes, naive skipped once
}

// What the rows say, from the fake's formula: the reference first, the ratio its time over the
// stage's, the stage before where it ran, a failed check kept with its error.
TEST(BenchSession, RowsCarryTheirReferenceAndTheStageBefore) {
  std::vector<std::string> log;
  const KernelRunSnapshot s = run_app({"naive-uncoalesced", "naive", "sliced-k", "simt-tile"}, {512, 512, 512},
                                      fake_factory(&log));
  ASSERT_EQ(s.results.results.size(), 5u);
  const BenchResult& ref = s.results.results[0];
  EXPECT_EQ(ref.stage, "fake-blas-32");
  EXPECT_TRUE(ref.is_reference());
  EXPECT_EQ(ref.ratio, 1.0);
  EXPECT_DOUBLE_EQ(ref.ms, 0.5 * 0.134217728);
  const BenchResult& naive = s.results.results[2];
  EXPECT_EQ(naive.stage, "naive");
  EXPECT_EQ(naive.reference, "fake-blas-32");
  EXPECT_EQ(naive.reference_name, "FakeBLAS");
  const double size = 512.0 * 512 * 512 / 1e9;
  EXPECT_DOUBLE_EQ(naive.ms, (1 + stage_index("naive")) * size);
  EXPECT_DOUBLE_EQ(naive.ratio, 0.5 * size / naive.ms);
  EXPECT_DOUBLE_EQ(naive.ratio_to_cublas, naive.ratio);
  EXPECT_EQ(naive.previous_stage, "naive-uncoalesced");
  EXPECT_DOUBLE_EQ(naive.previous_ms, (1 + stage_index("naive-uncoalesced")) * size);
  const BenchResult& sliced = s.results.results[3];
  EXPECT_FALSE(sliced.ok);
  EXPECT_EQ(sliced.rel_err, 0.5);
  // simt-tile follows sliced-k, whose check failed: it is not timed beside it.
  EXPECT_EQ(s.results.results[4].previous_stage, "");
  // The order of work: the reference alone, then each stage checked, then timed in turns.
  ASSERT_GE(log.size(), 4u);
  EXPECT_EQ(log[0], "time 512x512x512 fake-blas-32");
  EXPECT_EQ(log[1], "check naive-uncoalesced 512x512x512");
  EXPECT_EQ(log[2], "time 512x512x512 naive-uncoalesced fake-blas-32");
  EXPECT_EQ(log[4], "time 512x512x512 naive fake-blas-32 naive-uncoalesced");
}

TEST(BenchSession, UnknownIdsAndConvolutionsAreSkippedWithTheirReason) {
  const KernelRunSnapshot s = run_app({"no-such-stage", "conv-fp16", "fake-im2col", "naive"}, {64, 64, 64}, fake_factory());
  ASSERT_EQ(s.results.skipped.size(), 3u);
  EXPECT_NE(s.results.skipped[0].reason.find("unknown stage id 'no-such-stage'"), std::string::npos);
  EXPECT_NE(s.results.skipped[1].reason.find("gemmlab bench --conv"), std::string::npos) << s.results.skipped[1].reason;
  EXPECT_NE(s.results.skipped[2].reason.find("convolution reference"), std::string::npos) << s.results.skipped[2].reason;
  ASSERT_EQ(s.results.results.size(), 2u);  // the fp32 reference and naive
}

TEST(BenchSession, ProgressCountsEveryStepAndCancelStopsBeforeTheNext) {
  FakeGpu gpu;
  bench::BenchSession session(gpu, {{"naive", "simt-tile", "mma-sync"}, {{256, 256, 256}, {512, 512, 512}}, {}, false});
  EXPECT_EQ(session.total_steps(), 2 * (2 + 3));
  std::atomic<bool> cancel{false};
  std::vector<int> seen;
  session.run(
      [&](const bench::SessionProgress& p) {
        seen.push_back(p.done);
        EXPECT_EQ(p.total, 10);
        if (p.done == 3) cancel = true;
      },
      &cancel);
  // The step announced at done == 3 (simt-tile) still runs; mma-sync and the second size do not.
  EXPECT_EQ(session.rows().size(), 4u);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(BenchSession, RunWithoutAGpuSaysWhy) {
  bench::BackendFactory none = [](const bench::TimeSettings&) -> std::unique_ptr<Backend> {
    throw std::runtime_error("no CUDA GPU: no driver");
  };
  const KernelRunSnapshot s = run_app({"naive"}, {64, 64, 64}, none);
  EXPECT_EQ(s.error, "no CUDA GPU: no driver");
  const Captured c = bench_cli({"--stages", "naive"}, none);
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("gemmlab bench: no CUDA GPU: no driver"), std::string::npos) << c.err;
}

// `gemmlab bench --help`: every option with its meaning and default; --list: every stage with its
// lesson number (COORDINATION's numbering: 2a naive-uncoalesced, 9 smem-swizzle, 13b stream-k).
TEST(BenchCli, HelpListsEveryOptionWithItsDefault) {
  const Captured h = bench_cli({"--help"}, fake_factory());
  EXPECT_EQ(h.code, 0);
  std::string help;  // one space for every run of spaces and line breaks (the text wraps)
  for (char c : h.out)
    if (c != ' ' && c != '\n') help += c;
    else if (!help.empty() && help.back() != ' ') help += ' ';
  for (const char* want : {"--stages LIST comma-separated stage ids", "(default: all: the GEMM stages",
                           "--sizes LIST comma-separated N", "(default: 4096; with --check",
                           "--conv SHAPE a convolution instead of GEMMs", "(may be repeated)",
                           "--json [FILE] write the results JSON", "--warmup N warm-up runs per entry (1..1048576) (default: 3)",
                           "--reps N timed runs per entry", "(default: 20, 10 from 8192^3 up)",
                           "--budget S seconds of timed runs per entry (1..1048576) (default: 4)",
                           "--per-turn N", "(default: 2)", "--check correctness only", "--list print the stage registry"})
    EXPECT_NE(help.find(want), std::string::npos) << want << "\n" << h.out;
  const Captured l = bench_cli({"--list"}, fake_factory());
  EXPECT_EQ(l.code, 0);
  for (const char* want : {"\n2a     naive-uncoalesced", "\n2b     naive ", "\n9      smem-swizzle", "\n13b    stream-k",
                           "\n20a    fp8-tensor         20a FP8 per-tensor scales      fp8 "})
    EXPECT_NE(l.out.find(want), std::string::npos) << want << "\n" << l.out;
  // ... and every track with its reference row, GPU and unit.
  for (const char* want : {"\nfp8         cublaslt-fp8         cuBLASLt FP8 (per-tensor scales)   sm_90  TFLOP/s",
                           "\nfp8-block   cublaslt-fp8-block   cuBLASLt FP8 (block scales)        sm_90  TFLOP/s",
                           "\nfp16        cublas-fp16          cuBLAS fp16 (GemmEx)               any    TFLOP/s"})
    EXPECT_NE(l.out.find(want), std::string::npos) << want << "\n" << l.out;
  const Captured j = bench_cli({"--list", "--json"}, fake_factory());
  EXPECT_EQ(j.code, 0);
  const nlohmann::json list = nlohmann::json::parse(j.out);
  bool fp8_track = false, fp8_stage = false;
  for (const auto& t : list["tracks"])
    fp8_track |= t["name"] == "fp8" && t["reference"] == "cublaslt-fp8" && t["required_sm"] == 90 && t["element_bytes"] == 1;
  for (const auto& st : list["stages"]) fp8_stage |= st["id"] == "fp8-tensor" && st["number"] == "20a" && st["track"] == "fp8";
  EXPECT_TRUE(fp8_track) << j.out;
  EXPECT_TRUE(fp8_stage) << j.out;
  // The dispatcher lists the stages it runs per shape, not a tile and threads of its own.
  EXPECT_NE(l.out.find("\n19c    auto               19c dispatcher                 hopper      19-persistent          "
                       "per shape: 17,19a,19b,19d,19e,19f - "),
            std::string::npos)
      << l.out;
  for (const auto& st : list["stages"])
    if (st["id"] == "auto") {
      EXPECT_EQ(st["per_shape"], nlohmann::json::array({"warp-specialized", "persistent", "wgmma-split-k", "wgmma-split-k-128",
                                                           "wgmma-deep", "wgmma-deep-128"}));
      EXPECT_FALSE(st.contains("tile"));
    }
}

// FP8: `--stages fp8` selects the track's stages; its reference row checks itself before it is
// timed, and the stage's row carries that reference and its ratio.
TEST(BenchSession, Fp8RowsCarryTheirCheckedReference) {
  std::vector<std::string> log;
  const KernelRunSnapshot s = run_app({"fp8-tensor"}, {512, 512, 512}, fake_factory(&log));
  ASSERT_EQ(s.error, "");
  ASSERT_EQ(s.results.results.size(), 2u);
  const BenchResult& ref = s.results.results[0];
  EXPECT_EQ(ref.stage, "fake-lt-8");
  EXPECT_EQ(ref.track, "fp8");
  EXPECT_TRUE(ref.is_reference());
  EXPECT_TRUE(ref.ok);
  EXPECT_EQ(ref.rel_err, 1e-3);  // its own check's
  const BenchResult& stage = s.results.results[1];
  EXPECT_EQ(stage.stage, "fp8-tensor");
  EXPECT_EQ(stage.reference, "fake-lt-8");
  EXPECT_EQ(stage.reference_name, "FakeLt FP8");
  const double size = 512.0 * 512 * 512 / 1e9;
  EXPECT_DOUBLE_EQ(stage.ratio_to_cublas, 0.5 * size / ((1 + stage_index("fp8-tensor")) * size));
  EXPECT_EQ(log, (std::vector<std::string>{"check fake-lt-8 512x512x512", "time 512x512x512 fake-lt-8",
                                           "check fp8-tensor 512x512x512", "time 512x512x512 fp8-tensor fake-lt-8"}));
  // The same through the CLI: the track's name selects its stages.
  const Captured cli = bench_cli({"--stages", "fp8", "--sizes", "512"}, fake_factory());
  EXPECT_EQ(cli.code, 0) << cli.err;
  EXPECT_NE(cli.out.find("% FakeLt FP8"), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find("reference, ok"), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find("\nfp8-tensor         512x512x512"), std::string::npos) << cli.out;
}

// Where the FP8 reference refuses a size, the stage (checked against its own exact reference) is
// still checked and timed, alone: no ratio, the reference's refusal in the skipped rows.
TEST(BenchSession, AnFp8ReferenceRefusalLeavesTheStageTimedAlone) {
  std::vector<std::string> log;
  const KernelRunSnapshot s = run_app({"fp8-tensor"}, {512, 6000, 512}, fake_factory(&log));
  ASSERT_EQ(s.results.results.size(), 1u);
  EXPECT_EQ(s.results.results[0].stage, "fp8-tensor");
  EXPECT_EQ(s.results.results[0].ratio_to_cublas, 0.0);
  EXPECT_EQ(s.results.results[0].reference, "fake-lt-8");
  ASSERT_EQ(s.results.skipped.size(), 1u);
  EXPECT_EQ(s.results.skipped[0].stage, "fake-lt-8");
  EXPECT_EQ(s.results.skipped[0].reason, "FakeLt refuses N > 5000 (status 15)");
  EXPECT_EQ(log.back(), "time 512x6000x512 fp8-tensor");
}

// A reference that fails its own check fails the bench (exit 1), in the table as FAILED with the
// per-element counts; --check shows the reference's check too.
TEST(BenchCli, AnFp8ReferenceThatFailsItsCheckFailsTheBench) {
  const Captured c = bench_cli({"--stages", "fp8-tensor", "--sizes", "7x64x64", "--check"}, fake_factory());
  EXPECT_EQ(c.code, 1) << c.err;
  EXPECT_NE(c.out.find("FAILED (12 outside the e4m3 tolerance on random data, worst 3.5 x it"), std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("fake-lt-8"), std::string::npos) << c.out;
  const Captured ok = bench_cli({"--stages", "fp8", "--sizes", "64", "--check"}, fake_factory());
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("reference, ok"), std::string::npos) << ok.out;
}

// An fp8 row goes through the results JSON and back (the Kernels view loads such files).
TEST(BenchSession, Fp8RowsSurviveTheResultsJson) {
  const KernelRunSnapshot s = run_app({"fp8-tensor"}, {512, 512, 512}, fake_factory());
  auto back = parse_bench_results(bench_results_json(s.results), "fp8.json");
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back->results.size(), 2u);
  EXPECT_EQ(describe(back->results[1]), describe(s.results.results[1]));
  EXPECT_EQ(back->results[1].track, "fp8");
}

// The results JSON goes through the one file writer: a folder that is not there is a message and
// exit 2, and nothing is left beside the target.
TEST(BenchCli, AResultsFileThatCannotBeWrittenSaysWhere) {
  const std::string json = kTmp + "/no_such_folder/bench.json";
  const Captured r = bench_cli({"--stages", "naive", "--sizes", "512", "--json", json}, fake_factory());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write " + json), std::string::npos) << r.err;
}

TEST(BenchCli, BadArgumentsSayWhatIsWrong) {
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {{"--warmup", "0x10"}, "--warmup: '0x10' is not an integer"},
           {{"--warmup", "0"}, "--warmup must be 1..1048576 (got 0)"},
           {{"--reps", "3", "--reps", "4"}, "option --reps is given twice"},
           {{"--reps"}, "option --reps needs a value"},
           {{"--frobnicate"}, "unknown option '--frobnicate'"},
           {{"--sizes", "12x"}, "size '12x' must be N or MxNxK"},
           {{"--stages", "nope"}, "unknown stage 'nope'"},
           {{"--stages", "conv-fp16"}, "is a convolution: give it --conv"},
           {{"--conv", "1,8,8,8,8,3"}, "must be N,H,W,C,K,R,S"},
           {{"--conv", "1,8,8,8,8,3,3", "--sizes", "64"}, "--sizes is for GEMMs"},
           {{"--list", "--json", "x.json"}, "--list --json prints to stdout and takes no file"},
       }) {
    const Captured r = bench_cli(c.args, fake_factory());
    EXPECT_EQ(r.code, 2) << c.says;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
  // --conv may repeat: two convolutions, each with its reference row.
  const Captured two = bench_cli({"--stages", "conv-fp16", "--conv", "1,8,8,8,8,3,3", "--conv", "1,8,8,16,8,1,1"},
                                 fake_factory());
  EXPECT_EQ(two.code, 0) << two.err;
  EXPECT_NE(two.out.find("1,8,8,16,8,1,1,0,1"), std::string::npos) << two.out;
}

// --conv resnet50: the network's 23 distinct layers (gemmlab/resnet50_layers.h), each named in the
// table and in its results rows beside its shape; the stem (C = 3) and a strided 3x3 among them.
TEST(BenchCli, Resnet50RunsEveryDistinctLayerNamedInTableAndJson) {
  std::vector<std::string> log;
  const std::string json = kTmp + "/resnet50_layers.json";
  const Captured r = bench_cli({"--stages", "conv-fp16", "--conv", "resnet50", "--json", json}, fake_factory(&log));
  ASSERT_EQ(r.code, 0) << r.err;
  int checks = 0;
  for (const std::string& l : log) checks += l.rfind("check conv-fp16 ", 0) == 0;
  EXPECT_EQ(checks, int(std::size(conv::kResNet50Layers)));
  EXPECT_EQ(checks, 23);
  EXPECT_NE(r.out.find("32,224,224,3,64,7,7,3,2 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("conv1 7x7/2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("32,56,56,128,128,3,3,1,2 "), std::string::npos) << r.out;
  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  const auto parsed = bench::parse_bench_results(text.str(), json);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  std::map<std::string, std::string> layer_of;  // "stage conv shape" -> layer
  for (const BenchResult& b : parsed->results) {
    EXPECT_FALSE(b.layer.empty()) << b.stage << " " << b.size_key();
    layer_of[b.stage + " " + b.size_key()] = b.layer;
  }
  EXPECT_EQ(layer_of["conv-fp16 conv 32,56,56,128,128,3,3 pad 1 stride 2"], "conv3_x 3x3/2");
  EXPECT_EQ(layer_of["conv-fp16 conv 32,28,28,128,128,3,3 pad 1 stride 1"], "conv3_x 3x3");
  EXPECT_EQ(layer_of["fake-im2col conv 32,224,224,3,64,7,7 pad 3 stride 2"], "conv1 7x7/2");
  EXPECT_EQ(layer_of.size(), 2u * 23);  // a reference row and a stage row per layer
  // A shape given by hand has no layer name, and its rows no "layer".
  const std::string plain = kTmp + "/plain_conv.json";
  ASSERT_EQ(bench_cli({"--stages", "conv-fp16", "--conv", "1,8,8,8,8,3,3", "--json", plain}, fake_factory()).code, 0);
  std::ifstream in2(plain);
  std::stringstream text2;
  text2 << in2.rdbuf();
  EXPECT_EQ(text2.str().find("\"layer\""), std::string::npos) << text2.str();
}

}  // namespace
}  // namespace gemmlab::app
