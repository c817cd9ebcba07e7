// Counts the lesson panel asks about a pipeline, read off the simulator's event list
// (gemmlab::trace_pipeline); no timing of our own.
#pragma once
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/pipeline_trace.h"

namespace gemmlab {

// "pipeline.stages_in_flight": at the start of the first math event, how many k tiles have
// their global loads issued but are not yet in shared memory as far as the program knows:
//   - LDG + STS (pipelined2): until the tile's STS has finished;
//   - cp.async (multistage, mma-base): until a cp.async.wait_group has retired its commit group
//     (wait_group N retires all but the newest N groups committed before it).
//   - TMA (warp-specialized): until a wait on its full[s] barrier has passed.
// Loads issued with their guard off (past the last k tile) fill nothing and are not counted.
//   pipelined2, 8 k tiles -> 1 (tile 1 travelling to registers); multistage:4 -> 3 (tiles 1..3).
Expected<int> stages_in_flight_at_first_math(const PipelineTrace& trace);

// Share of the trace's time the MMA unit is busy (0 for an empty trace).
double math_busy_share(const PipelineTrace& trace);

// How long each shared stage holds each k tile: from the first write of the tile into the stage
// to its last read (writes whose guard is off fill nothing). Ordered by (stage, k tile).
struct StageHold {
  int stage = 0, k_tile = 0;
  double from = 0, to = 0;
};
std::vector<StageHold> stage_holds(const PipelineTrace& trace);

}  // namespace gemmlab
