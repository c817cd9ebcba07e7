// The L2 hit rate of reads that an Nsight Compute CSV allows, and which simulator number it
// compares with (kernels/lab/L2_VALIDATION.md, measured on an H200):
//   1. 1 - lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum / l1tex__m_xbar2l1tex_read_sectors.sum
//      (or / lrc__request_sectors_op_read_coalescable.sum, the same count): misses per sector the
//      SMs requested. The model's hit_rate; within 1.6 points on 4 kernels x 2 sizes.
//   2. lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum / lts__t_sectors_srcunit_tex_op_read.sum:
//      reads high on Hopper. The L2 request coalescer merges 4-28% of the read sectors before the
//      tag stage, so ..._op_read counts fewer sectors than the SMs asked for, and the tag stage
//      counts a missed cp.async request as a hit too (fp16 multistage 4096^3 on the H200: 84.72%
//      where 1. gives 78.31%). The model predicts it given the coalescer's merges, which the CSV
//      gives when it has the requested sectors as well (ncu_tag_stage below).
//   3. lts__t_sector_hit_rate.pct: all L2 traffic, a far-partition miss looked up twice; the
//      model's hit_rate_with_far is the nearest figure (not validated).
#pragma once
#include <optional>
#include <string>

#include "model/ncu_csv.h"

namespace gemmlab::app {

enum class NcuL2Ratio {
  MissesPerRequestedSector,  // 1.
  HitsPerTagLookup,          // 2.
  SectorHitRate,             // 3.
};

struct NcuL2HitRate {
  NcuL2Ratio ratio = NcuL2Ratio::MissesPerRequestedSector;
  double value = 0;     // 0..1
  std::string formula;  // the metrics it divides, for the label
  std::string note;     // why it may differ from the model; empty for ratio 1
  bool compares_with_far_lookups() const { return ratio == NcuL2Ratio::SectorHitRate; }
};

// The best ratio the kernel's metrics allow; nullopt when none of them is there.
std::optional<NcuL2HitRate> ncu_l2_read_hit_rate(const NcuKernel& k);

// Ratio 2 and the share of requested sectors the coalescer merged (requested - ..._op_read), when
// the CSV has lookup_hit, ..._op_read and the requested sectors: the model's
// ncu_lookup_hit_over_op_read (gemmlab/l2_model.h) compares with it given that share.
struct NcuTagStage {
  double lookup_hit_over_op_read = 0;
  double merged_fraction = 0;  // of the requested sectors
};
std::optional<NcuTagStage> ncu_tag_stage(const NcuKernel& k);

// Shared-memory wavefronts per shared load instruction as ncu counts them. ldmatrix has no
// wavefront counter of its own (its wavefronts are in ..._op_ld, hardware_rules.md), so:
// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld / (LDS + LDSM instructions). nullopt when the
// CSV has no wavefront counter; instructions 0 when it has no instruction counts.
struct NcuSharedLoads {
  double wavefronts = 0;
  double instructions = 0;  // smsp__sass_inst_executed_op_shared_ld + ..._op_ldsm
  double per_instruction() const { return instructions > 0 ? wavefronts / instructions : 0.0; }
};
std::optional<NcuSharedLoads> ncu_shared_loads(const NcuKernel& k);

// The metrics ratio 1 needs, for the "make one with: ncu --metrics ..." hint.
inline constexpr const char* kNcuL2Metrics =
    "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum";

}  // namespace gemmlab::app
