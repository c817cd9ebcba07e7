// pipeline.stages_in_flight, checked against the answers the course derives from CUTLASS's loops
// (lessons/06-double-buffer: MmaPipelined has one tile travelling when math starts;
// lessons/10-multistage: the kStage = 4 loop of the CuTe GEMM tutorial has kStage - 1 = 3).
#include <gtest/gtest.h>

#include "gemmlab/pipeline_counts.h"

namespace gemmlab {
namespace {

int count(const std::string& kind, int k_iterations) {
  auto spec = parse_pipeline_kind(kind);
  EXPECT_TRUE(spec.ok()) << spec.error();
  PipelineSpec s = *spec;
  s.k_iterations = k_iterations;
  auto trace = trace_pipeline(s);
  EXPECT_TRUE(trace.ok()) << trace.error();
  auto n = stages_in_flight_at_first_math(*trace);
  EXPECT_TRUE(n.ok()) << n.error();
  return n.ok() ? *n : -1;
}

TEST(PipelineCounts, MmaPipelinedHasOneTileTravelling) { EXPECT_EQ(count("pipelined2", 8), 1); }

TEST(PipelineCounts, MultistageKeepsKStageMinusOneInFlight) {
  EXPECT_EQ(count("multistage:4", 8), 3);
  EXPECT_EQ(count("multistage:3", 8), 2);
}

TEST(PipelineCounts, LoadsPastTheLastTileFillNothing) {
  // Two k tiles, four stages: the prologue's third copy is predicated off, so only tile 1 travels.
  EXPECT_EQ(count("multistage:4", 2), 1);
}

}  // namespace
}  // namespace gemmlab

namespace gemmlab {
namespace {

PipelineTrace trace_of(const std::string& kind, int k_iterations) {
  auto spec = parse_pipeline_kind(kind);
  EXPECT_TRUE(spec.ok()) << spec.error();
  PipelineSpec s = *spec;
  s.k_iterations = k_iterations;
  auto t = trace_pipeline(s);
  EXPECT_TRUE(t.ok()) << t.error();
  return t.ok() ? *t : PipelineTrace{};
}

// The pipeline view's stage rows: tile t lives in stage t % stages, and a stage takes its next
// tile only after the previous one's last read (the loop's barriers / wait_group guarantee it).
TEST(PipelineCounts, StageHoldsNeverOverlapInAStage) {
  for (const auto& [kind, stages] : std::vector<std::pair<std::string, int>>{{"pipelined2", 2}, {"multistage:4", 4}}) {
    SCOPED_TRACE(kind);
    const PipelineTrace t = trace_of(kind, 8);
    const std::vector<StageHold> holds = stage_holds(t);
    ASSERT_EQ(holds.size(), 8u);
    for (const StageHold& h : holds) {
      EXPECT_EQ(h.stage, h.k_tile % stages);
      EXPECT_LT(h.from, h.to);
    }
    for (const StageHold& a : holds)
      for (const StageHold& b : holds)
        if (a.stage == b.stage && b.k_tile == a.k_tile + stages) {
          EXPECT_GE(b.from, a.to) << a.k_tile << " -> " << b.k_tile;
        }
    const double busy = math_busy_share(t);
    EXPECT_GT(busy, 0.0);
    EXPECT_LE(busy, 1.0);
  }
  EXPECT_EQ(math_busy_share(PipelineTrace{}), 0.0);
}

}  // namespace
}  // namespace gemmlab
