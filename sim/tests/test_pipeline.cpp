// Pipeline traces against the loop structure they come from (CUTLASS MmaPipelined, the CuTe GEMM tutorial's
// kStage cp.async loop, the hand-written mma_base HGEMM): event counts, which stage each tile lives in, and
// the hazards a correct pipeline never has (reading a stage before it landed, overwriting a
// stage still being read).
#include <gtest/gtest.h>

#include "gemmlab/pipeline_trace.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

PipelineTrace trace(const std::string& kind, int n, int w = 0) {
  auto parsed = parse_pipeline_kind(kind);
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  PipelineSpec s = *parsed;
  s.k_iterations = n;
  s.warp_k_steps = w;
  auto t = trace_pipeline(s);
  EXPECT_TRUE(t.ok()) << t.error();
  return *t;
}

int count(const PipelineTrace& t, TraceEventKind k) {
  int n = 0;
  for (const auto& e : t.events) n += e.kind == k;
  return n;
}

// The hazards, for a trace whose shared stores name a stage and a tile:
//  - every LDS of tile t (real data) starts after tile t's data landed in its stage and a barrier
//    followed that landing;
//  - no write into a stage happens while an earlier tile in that stage still has LDS to come.
void expect_no_hazards(const PipelineTrace& t) {
  const int n = t.spec.k_iterations;
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TraceEvent& e = t.events[i];
    if (e.kind != TraceEventKind::LoadShared || e.k_tile < 0 || e.predicated_off) continue;
    // Find the write of this tile and a barrier after it, both before the LDS.
    int write = -1, barrier = -1;
    for (size_t j = 0; j < i; ++j) {
      const TraceEvent& w = t.events[j];
      if (w.smem_write >= 0 && w.k_tile == e.k_tile) write = static_cast<int>(j);
      if (write >= 0 && w.kind == TraceEventKind::Barrier && static_cast<int>(j) > write) barrier = static_cast<int>(j);
    }
    ASSERT_GE(write, 0) << e.label;
    ASSERT_GE(barrier, 0) << e.label << ": no barrier between the write and the read";
    EXPECT_EQ(t.events[static_cast<size_t>(write)].smem_write, e.smem_read) << e.label;
    EXPECT_GE(e.start, t.events[static_cast<size_t>(write)].end) << e.label << ": read before the data landed";
  }
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TraceEvent& w = t.events[i];
    if (w.smem_write < 0 || w.k_tile < 0 || w.k_tile >= n) continue;
    for (size_t j = i + 1; j < t.events.size(); ++j) {
      const TraceEvent& r = t.events[j];
      if (r.kind == TraceEventKind::LoadShared && r.smem_read == w.smem_write && r.k_tile >= 0 &&
          r.k_tile < w.k_tile && !r.predicated_off)
        ADD_FAILURE() << w.label << " overwrites a stage that " << r.label << " still reads";
    }
  }
}

}  // namespace

// MmaPipelined, N = 3, kWarpGemmIterations = 4: prologue LDG/STS/barrier/LDS, then per
// iteration one LDG (at warp_mma_k 0), one STS + barrier (at warp_mma_k 3), 4 LDS, 4 MMA.
TEST(Pipeline, MmaPipelinedStructure) {
  const PipelineTrace t = trace("pipelined2", 3, 4);
  EXPECT_EQ(count(t, TraceEventKind::LoadGlobal), 4);
  EXPECT_EQ(count(t, TraceEventKind::StoreShared), 4);
  EXPECT_EQ(count(t, TraceEventKind::Barrier), 4);
  EXPECT_EQ(count(t, TraceEventKind::LoadShared), 13);
  EXPECT_EQ(count(t, TraceEventKind::Math), 12);
  std::vector<int> sts_stage;
  for (const auto& e : t.events) {
    if (e.kind == TraceEventKind::StoreShared) sts_stage.push_back(e.smem_write);
    if (e.kind == TraceEventKind::LoadGlobal) {
      EXPECT_EQ(e.predicated_off, e.k_tile >= 3) << e.label;
    }
    if (e.kind == TraceEventKind::LoadShared) {
      EXPECT_EQ(e.smem_read, e.k_tile % 2) << e.label;
    }
    if (e.kind == TraceEventKind::Math) {
      EXPECT_EQ(e.reg_buffer, e.k_group % 2) << e.label;
    }
  }
  EXPECT_EQ(sts_stage, (std::vector<int>{0, 1, 0, 1}));
  expect_no_hazards(t);
}

// Each MMA uses the fragment the LDS of the same k group loaded (double-buffered registers).
TEST(Pipeline, MmaPipelinedFragmentsComeFromTheRightLoad) {
  const PipelineTrace t = trace("pipelined2", 2, 8);
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TraceEvent& m = t.events[i];
    if (m.kind != TraceEventKind::Math) continue;
    int last = -1;
    for (size_t j = 0; j < i; ++j)
      if (t.events[j].kind == TraceEventKind::LoadShared && t.events[j].reg_buffer == m.reg_buffer) last = static_cast<int>(j);
    ASSERT_GE(last, 0);
    EXPECT_EQ(t.events[static_cast<size_t>(last)].k_tile, m.k_tile) << m.label;
    EXPECT_EQ(t.events[static_cast<size_t>(last)].k_group, m.k_group) << m.label;
    EXPECT_GE(m.start, t.events[static_cast<size_t>(last)].end);
  }
}

