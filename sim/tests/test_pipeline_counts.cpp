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
