// Builds a block plan (and its dispatch timeline) the way the schedule, L2 and L2-progress tests
// all need it; a bad request fails the calling test.
#pragma once
#include <gtest/gtest.h>

#include "gemmlab/schedule.h"

namespace gemmlab::test {

inline BlockPlan plan_of(GemmCoord problem, GemmCoord tile, const char* order = "launch",
                         Partition part = Partition::None, int split = 1, int sms = 0,
                         int occupancy = 1) {
  PlanRequest rq;
  rq.problem = problem;
  rq.tile = tile;
  rq.order = *parse_order(order);
  rq.partition = part;
  rq.split_k = split;
  rq.sms = sms;
  rq.sm_occupancy = occupancy;
  auto p = make_block_plan(rq);
  EXPECT_TRUE(p.ok()) << p.error();
  return p.ok() ? *p : BlockPlan{};
}

inline Timeline timeline_of(const BlockPlan& plan, int sms, int blocks_per_sm) {
  auto tl = simulate_timeline(plan, sms, blocks_per_sm, CostModel{});
  EXPECT_TRUE(tl.ok()) << tl.error();
  return tl.ok() ? *tl : Timeline{};
}

}  // namespace gemmlab::test
