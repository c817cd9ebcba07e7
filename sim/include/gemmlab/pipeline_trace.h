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

enum class PipelineKind { Pipelined2, Multistage, MmaBase };

struct PipelineSpec {
  PipelineKind kind = PipelineKind::Pipelined2;
  int stages = 2;          // shared-memory stages (pipelined2: 2, mma-base: 1)
  int k_iterations = 4;    // block k tiles
  int warp_k_steps = 0;    // k groups per tile (CUTLASS kWarpGemmIterations); 0 = the kind's default
  double global_latency = 8;
  double shared_latency = 1;
  double math_cost = 1;
};

// "pipelined2", "multistage:K" (K = 2..8), "mma-base".
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
  double start = 0;
  double end = 0;
};

struct PipelineTrace {
  PipelineSpec spec;
  std::vector<TraceEvent> events;  // issue order
  double total_time = 0;
  double math_busy = 0;            // sum of math event durations
};

inline constexpr int kMaxTraceKIterations = 1024;
Expected<PipelineTrace> trace_pipeline(const PipelineSpec& spec);

}  // namespace gemmlab
