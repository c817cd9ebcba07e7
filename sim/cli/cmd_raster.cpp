// gemmlab sim raster: the C tile (and k range) of every block, in launch order.
#include "sched_options.h"

namespace gemmlab::cli {

Json cmd_raster(const Args& a) {
  a.reject_unknown(merge({kPlanOptions, kDeviceOptions, {"--json", "--blocks-per-sm"}}));
  PlanRequest rq = read_plan_request(a, false);
  if (rq.partition == Partition::StreamK) {
    // Stream-k's plan depends on the machine it balances across.
    const DeviceDesc d = read_device(a);
    rq.sms = d.sms;
    rq.sm_occupancy = read_int(a, "--blocks-per-sm", 1, d.max_blocks_per_sm, 1);
  } else if (a.has("--device") || a.has("--blocks-per-sm")) {
    throw CliError("--device and --blocks-per-sm matter only with --stream-k");
  }
  auto plan = make_block_plan(rq);
  if (!plan) throw CliError(plan.error());
  const BlockPlan& p = *plan;
  Json out = plan_summary_json(p);
  out["tile"] = {p.tile.m, p.tile.n, p.tile.k};
  out["log_tile"] = p.log_tile;
  Json tiles = Json::array(), noop = Json::array();
  for (size_t i = 0; i < p.blocks.size(); ++i) {
    const BlockWork& b = p.blocks[i];
    tiles.push_back({b.tile.m, b.tile.n});
    if (b.kind == BlockKind::NoOp) noop.push_back(i);
  }
  out["tile_of_block"] = std::move(tiles);
  out["noop_blocks"] = std::move(noop);
  if (p.partition != Partition::None) {
    // Every block's work, [m tile, n tile, first k iteration, end k iteration, role] per tile.
    Json work = Json::array();
    for (const BlockWork& b : p.blocks) {
      Json w = Json::array();
      for (int i = 0; i < b.segment_count; ++i) {
        const WorkSegment& s = p.segments[static_cast<size_t>(b.first_segment + i)];
        w.push_back({s.m_tile, s.n_tile, s.k_iter_begin, s.k_iter_end, segment_role_name(s.role)});
      }
      work.push_back(std::move(w));
    }
    out["work_columns"] = {"m_tile", "n_tile", "k_iter_begin", "k_iter_end", "role"};
    out["work_of_block"] = std::move(work);
  }
  return out;
}

}  // namespace gemmlab::cli
