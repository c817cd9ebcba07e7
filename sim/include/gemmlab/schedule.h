// Where and when blocks run: occupancy against a device, waves, and an event-driven timeline of
// SM slots (hardware_rules.md, "Block dispatch").
//
// Dispatch model: an SM holds blocks_per_sm blocks, so the device has sms * blocks_per_sm slots.
// Blocks start in launch order; the first `slots` start together at t = 0 (block i in slot i, slot
// s on SM s % sms, so the first wave puts one block on every SM before doubling up); every later
// block takes whichever slot frees first (ties: the lower slot). Specific SM ids are not modelled.
//
// Cost model (documented, relative): time is in units of one main-loop iteration of one block.
// The SM's throughput is shared evenly by its slots, so a block's iteration costs iter_cost
// whatever its neighbours do. Per block:
//   main loop           k iterations x iter_cost
//   epilogue            epilogue_cost (write the C tile)
//   stream-k partial    partial_cost to store the partial accumulators to the workspace
//   stream-k fix-up     waits until every peer has stored its partial, then peers x partial_cost
//   serial split-k      waits for the previous slice's epilogue, then partial_cost to read its C
//   no-op block         noop_cost (swizzle padding, stream-k filler)
// partial_cost defaults to CUTLASS's kFixupPeerIterEquiv = 3 (ThreadblockSwizzleStreamK's own
// "cost-equivalent number of SM-iterations" for one peer's fix-up I/O).
#pragma once
#include <string>
#include <vector>

#include "gemmlab/device_presets.h"
#include "gemmlab/expected.h"
#include "gemmlab/raster_analysis.h"

namespace gemmlab {

struct KernelResources {
  int threads = 0;           // per block
  int regs_per_thread = 0;
  int smem_per_block = 0;    // bytes, static + dynamic
};

struct Occupancy {
  int blocks_per_sm = 0;
  std::string limiter;       // "threads", "registers", "shared memory" or "blocks per SM"
  int by_threads = 0;        // blocks the limit alone would allow
  int by_registers = 0;
  int by_shared_memory = 0;
  int by_blocks = 0;
  int warps_per_block = 0;
  int regs_per_warp = 0;     // after rounding to the allocation unit
  int smem_per_block_allocated = 0;  // with the per-block reservation, rounded to the unit
  double warp_occupancy = 0; // resident warps / max warps per SM
};

// cudaOccupancyMaxActiveBlocksPerMultiprocessor's arithmetic (cudaOccupancy.h): warps rounded
// up, registers per warp rounded to 256 and checked per SM sub-partition, shared memory plus the
// 1 KB per-block reservation rounded to 128 B.
//   H100, 256 threads, 128 regs, 64 KB smem -> threads 8, registers 2, smem 3 -> 2 (registers).
Expected<Occupancy> compute_occupancy(const DeviceDesc& d, const KernelResources& k);

struct CostModel {
  double iter_cost = 1.0;
  double epilogue_cost = 1.0;
  double partial_cost = 3.0;  // CUTLASS kFixupPeerIterEquiv
  double noop_cost = 0.0;
};
std::string validate_cost_model(const CostModel& c);

enum class PhaseKind { Mainloop, Wait, ReadPartials, StorePartial, Epilogue };
const char* phase_kind_name(PhaseKind k);

struct Phase {
  PhaseKind kind = PhaseKind::Mainloop;
  int segment = 0;      // index into BlockPlan::segments
  double start = 0;
  double end = 0;
};

struct BlockRun {
  int slot = -1;
  int sm = -1;
  double start = 0;
  double end = 0;
  double wait_time = 0;
  int first_phase = 0;
  int phase_count = 0;
};

struct Timeline {
  int sms = 0;
  int blocks_per_sm = 0;
  int slots = 0;
  double iter_cost = 1.0;
  std::vector<BlockRun> blocks;   // BlockPlan::blocks order (launch order)
  std::vector<Phase> phases;
  double makespan = 0;
  double busy_time = 0;           // sum of block durations (waits included)
  double work_time = 0;           // sum of block durations without waits
  double ideal_time() const { return slots > 0 ? work_time / slots : 0; }
  // Ideal time over the makespan: the share of the slots' time spent working (1 = no tail, no wait).
  double efficiency() const { return makespan > 0 ? ideal_time() / makespan : 0; }
};

Expected<Timeline> simulate_timeline(const BlockPlan& plan, int sms, int blocks_per_sm,
                                     const CostModel& cost);

struct WaveSummary {
  long long blocks = 0;       // all blocks of the launch, no-op blocks included
  long long work_blocks = 0;  // blocks that do work
  int slots = 0;
  double waves = 0;           // blocks / slots
  long long full_waves = 0;
  long long last_wave_blocks = 0; // blocks of the last wave: a full wave's slots when none is partial
  // The wave a block (by launch index) starts in, if every slot took the next block at once. The
  // persistent stage's stream-k pieces (launch indices past `blocks`) are its last round.
  long long wave_of(long long block) const {
    if (slots <= 0) return 0;
    const long long last = blocks > 0 ? (blocks - 1) / slots : 0;
    return block / slots < last ? block / slots : last;
  }
  double tail_utilisation = 1.0;  // share of slots the last, partial wave fills (1 when none)
};
WaveSummary summarize_waves(const BlockPlan& plan, int slots);

}  // namespace gemmlab
