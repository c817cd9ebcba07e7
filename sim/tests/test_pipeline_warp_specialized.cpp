// The Hopper mbarrier pipeline (sim/src/pipeline_warp_specialized.cpp) against the protocol of
// kernels/stages/hopper/hopper_pipeline.cuh: parities, who waits for what, no stage
// overwritten before every reader gave it back, and the times the relative model gives.
#include <gtest/gtest.h>

#include <map>

#include "gemmlab/pipeline_counts.h"
#include "gemmlab/pipeline_trace.h"
#include "support.h"

using namespace gemmlab;

namespace {

PipelineTrace trace(const std::string& kind, int k, int tiles = 0) {
  auto s = parse_pipeline_kind(kind);
  if (!s) throw std::runtime_error(s.error());
  s.value().k_iterations = k;
  if (tiles) s.value().tiles = tiles;
  auto t = trace_pipeline(*s);
  if (!t) throw std::runtime_error(t.error());
  return *t;
}

}  // namespace

// Every k-tile: the producer's wait on empty[s] (from the second round) uses parity
// (it / S - 1) & 1 and ends after every reader of k-tile it - S arrived; each consumer's wait on
// full[s] uses parity (it / S) & 1 and ends when the TMA's bytes are in; its wgmma starts after.
TEST(WarpSpecialized, WaitsFollowTheKernelsProtocol) {
  for (const std::string kind : {"warp-specialized:2", "warp-specialized:4", "ping-pong:3"}) {
    SCOPED_TRACE(kind);
    const PipelineTrace t = trace(kind, 7, kind[0] == 'p' ? 4 : 2);
    const int S = t.spec.stages;
    std::map<int, double> tma_end, last_release;
    std::map<int, int> releases;
    for (const auto& e : t.events) {
      if (e.kind == TraceEventKind::LoadGlobal) tma_end[e.k_tile] = e.end;
      if (e.kind == TraceEventKind::MbarrierArrive && !e.full_barrier) {
        ++releases[e.k_tile];
        last_release[e.k_tile] = std::max(last_release[e.k_tile], e.end);
      }
    }
    const int total = t.spec.tiles * t.spec.k_iterations;
    const int readers = t.spec.kind == PipelineKind::PingPong ? 1 : 2;
    ASSERT_EQ(int(tma_end.size()), total);
    for (int it = 0; it < total; ++it) EXPECT_EQ(releases[it], readers) << "k-tile " << it;
    int producer_waits = 0, consumer_waits = 0;
    for (size_t i = 0; i < t.events.size(); ++i) {
      const TraceEvent& e = t.events[i];
      if (e.kind != TraceEventKind::MbarrierWait) continue;
      if (e.role == 0) {
        ++producer_waits;
        const int it = e.k_tile + S;  // the k-tile about to be loaded; it waits for k_tile's release
        EXPECT_FALSE(e.full_barrier);
        EXPECT_EQ(e.barrier, it % S);
        EXPECT_EQ(e.parity, (it / S - 1) & 1);
        EXPECT_GE(e.end, last_release[e.k_tile]);
      } else {
        ++consumer_waits;
        EXPECT_TRUE(e.full_barrier);
        EXPECT_EQ(e.barrier, e.k_tile % S);
        EXPECT_EQ(e.parity, (e.k_tile / S) & 1);
        EXPECT_GE(e.end, tma_end[e.k_tile]);
        ASSERT_EQ(t.events[i + 1].kind, TraceEventKind::Math);
        EXPECT_GE(t.events[i + 1].start, e.end);
      }
    }
    EXPECT_EQ(producer_waits, total - S);
    EXPECT_EQ(consumer_waits, total * readers);
    // Each barrier completes one phase per round: full[s] and empty[s] total / S times (rounded up).
    EXPECT_EQ(int(t.phases.size()), 2 * total);
    // A stage is never written while a reader still holds it.
    const auto holds = stage_holds(t);
    for (const auto& a : holds)
      for (const auto& b : holds)
        if (a.stage == b.stage && b.k_tile == a.k_tile + S) {
          EXPECT_GE(b.from, a.to) << a.k_tile << " -> " << b.k_tile;
        }
  }
}

// warp-specialized:4, 6 k-tiles: the first box lands at 8 (the global latency); from then the
// producer stays ahead and the tensor cores never idle: 6 k-tiles x 2 consumers x 4 wgmma groups =
// 48, until 56; the epilogue takes 8 more -> 64, busy 48 / 64.
TEST(WarpSpecialized, TimesOfTheRelativeModel) {
  const PipelineTrace t = trace("warp-specialized:4", 6);
  EXPECT_DOUBLE_EQ(t.total_time, 64);
  EXPECT_DOUBLE_EQ(t.math_busy, 48);
  // Ping-pong, 4 tiles of 4 k-tiles: one consumer's epilogue runs under the other's mainloop, so
  // only the last is exposed: 8 + 4 x 4 x 8 + 8 = 144.
  const PipelineTrace p = trace("ping-pong:4", 4);
  EXPECT_DOUBLE_EQ(p.total_time, 144);
  EXPECT_DOUBLE_EQ(p.math_busy, 128);
  // The same 4 tiles cooperatively: every epilogue stalls both consumers.
  const PipelineTrace c = trace("warp-specialized:4", 4, 4);
  EXPECT_DOUBLE_EQ(c.math_busy, 128);
  EXPECT_GT(c.total_time, p.total_time);
  // At the first wgmma, S - 1 boxes are still travelling (stage 0 landed, 1..3 issued).
  EXPECT_EQ(*stages_in_flight_at_first_math(t), 3);
  EXPECT_EQ(*stages_in_flight_at_first_math(trace("warp-specialized:2", 6)), 1);
}

TEST(WarpSpecialized, OneStageWouldDeadlock) {
  auto s = parse_pipeline_kind("warp-specialized:1");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("deadlocks"), std::string::npos) << s.error();
  EXPECT_FALSE(parse_pipeline_kind("ping-pong:9"));
  auto ok = parse_pipeline_kind("ping-pong:4");
  ASSERT_TRUE(ok);
  ok.value().tiles = 2000;
  EXPECT_FALSE(trace_pipeline(*ok));
}

TEST(WarpSpecialized, Cli) {
  auto r = test::run_gemmlab({"sim", "pipeline", "--kind", "ping-pong:4", "--k-iterations", "4", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"total_time\":144"), std::string::npos) << r.out.substr(0, 300);
  EXPECT_NE(r.out.find("\"mbarrier\":\"full\",\"mbarrier_stage\":0,\"parity\":0"), std::string::npos);
  auto bad = test::run_gemmlab({"sim", "pipeline", "--kind", "multistage:4", "--k-iterations", "4", "--tiles", "2"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--tiles"), std::string::npos) << bad.err;
}
