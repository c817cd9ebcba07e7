// How far each block has got, in time, when two blocks share an SM: the L2 replay's clock.
//
// The schedule's timeline (schedule.h) shares an SM evenly between its resident blocks. Measured
// on the lab's H200 (kernels/lab/tools/l2_probe/block_timing.cu: the fp32 double-buffer and
// block-swizzle kernels, 4096^3 and 8192^3, 2 blocks per SM, %globaltimer after every eighth of
// K; kernels/lab/L2_VALIDATION.md), the SM does not: it issues for the OLDER resident block first.
//   per main-loop iteration   older 1.31 us   younger 1.90 us   alone on the SM 0.92 us
// (the same on all 132 SMs, both kernels, both sizes; the younger block speeds up the moment the
// older one finishes, because it is now the older). So two blocks that start together drift
// apart by a third of their run, and blocks that share an A or B tile no longer fetch it at the
// same time: at 4096^3 this is what makes the double-buffer kernel read 583 MB from DRAM instead
// of the 342 MB an even-share replay predicts.
//
// The rates below are those measurements in the timeline's unit (two evenly shared blocks each
// do one iteration per iter_cost): older 1.185, younger 0.815, alone 1.665. They are applied to
// launches with exactly 2 blocks per SM and no waiting phases (no serial split-k, no stream-k);
// anything else keeps the schedule's timeline, because nothing else was measured.
#pragma once
#include <vector>

#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"

namespace gemmlab {

struct CoresidentRates {
  bool enabled = true;
  double older = 1.185;    // 1 / 1.306 us, normalised so that older + younger = 2
  double younger = 0.815;  // 1 / 1.90 us
  double alone = 1.665;    // 1 / 0.92 us
};

// A block's work done (in the timeline's time units of even-shared work) as a piecewise linear
// function of time: from `time`, work grows at `rate` starting at `work`.
struct ProgressPiece {
  double time = 0;
  double work = 0;
  double rate = 0;
};

struct BlockProgress {
  int sm = -1;
  int first_piece = 0;
  int piece_count = 0;
};

struct CoresidentClock {
  std::vector<BlockProgress> blocks;  // BlockPlan::blocks order
  std::vector<ProgressPiece> pieces;
  // The time at which block b has done `work` (clamped to its last piece).
  double time_at(int b, double work) const;
};

// Re-times the timeline's blocks with the co-resident rates: blocks start in launch order, the
// first sms*2 at t = 0 (block i on SM i % sms, as the timeline places them), every later one on
// the SM that frees a slot first; a block's work is its phases' durations in the timeline.
// Returns false (and leaves `out` empty) where the rates do not apply; see above.
bool coresident_progress(const BlockPlan& plan, const Timeline& timeline, const CoresidentRates& rates,
                         CoresidentClock& out);

}  // namespace gemmlab
