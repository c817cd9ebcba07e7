// The persistent schedule inside the simulator's launch plan (gemmlab/launch_plan.h): a stage
// whose row says schedule = Persistent keeps its blocks resident and takes its tiles from
// gemmlab/persistent_schedule.h. plan_launch calls these and nothing else of the schedule, so the
// general planner has no persistent special case of its own.
#pragma once
#include "gemmlab/launch_plan.h"
#include "gemmlab/persistent_schedule.h"
#include "gemmlab/schedule.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab::persistent {

// A persistent stage's launch fields: B multicast to its cluster (linear cluster rank), the
// scheduler's cluster height and slab width (the row's cluster_m and raster_param).
void configure_launch(LaunchSpec& spec, const StageDesc& s);

// The scheduler on `clusters` resident clusters, as the persistent stage plans it (with the
// TMA-store epilogue, whose stream-k tail adds to C: beta == 0 and M % 4 == 0).
Plan launch_plan(const LaunchSpec& spec, int clusters);

// The tiles in the order the resident clusters take them (see LaunchSpec); the tail units'
// tiles come last, whole, for split_tail to cut. With narrowed rows the list is only the grid's
// tiles in row order: narrow_rows replaces the blocks and the list.
OrderSpec tile_order(const Plan& p);

// Narrowed rows: the blocks in the order the clusters take their units, each with its unit's
// columns (4096^3 on 66 clusters: 264 units, 528 blocks, rows 16-31 of 17 tiles).
void narrow_rows(BlockPlan& plan, const Plan& p);

// The stream-k tail: the tail units' whole-tile blocks become the pieces the clusters compute;
// returns the pieces (8192^3 on 66 clusters: 34 units = 68 tiles become 2 x 98 pieces).
long long split_tail(BlockPlan& plan, const Plan& p);

}  // namespace gemmlab::persistent