// Seed 001's loop with kStage = 3, 5 tiles, 2 k groups: K-1 = 2 tiles in the prologue, then one
// cp.async per tile while tiles remain; commit every tile; wait_group 1 before each stage switch.
TEST(Pipeline, MultistageStructure) {
  const PipelineTrace t = trace("multistage:3", 5, 2);
  EXPECT_EQ(count(t, TraceEventKind::LoadGlobal), 5);
  EXPECT_EQ(count(t, TraceEventKind::Commit), 2 + 5);
  EXPECT_EQ(count(t, TraceEventKind::Wait), 1 + 5);
  EXPECT_EQ(count(t, TraceEventKind::Math), 10);
  for (const auto& e : t.events) {
    if (e.kind == TraceEventKind::LoadGlobal) {
      EXPECT_TRUE(e.async);
      EXPECT_EQ(e.smem_write, e.k_tile % 3) << e.label;
    }
    if (e.kind == TraceEventKind::LoadShared) {
      EXPECT_EQ(e.smem_read, e.k_tile % 3) << e.label;
    }
    if (e.kind == TraceEventKind::Wait) {
      EXPECT_EQ(e.wait_pending, 1);
    }
  }
  expect_no_hazards(t);
  for (int k : {2, 4, 8}) expect_no_hazards(trace("multistage:" + std::to_string(k), 9, 4));
}

// More stages keep more loads in flight: with a long global latency the math waits less.
TEST(Pipeline, MoreStagesHideMoreLatency) {
  auto s = *parse_pipeline_kind("multistage:2");
  s.k_iterations = 16;
  s.global_latency = 20;
  const double t2 = trace_pipeline(s)->total_time;
  s = *parse_pipeline_kind("multistage:4");
  s.k_iterations = 16;
  s.global_latency = 20;
  const double t4 = trace_pipeline(s)->total_time;
  EXPECT_LT(t4, t2);
}

// Seed 004: per 32-wide k tile: cp.async, commit, wait_group 0, barrier, 2 x (ldmatrix, mma),
// barrier; then R2S, barrier, LDS + STG. One stage; loads never overlap math.
TEST(Pipeline, MmaBaseStructure) {
  const PipelineTrace t = trace("mma-base", 3);
  EXPECT_EQ(t.spec.warp_k_steps, 2);
  EXPECT_EQ(t.events.size(), 3u * 9 + 4);
  for (const auto& e : t.events) {
    if (e.smem_read >= 0) {
      EXPECT_EQ(e.smem_read, 0);
    }
    if (e.smem_write >= 0) {
      EXPECT_EQ(e.smem_write, 0);
    }
  }
  EXPECT_EQ(t.events.back().kind, TraceEventKind::StoreGlobal);
  // Each tile's load starts only after the previous tile's math finished.
  double last_math_end = 0;
  for (const auto& e : t.events) {
    if (e.kind == TraceEventKind::LoadGlobal) {
      EXPECT_GE(e.start, last_math_end);
    }
    if (e.kind == TraceEventKind::Math) last_math_end = e.end;
  }
  expect_no_hazards(t);
}

TEST(Pipeline, InvalidInputs) {
  for (const char* bad : {"multistage:1", "multistage:9", "multistage:x", "pipelined3", ""})
    EXPECT_FALSE(parse_pipeline_kind(bad).ok()) << bad;
  PipelineSpec s;
  s.k_iterations = 0;
  EXPECT_FALSE(trace_pipeline(s).ok());
  s.k_iterations = kMaxTraceKIterations + 1;
  EXPECT_FALSE(trace_pipeline(s).ok());
  s.k_iterations = 4;
  s.warp_k_steps = 1;
  EXPECT_FALSE(trace_pipeline(s).ok());  // pipelined2 double-buffers fragments
  s.warp_k_steps = 4;
  s.math_cost = 0;
  EXPECT_FALSE(trace_pipeline(s).ok());
}

TEST(Pipeline, Cli) {
  auto r = test::run_gemmlab({"sim", "pipeline", "--kind", "multistage:3", "--k-iterations", "5", "--warp-k-steps", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["stages"], 3);
  int cp_async = 0;
  for (const auto& e : out["events"]) cp_async += e["kind"] == "load-global";
  EXPECT_EQ(cp_async, 5);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"sim", "pipeline", "--kind", "multistage:3"},
           {"sim", "pipeline", "--kind", "ring", "--k-iterations", "2"},
           {"sim", "pipeline", "--kind", "mma-base", "--k-iterations", "-1"},
           {"sim", "pipeline", "--kind", "mma-base", "--k-iterations", "2", "--global-latency", "nan"}}) {
    auto e = test::run_gemmlab(args);
    EXPECT_EQ(e.exit_code, 2) << args[3];
    EXPECT_FALSE(e.err.empty());
  }
}
