// gemmlab sim l2: replay a whole GEMM through the L2 model (a stage with --stage ID, or a launch
// described flag by flag), through gemmlab::plan_launch like the views.
#include <optional>

#include "gemmlab/l2_model.h"
#include "launch_options.h"
#include "sim_cli.h"

namespace gemmlab::cli {

static Json heat_json(const TileHeat& h) {
  Json j;
  j["shape"] = {h.rows, h.cols};
  j["loads"] = h.loads;
  j["dram_sectors"] = h.dram_sectors;
  return j;
}

Json cmd_l2(const Args& a) {
  a.reject_unknown(merge({kPlanOptions, kDeviceOptions, kCostOptions, kKernelOptions, kLaunchOptions,
                          {"--json", "--buckets", "--heat", "--lrc-merged"}}));
  const DeviceDesc dev = read_device(a);
  const StageDesc* stage = nullptr;
  LaunchSpec spec = read_launch_spec(a, false, &stage);
  spec.l2.buckets = read_int(a, "--buckets", 1, 10000, 50);
  spec.l2.max_lookups = sim_cli_limits().max_l2_lookups;
  auto launch = plan_launch(spec, dev);
  if (!launch) throw CliError(launch.error());
  const BlockPlan* plan = &launch->plan;
  const int blocks_per_sm = launch->blocks_per_sm;
  const L2ReplayOptions& o = launch->spec.l2;
  auto r = replay_launch_l2(*launch);
  if (!r) throw CliError(r.error());
  // lookup_hit / op_read as ncu would read it, given the coalescer's merges (from an ncu run).
  std::optional<double> ncu_ratio;
  if (a.has("--lrc-merged")) {
    auto v = ncu_lookup_hit_over_op_read(*r, read_number(a, "--lrc-merged", 0));
    if (!v) throw CliError("--lrc-merged: " + v.error());
    ncu_ratio = *v;
  }

  Json out;
  out["device"] = device_json(dev);
  out["plan"] = plan_summary_json(*plan);
  if (stage) out["stage"] = stage_json(*stage, *launch);
  out["dtype"] = o.element_bytes == 4 ? "f32" : "f16";
  out["layout"] = std::string(o.a_order == MatrixOrder::RowMajor ? "t" : "n") +
                  (o.b_order == MatrixOrder::ColumnMajor ? "n" : "t");
  out["c_layout"] = o.c_order == MatrixOrder::ColumnMajor ? "col" : "row";
  out["blocks_per_sm"] = blocks_per_sm;
  out["hit_rate"] = r->hit_rate;
  out["hit_rate_with_far_lookups"] = r->hit_rate_with_far;
  out["clock"] = r->coresident_clock ? "older-first (2 blocks per SM, l2_progress.h)" : "timeline";
  out["dram_bytes_read"] = r->dram_bytes_read;
  out["dram_bytes_written"] = r->dram_bytes_written;
  out["dirty_bytes_at_end"] = r->dirty_bytes_at_end;
  out["compulsory_read_bytes"] = r->compulsory_read_bytes;
  const auto& c = r->counters;
  out["read_sector_lookups"] = c.read_lookups;
  out["read_sector_hits"] = c.read_hits;
  out["far_sector_lookups"] = c.far_lookups;
  out["far_sector_hits"] = c.far_hits;
  out["write_sectors"] = c.write_sectors;
  out["global_load"] = o.global_load == GlobalLoad::CpAsync ? "cp.async" : o.global_load == GlobalLoad::Tma ? "tma" : "ldg";
  out["read_requests_missed"] = c.read_requests_missed;
  out["extra_tag_lookups"] = r->extra_tag_lookups;
  if (ncu_ratio) out["ncu_lookup_hit_over_op_read"] = *ncu_ratio;
  out["relative_time"] = r->makespan;
  out["hit_rate_over_time"] = r->hit_rate_over_time;
  out["bucket_end_time"] = r->bucket_end_time;
  if (read_int(a, "--heat", 0, 1, 1)) {
    if (r->heat_maps_omitted) {
      out["heat_maps"] = "omitted: too many tiles";
    } else {
      out["a_tiles"] = heat_json(r->a_tiles);
      out["b_tiles"] = heat_json(r->b_tiles);
    }
    Json ct;
    ct["shape"] = {plan->tiled_shape.m, plan->tiled_shape.n};
    ct["dram_sectors"] = r->c_tile_dram_sectors;
    out["c_tiles"] = ct;
  }
  out["model"] =
      "hit_rate = 1 - near-partition read misses / sectors read (ncu: 1 - lts__t_sectors_srcunit_tex_op_read_lookup_miss "
      "/ lrc__request_sectors_op_read_coalescable; not lookup_hit / ..._op_read, which the L2 request coalescer skews: "
      "kernels/lab/L2_VALIDATION.md; with --lrc-merged, ncu_lookup_hit_over_op_read predicts that ratio); 32 B sectors, 128 B lines, LRU sets; loads of one instant that name the same tile merge; "
      "see sim/include/gemmlab/l2_model.h";
  return out;
}

}  // namespace gemmlab::cli
