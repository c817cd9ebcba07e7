// Software pipelines in time: the per-warp event sequence of three main loops, derived from
// their loop structure and stage count, with the shared-memory stage each event reads or writes.
// Every warp of the block runs the same sequence (the barriers keep them in step), so one warp's
// trace stands for all.
//
//   pipelined2   CUTLASS MmaPipelined (gemm/threadblock/mma_pipelined.h; seeds 002/003): global
//                tile -> registers (LDG), registers -> shared (STS) into the other of 2 stages,
//                warp fragments double-buffered in registers.
//   multistage:K the kStage cp.async loop of the CuTe GEMM tutorial: K-1 tiles in flight, cp.async.wait_group
//                K-2 then __syncthreads before reading the next stage.
//   mma-base     the hand-written mma_base HGEMM: one shared buffer; per 32-wide k tile LDGSTS,
//                wait, barrier, then S2R (ldmatrix) and calc per 16-wide k step; epilogue R2S,
//                barrier, shared -> global store.
//   warp-specialized:K   the Hopper stages' mbarrier pipeline (kernels/stages/hopper/hopper_pipeline.cuh,
//                produce_k_tiles / consume_k_tiles), one lane per warpgroup: a producer that waits
//                for empty[s], arms full[s] with arrive.expect_tx and issues the TMA boxes; two
//                cooperative consumers that wait for full[s], issue their wgmmas on halves of the
//                tile, wgmma.wait_group 1, and arrive on empty[] of the k-tile before. 1 tile.
//   ping-pong:K  the same ring, but consumer c owns output tiles c, c+2, ...: while one runs its
//                mainloop the other stores its tile (the epilogue leaves the tensor cores to the
//                other warpgroup). 4 tiles; a consumer's k-tile is the whole tile's work (2 x
//                warp_k_steps wgmma groups), a cooperative consumer's half of it.
// For these two, the tensor cores are one shared unit (both consumers' warps run on the same four
// SM sub-partitions): a wgmma starts when the unit is free, in issue order.
//
// Timing (relative units, documented, editable): one warp issues in order. A global load
// (LDG or cp.async) takes global_latency to land; a shared load takes shared_latency; one warp
// k-group of MMAs takes math_cost; STS and STG take 1. An STS waits for its LDG's registers, an MMA
// for its fragments, cp.async.wait_group for the groups it names, a barrier for this warp's
// outstanding shared stores (all warps being identical, no warp arrives later).
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab {

enum class PipelineKind { Pipelined2, Multistage, MmaBase, WarpSpecialized, PingPong };

struct PipelineSpec {
  PipelineKind kind = PipelineKind::Pipelined2;
  int stages = 2;          // shared-memory stages (pipelined2: 2, mma-base: 1)
  int k_iterations = 4;    // block k tiles
  int warp_k_steps = 0;    // k groups per tile (CUTLASS kWarpGemmIterations); 0 = the kind's default
  double global_latency = 8;
  double shared_latency = 1;
  double math_cost = 1;
  // warp-specialized / ping-pong only
  int consumers = 2;          // consumer warpgroups
  int tiles = 1;              // output tiles the block computes (ping-pong: 4 by default)
  int stage_bytes = 49152;    // expect_tx per stage: the A and B boxes of one k-tile
  double epilogue_cost = 8;   // a consumer's store of its accumulators
  bool warp_specialized() const { return kind == PipelineKind::WarpSpecialized || kind == PipelineKind::PingPong; }
};

// "pipelined2", "multistage:K" (K = 2..8), "mma-base", "warp-specialized:K", "ping-pong:K" (K = 2..8).
Expected<PipelineSpec> parse_pipeline_kind(const std::string& text);
std::string pipeline_kind_name(const PipelineSpec& s);

enum class TraceEventKind {
  LoadGlobal,   // LDG to registers, or cp.async (LDGSTS) straight to shared memory
  StoreShared,  // STS (registers -> shared)
  LoadShared,   // LDS / ldmatrix (shared -> registers)
  Math,         // the warp's MMAs for one k group
  Barrier,      // __syncthreads
  Wait,         // cp.async.wait_group N
  Commit,       // cp.async.commit_group (fence)
  StoreGlobal,  // epilogue STG
  MbarrierWait,    // mbarrier.try_wait.parity on full[s] or empty[s]
  MbarrierArrive,  // mbarrier.arrive (empty[s]) or arrive.expect_tx (full[s])
};
const char* trace_event_kind_name(TraceEventKind k);

struct TraceEvent {
  TraceEventKind kind = TraceEventKind::Math;
  std::string label;       // e.g. "cp.async A,B k-tile 3 -> stage 1"
  int k_tile = -1;         // block k tile the data belongs to (-1: none)
  int k_group = -1;        // warp k group within the tile (-1: none)
  int smem_read = -1;      // shared stage read (-1: none)
  int smem_write = -1;     // shared stage written (-1: none)
  int reg_buffer = -1;     // register fragment buffer written (LDS) or read (math)
  bool async = false;      // cp.async: lands in shared memory without passing registers
  bool predicated_off = false;  // past the last k tile: issued with its guard off
  int wait_pending = -1;   // Wait: N of wait_group N
  int role = -1;           // warp-specialized: 0 producer, 1.. consumer warpgroups; -1: every warp
  int barrier = -1;        // MbarrierWait / MbarrierArrive: the stage s of full[s] or empty[s]
  bool full_barrier = false;
  int parity = -1;         // MbarrierWait: the phase parity waited for
  int tx_bytes = 0;        // arrive.expect_tx: bytes the TMA must land before full[s] completes
  double start = 0;
  double end = 0;
};

// One completed phase of an mbarrier: when its arrivals (and, for full[s], its bytes) were in.
struct BarrierPhase {
  int stage = 0;
  bool full = false;
  int phase = 0;      // 0, 1, 2, ...: its parity is phase & 1
  int k_tile = 0;     // the k-tile it hands over (full) or gives back (empty)
  double completed = 0;
};

struct PipelineTrace {
  PipelineSpec spec;
  std::vector<BarrierPhase> phases;  // warp-specialized kinds only
  std::vector<TraceEvent> events;  // issue order
  double total_time = 0;
  double math_busy = 0;            // sum of math event durations
};

inline constexpr int kMaxTraceKIterations = 1024;
Expected<PipelineTrace> trace_pipeline(const PipelineSpec& spec);
// The two warp-specialized kinds (trace_pipeline checks the spec, then calls this).
PipelineTrace trace_warp_specialized(const PipelineSpec& spec);

}  // namespace gemmlab
