// The shared-memory instructions of GEMM Lab's own kernels, rebuilt lane by lane from the SAME
// header functions the kernels call (simt_warp_tile.h, sliced_k_tile.h, fp16_smem_tile.h,
// thread_map.h, fragments.h, with the stage shapes of fp16_shapes.h), for every warp of the block,
// with how often each runs over a whole launch. Run through the bank model (banks.h) they give
// the wavefronts and conflicts per instruction ncu reports
// (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st} / smsp__sass_inst_executed_op_shared_*),
// which the Measured view sets beside an ncu CSV and sim_test_kernel_banks checks against the
// H200 (sim/tests/data/kernel_smem_ncu_h200.json).
//
// Addresses are byte offsets in the block's shared memory. Where a kernel has two separate
// __shared__ arrays (sliced-k, stages 7-9) their relative placement is ptxas's; both start on a
// 128-byte boundary and a common shift by a multiple of 16 bytes only rotates the banks.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "gemmlab/banks.h"
#include "gemmlab/expected.h"
#include "gemmlab/raster.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab {

// The cost the isolated-warp hardware rule gives an access pattern, and where that rule is
// written (hardware_rules.md rows, bank_probe_h200.txt probes, or plain bank arithmetic).
struct SmemRule {
  int wavefronts;
  int conflicts;
  const char* source;
};

struct SmemInstruction {
  std::string what;                                      // "A fragment rows +0, stage 0, k 3: LDS.128"
  std::string op;                                        // parse_smem_op name
  long long per_warp = 0;                                // executions per warp over the launch
  SmemRule expect;                                       // the isolated-warp rule it should follow
  std::function<long long(int warp, int lane)> address;  // byte address in the block's smem
  bool counted_by_ncu = true;  // false: LDGSTS (cp.async) has no shared-memory counters
};

struct StageSmemModel {
  std::string stage;
  long long blocks = 0;  // blocks that run the main loop
  int warps = 0;         // per block
  std::vector<SmemInstruction> loads, stores;
  // Stream-k's fix-up state in shared memory is not modelled: its instruction counts are not whole.
  bool complete = true;
};

// The stage's shared-memory instructions for a problem of whole tiles (ragged edges take other,
// predicated paths). Fails for the naive stages (no shared memory) and for problems that do not
// divide into the stage's tiles, naming the rule.
Expected<StageSmemModel> stage_smem_model(const StageDesc& stage, GemmCoord problem);

// One instruction of one warp through the bank model.
Expected<BankAnalysis> analyze_smem_instruction(const SmemInstruction& in, int warp);

// Totals over the launch for one direction, ncu-counted instructions only.
struct SmemMixTotals {
  long long instructions = 0;
  long long wavefronts = 0;
  long long conflicts = 0;
  double wavefronts_per_instruction() const { return instructions ? double(wavefronts) / instructions : 0.0; }
  double conflicts_per_instruction() const { return instructions ? double(conflicts) / instructions : 0.0; }
};
Expected<SmemMixTotals> smem_mix_totals(const StageSmemModel& model, const std::vector<SmemInstruction>& instructions);

struct StageSmemMix {
  SmemMixTotals load, store;
  bool complete = true;
};
// stage_smem_model + smem_mix_totals for both directions: what the Measured view shows.
Expected<StageSmemMix> stage_smem_mix(const StageDesc& stage, GemmCoord problem);

}  // namespace gemmlab
