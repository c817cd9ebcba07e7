// gemmlab sim schedule: occupancy, waves and the per-slot timeline.
#include "sched_options.h"

namespace gemmlab::cli {

Json cmd_schedule(const Args& a) {
  a.reject_unknown(merge({kPlanOptions, kDeviceOptions, kCostOptions,
                          {"--json", "--threads", "--regs", "--smem", "--detail"}}));
  const DeviceDesc dev = read_device(a);
  KernelResources k;
  k.threads = read_int(a, "--threads", 1, 1 << 20, 0);
  k.regs_per_thread = read_int(a, "--regs", 1, 1 << 20, 0);
  k.smem_per_block = read_int(a, "--smem", 0, 1 << 30, 0);
  if (!a.has("--threads") || !a.has("--regs") || !a.has("--smem"))
    throw CliError("schedule needs --threads T --regs R --smem BYTES (per block)");
  auto occ = compute_occupancy(dev, k);
  if (!occ) throw CliError(occ.error());
  PlanRequest rq = read_plan_request(a, true);
  rq.sms = dev.sms;
  rq.sm_occupancy = occ->blocks_per_sm;
  auto plan = make_block_plan(rq);
  if (!plan) throw CliError(plan.error());
  const CostModel cost = read_cost_model(a);
  auto tl = simulate_timeline(*plan, dev.sms, occ->blocks_per_sm, cost);
  if (!tl) throw CliError(tl.error());
  const WaveSummary w = summarize_waves(*plan, tl->slots);

  Json out;
  out["device"] = device_json(dev);
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
  out["efficiency"] = tl->makespan > 0 ? tl->ideal_time() / tl->makespan : 0.0;
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
