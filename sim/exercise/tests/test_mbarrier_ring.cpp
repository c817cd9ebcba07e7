// The mbarrier ring the parity exercise runs plans in: the stage's plan passes, and each wrong
// plan is caught as the race or the deadlock it would be on the GPU.
#include <gtest/gtest.h>

#include "mbarrier_ring.h"

namespace gemmlab::exercise {
namespace {

TEST(MbarrierRing, TheStagesPlanPasses) {
  for (int stages = 2; stages <= 8; ++stages) {
    const auto o = run_mbarrier_ring(stages, 32, [&](int k) { return (k / stages) & 1; },
                                     [&](int k) { return ((k / stages) & 1) ^ 1; });
    EXPECT_TRUE(o.ok) << stages << ": " << o.problem;
  }
}

TEST(MbarrierRing, SkippingTheFirstRoundsEmptyWaitIsTheSame) {
  // Stage 17 itself does not wait on empty[] in the first round (-1): a fresh barrier.
  const auto o = run_mbarrier_ring(4, 32, [](int k) { return (k / 4) & 1; },
                                   [](int k) { return k < 4 ? -1 : ((k / 4) & 1) ^ 1; });
  EXPECT_TRUE(o.ok) << o.problem;
}

TEST(MbarrierRing, AConsumerParityThatNeverFlipsReadsTooEarly) {
  const auto o = run_mbarrier_ring(2, 8, [](int) { return 0; }, [](int k) { return ((k / 2) & 1) ^ 1; });
  EXPECT_FALSE(o.ok);
  // k-tile 2 is stage 0's second fill; parity 0 already passed once, so it passes on tile 0's phase.
  EXPECT_EQ(o.problem, "race: the consumer's wait on full[0] for parity 0 passes before k-tile 2's TMA has landed, "
                       "so it reads stage 0 while the TMA is still writing it");
}

TEST(MbarrierRing, AProducerThatNeverWaitsOverwrites) {
  const auto o = run_mbarrier_ring(3, 8, [](int k) { return (k / 3) & 1; }, [](int) { return -1; });
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.problem, "race: the producer's wait on empty[0] for parity -1 passes before k-tile 0 was given back, "
                       "so k-tile 3's TMA overwrites stage 0 while the consumer may still read it");
}

TEST(MbarrierRing, TheProducerWaitingOnTheWrongPhaseDeadlocks) {
  // The producer waits for parity 0 at once: a fresh empty[] never completes phase 0 before a fill.
  const auto o = run_mbarrier_ring(2, 8, [](int k) { return (k / 2) & 1; }, [](int k) { return (k / 2) & 1; });
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.problem, "deadlock: the producer waits on empty[0] for parity 0 before k-tile 0 and the consumer waits "
                       "on full[0] for parity 0 before k-tile 0; neither phase can complete");
}

}  // namespace
}  // namespace gemmlab::exercise
