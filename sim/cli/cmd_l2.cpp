// gemmlab sim l2: replay a whole GEMM through the L2 model.
#include <optional>

#include "gemmlab/l2_model.h"
#include "sched_options.h"

namespace gemmlab::cli {

static Json heat_json(const TileHeat& h) {
  Json j;
  j["shape"] = {h.rows, h.cols};
  j["loads"] = h.loads;
  j["dram_sectors"] = h.dram_sectors;
  return j;
}

Json cmd_l2(const Args& a) {
  a.reject_unknown(merge({kPlanOptions, kDeviceOptions, kCostOptions,
                          {"--json", "--dtype", "--layout", "--blocks-per-sm", "--threads", "--regs", "--smem",
                           "--buckets", "--heat", "--c-dtype", "--c-layout", "--coresident", "--global-load",
                           "--lrc-merged"}}));
  const DeviceDesc dev = read_device(a);
  int blocks_per_sm = 1;
  const bool resources = a.has("--threads") || a.has("--regs") || a.has("--smem");
  if (resources && a.has("--blocks-per-sm")) throw CliError("give either --blocks-per-sm or --threads/--regs/--smem");
  if (resources) {
    if (!a.has("--threads") || !a.has("--regs") || !a.has("--smem"))
      throw CliError("occupancy needs all of --threads, --regs and --smem");
    KernelResources k{read_int(a, "--threads", 1, 1 << 20, 0), read_int(a, "--regs", 1, 1 << 20, 0),
                      read_int(a, "--smem", 0, 1 << 30, 0)};
    auto occ = compute_occupancy(dev, k);
    if (!occ) throw CliError(occ.error());
    blocks_per_sm = occ->blocks_per_sm;
  } else {
    blocks_per_sm = read_int(a, "--blocks-per-sm", 1, dev.max_blocks_per_sm, 1);
  }
  PlanRequest rq = read_plan_request(a, true);
  rq.sms = dev.sms;
  rq.sm_occupancy = blocks_per_sm;
  auto plan = make_block_plan(rq);
  if (!plan) throw CliError(plan.error());
  auto tl = simulate_timeline(*plan, dev.sms, blocks_per_sm, read_cost_model(a));
  if (!tl) throw CliError(tl.error());

  L2ReplayOptions o;
  const std::string dtype = a.str("--dtype", "f16");
  if (dtype == "f16")
    o.element_bytes = 2;
  else if (dtype == "f32")
    o.element_bytes = 4;
  else
    throw CliError("--dtype is f16 or f32 (got '" + dtype + "')");
  // BLAS letters, A then B: N = column-major as stored, T = transposed (row-major A, row-major B).
  const std::string layout = a.str("--layout", "tn");
  if (layout.size() != 2 || (layout[0] != 'n' && layout[0] != 't') || (layout[1] != 'n' && layout[1] != 't'))
    throw CliError("--layout is two BLAS letters for A and B: nn, nt, tn or tt (got '" + layout + "')");
  o.a_order = layout[0] == 't' ? MatrixOrder::RowMajor : MatrixOrder::ColumnMajor;
  o.b_order = layout[1] == 'n' ? MatrixOrder::ColumnMajor : MatrixOrder::RowMajor;
  // C: the lab's kernels write f32, column-major (--c-dtype f32 --c-layout col).
  const std::string c_dtype = a.str("--c-dtype", dtype);
  if (c_dtype != "f16" && c_dtype != "f32") throw CliError("--c-dtype is f16 or f32 (got '" + c_dtype + "')");
  o.c_element_bytes = c_dtype == "f16" ? 2 : 4;
  const std::string c_layout = a.str("--c-layout", "row");
  if (c_layout != "row" && c_layout != "col")
    throw CliError("--c-layout is row or col (column-major; got '" + c_layout + "')");
  o.c_order = c_layout == "col" ? MatrixOrder::ColumnMajor : MatrixOrder::RowMajor;
  // Two blocks per SM: the older one runs faster (measured, l2_progress.h); 'even' shares the SM.
  const std::string coresident = a.str("--coresident", "older-first");
  if (coresident != "older-first" && coresident != "even")
    throw CliError("--coresident is older-first or even (got '" + coresident + "')");
  o.coresident.enabled = coresident == "older-first";
  // Only ncu's look-up counts depend on it: a missed cp.async request is also counted as a hit.
  const std::string load = a.str("--global-load", "ldg");
  if (load != "ldg" && load != "cp.async") throw CliError("--global-load is ldg or cp.async (got '" + load + "')");
  o.global_load = load == "cp.async" ? GlobalLoad::CpAsync : GlobalLoad::Ldg;
  o.buckets = read_int(a, "--buckets", 1, 10000, 50);
  auto r = replay_l2(*plan, *tl, dev, o);
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
  out["dtype"] = dtype;
  out["layout"] = layout;
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
  out["global_load"] = load;
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
      "sim/L2_VALIDATION.md; with --lrc-merged, ncu_lookup_hit_over_op_read predicts that ratio); 32 B sectors, 128 B lines, LRU sets; loads of one instant that name the same tile merge; "
      "see sim/include/gemmlab/l2_model.h";
  return out;
}

}  // namespace gemmlab::cli
