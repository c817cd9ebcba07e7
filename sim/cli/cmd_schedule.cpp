// gemmlab sim schedule: occupancy, waves and the per-slot timeline of a stage (--stage ID) or of
// a launch described flag by flag, through gemmlab::plan_launch like the views.
#include "launch_options.h"

namespace gemmlab::cli {

Json cmd_schedule(const Args& a) {
  a.reject_unknown(merge({kPlanOptions, kDeviceOptions, kCostOptions, kKernelOptions, kLaunchOptions,
                          {"--json", "--detail"}}));
  const DeviceDesc dev = read_device(a);
  const StageDesc* stage = nullptr;
  const LaunchSpec spec = read_launch_spec(a, !a.has("--blocks-per-sm"), &stage);
  auto launch = plan_launch(spec, dev);
  if (!launch) throw CliError(launch.error());
  const Occupancy* occ = &launch->occupancy;
  const BlockPlan* plan = &launch->plan;
  const Timeline* tl = &launch->timeline;
  const WaveSummary& w = launch->waves;
  const CostModel& cost = spec.cost;

  Json out;
  out["device"] = device_json(dev);
  if (stage) out["stage"] = stage_json(*stage, *launch);
  Json o;
  o["blocks_per_sm"] = occ->blocks_per_sm;
  o["limiter"] = occ->limiter;
  o["by_threads"] = occ->by_threads;
  o["by_registers"] = occ->by_registers;
  o["by_shared_memory"] = occ->by_shared_memory;
  o["by_blocks"] = occ->by_blocks;
  o["warps_per_block"] = occ->warps_per_block;
  o["regs_per_warp"] = occ->regs_per_warp;
  o["smem_per_block_allocated"] = occ->smem_per_block_allocated;
  o["warp_occupancy"] = occ->warp_occupancy;
  out["occupancy"] = o;
  out["plan"] = plan_summary_json(*plan);
  Json wj;
  wj["blocks"] = w.blocks;
  wj["work_blocks"] = w.work_blocks;
  wj["slots"] = w.slots;
  wj["waves"] = w.waves;
  wj["full_waves"] = w.full_waves;
  wj["last_wave_blocks"] = w.last_wave_blocks;
  wj["tail_utilisation"] = w.tail_utilisation;
  out["waves"] = wj;
  Json c;
  c["iter_cost"] = cost.iter_cost;
  c["epilogue_cost"] = cost.epilogue_cost;
  c["partial_cost"] = cost.partial_cost;
  c["unit"] = "one main-loop iteration of one block (relative)";
  out["cost_model"] = c;
  out["relative_time"] = tl->makespan;
  out["ideal_time"] = tl->ideal_time();
  out["efficiency"] = tl->efficiency();
  out["total_wait"] = tl->busy_time - tl->work_time;
  // Per slot: [start, end, block] in time order; slot s is on SM s % sms.
  std::vector<Json> slots(static_cast<size_t>(tl->slots), Json::array());
  for (size_t b = 0; b < tl->blocks.size(); ++b) {
    const BlockRun& r = tl->blocks[b];
    slots[static_cast<size_t>(r.slot)].push_back({r.start, r.end, b});
  }
  out["timeline_columns"] = {"start", "end", "block"};
  out["timeline"] = slots;
  if (read_int(a, "--detail", 0, 1, 0)) {
    Json blocks = Json::array();
    for (size_t b = 0; b < tl->blocks.size(); ++b) {
      const BlockRun& r = tl->blocks[b];
      Json phases = Json::array();
      for (int i = 0; i < r.phase_count; ++i) {
        const Phase& ph = tl->phases[static_cast<size_t>(r.first_phase + i)];
        const WorkSegment& s = plan->segments[static_cast<size_t>(ph.segment)];
        phases.push_back({phase_kind_name(ph.kind), ph.start, ph.end, s.m_tile, s.n_tile, s.k_iter_begin,
                          s.k_iter_end, segment_role_name(s.role)});
      }
      const BlockWork& bw = plan->blocks[b];
      blocks.push_back({{"block_idx", {bw.block_idx.x, bw.block_idx.y, bw.block_idx.z}},
                        {"slot", r.slot},
                        {"sm", r.sm},
                        {"start", r.start},
                        {"end", r.end},
                        {"wait", r.wait_time},
                        {"phases", std::move(phases)}});
    }
    out["phase_columns"] = {"kind", "start", "end", "m_tile", "n_tile", "k_iter_begin", "k_iter_end", "role"};
    out["blocks"] = std::move(blocks);
  }
  return out;
}

}  // namespace gemmlab::cli
