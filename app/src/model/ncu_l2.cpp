#include "model/ncu_l2.h"

#include <algorithm>
#include <utility>

namespace gemmlab::app {

namespace {

// Sectors the SMs sent to L2 and the metric that says so; the coalescer's input count is the same
// number on the H200.
std::pair<std::optional<double>, std::string> requested_sectors(const NcuKernel& k) {
  std::string name = "l1tex__m_xbar2l1tex_read_sectors";
  auto v = k.metric(name + ".sum");
  if (!v || *v <= 0) {
    name = "lrc__request_sectors_op_read_coalescable";
    v = k.metric(name + ".sum");
  }
  return {v, name};
}

}  // namespace

std::optional<NcuTagStage> ncu_tag_stage(const NcuKernel& k) {
  const auto hit = k.metric("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum");
  const auto looked_up = k.metric("lts__t_sectors_srcunit_tex_op_read.sum");
  const auto requested = requested_sectors(k).first;
  if (!hit || !looked_up || !requested || *looked_up <= 0 || *requested <= 0) return std::nullopt;
  // The tag stage sees a few sectors that are not the SMs' reads: never a negative merge count.
  return NcuTagStage{*hit / *looked_up, std::max(0.0, 1 - *looked_up / *requested)};
}

std::optional<NcuL2HitRate> ncu_l2_read_hit_rate(const NcuKernel& k) {
  const auto miss = k.metric("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum");
  const auto [requested, requested_name] = requested_sectors(k);
  if (miss && requested && *requested > 0 && *miss <= *requested) {
    NcuL2HitRate r;
    r.ratio = NcuL2Ratio::MissesPerRequestedSector;
    r.value = 1 - *miss / *requested;
    r.formula = "1 - lts__t_sectors_srcunit_tex_op_read_lookup_miss / " + requested_name;
    return r;
  }
  const auto hit = k.metric("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum");
  const auto looked_up = k.metric("lts__t_sectors_srcunit_tex_op_read.sum");
  if (hit && looked_up && *looked_up > 0) {
    NcuL2HitRate r;
    r.ratio = NcuL2Ratio::HitsPerTagLookup;
    r.value = *hit / *looked_up;
    r.formula = "lts__t_sectors_srcunit_tex_op_read_lookup_hit / lts__t_sectors_srcunit_tex_op_read";
    r.note = "reads high on Hopper: the L2 request coalescer merges requests before the tag stage, so "
             "..._op_read counts fewer sectors than the SMs asked for, and the tag stage counts a missed "
             "cp.async request as a hit too (kernels/lab/L2_VALIDATION.md). For the ratio "
             "the model predicts, add " + std::string(kNcuL2Metrics) + " to the ncu metrics.";
    return r;
  }
  if (const auto pct = k.metric("lts__t_sector_hit_rate.pct")) {
    NcuL2HitRate r;
    r.ratio = NcuL2Ratio::SectorHitRate;
    r.value = *pct / 100;
    r.formula = "lts__t_sector_hit_rate";
    r.note = "all L2 traffic, writes included, a far-partition miss looked up twice; compared with the "
             "model's figure that counts far look-ups (not validated against ncu). For the ratio the model "
             "predicts, add " + std::string(kNcuL2Metrics) + " to the ncu metrics.";
    return r;
  }
  return std::nullopt;
}

std::optional<NcuSharedLoads> ncu_shared_loads(const NcuKernel& k) {
  const auto wf = k.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  if (!wf) return std::nullopt;
  NcuSharedLoads s;
  s.wavefronts = *wf;
  s.instructions = k.metric("smsp__sass_inst_executed_op_shared_ld.sum").value_or(0) +
                   k.metric("smsp__sass_inst_executed_op_ldsm.sum").value_or(0);
  return s;
}

}  // namespace gemmlab::app
