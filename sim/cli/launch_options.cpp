#include "launch_options.h"

#include "sched_options.h"

namespace gemmlab::cli {

namespace {

const StageDesc& read_stage(const Args& a) {
  const std::string id = a.str("--stage");
  if (const StageDesc* s = find_stage_desc(id)) {
    for (const std::string& k : kKernelOptions)
      if (a.has(k))
        throw CliError(k + " describes the kernel, which --stage " + id +
                       " already does (stages.def); drop one of them");
    return *s;
  }
  std::string ids;
  for (const StageDesc& s : stage_table()) ids += std::string(ids.empty() ? "" : ", ") + s.id;
  throw CliError("--stage: no stage '" + id + "'; stages: " + ids);
}

// Problem, order and partition as the flags give them (the tile is the stage's when it has one).
void read_plan_flags(const Args& a, bool with_stage, LaunchSpec& o) {
  if (with_stage) {
    // Only the plan flags that stay meaningful for a fixed kernel.
    const auto p = a.int_tuple("--problem", 3);
    for (int i = 0; i < 3; ++i)
      if (p[i] <= 0 || p[i] > kMaxProblemExtent)
        throw CliError("--problem extents must be 1.." + std::to_string(kMaxProblemExtent));
    o.problem = {int(p[0]), int(p[1]), int(p[2])};
    if (a.has("--order")) {
      auto order = parse_order(a.str("--order"));
      if (!order) throw CliError(order.error());
      o.order = *order;
    }
    if (a.has("--split-k") || a.has("--stream-k") || a.has("--split-k-mode"))
      throw CliError("--stage launches the stage's own partition (split-k picks its slices, stream-k its plan); "
                     "drop --split-k / --stream-k, or describe the launch without --stage");
    return;
  }
  const PlanRequest rq = read_plan_request(a, true);
  o.problem = rq.problem;
  o.tile = rq.tile;
  o.order = rq.order;
  o.partition = rq.partition;
  o.split_k = rq.split_k;
}

void read_resources(const Args& a, bool need_resources, LaunchSpec& o) {
  const bool resources = a.has("--threads") || a.has("--regs") || a.has("--smem");
  if (resources && a.has("--blocks-per-sm")) throw CliError("give either --blocks-per-sm or --threads/--regs/--smem");
  if (resources || need_resources) {
    if (!a.has("--threads") || !a.has("--regs") || !a.has("--smem"))
      throw CliError("occupancy needs all of --threads T --regs R --smem BYTES (per block), or --stage ID");
    o.resources = {read_int(a, "--threads", 1, 1 << 20, 0), read_int(a, "--regs", 1, 1 << 20, 0),
                   read_int(a, "--smem", 0, 1 << 30, 0)};
  } else {
    o.blocks_per_sm = read_int(a, "--blocks-per-sm", 1, 64, 1);
  }
}

void read_operands(const Args& a, LaunchSpec& o) {
  const std::string dtype = a.str("--dtype", "f16");
  if (dtype != "f16" && dtype != "f32") throw CliError("--dtype is f16 or f32 (got '" + dtype + "')");
  o.l2.element_bytes = dtype == "f16" ? 2 : 4;
  // BLAS letters, A then B: N = column-major as stored, T = transposed (row-major A, row-major B).
  const std::string layout = a.str("--layout", "tn");
  if (layout.size() != 2 || (layout[0] != 'n' && layout[0] != 't') || (layout[1] != 'n' && layout[1] != 't'))
    throw CliError("--layout is two BLAS letters for A and B: nn, nt, tn or tt (got '" + layout + "')");
  o.l2.a_order = layout[0] == 't' ? MatrixOrder::RowMajor : MatrixOrder::ColumnMajor;
  o.l2.b_order = layout[1] == 'n' ? MatrixOrder::ColumnMajor : MatrixOrder::RowMajor;
  // C: every kernel of the lab writes f32, column-major; those are the defaults.
  const std::string c_dtype = a.str("--c-dtype", "f32");
  if (c_dtype != "f16" && c_dtype != "f32") throw CliError("--c-dtype is f16 or f32 (got '" + c_dtype + "')");
  o.l2.c_element_bytes = c_dtype == "f16" ? 2 : 4;
  const std::string c_layout = a.str("--c-layout", "col");
  if (c_layout != "row" && c_layout != "col")
    throw CliError("--c-layout is row or col (column-major; got '" + c_layout + "')");
  o.l2.c_order = c_layout == "col" ? MatrixOrder::ColumnMajor : MatrixOrder::RowMajor;
  // Only ncu's look-up counts depend on it: a missed cp.async request is also counted as a hit.
  const std::string load = a.str("--global-load", "ldg");
  if (load != "ldg" && load != "cp.async" && load != "tma")
    throw CliError("--global-load is ldg, cp.async or tma (got '" + load + "')");
  o.l2.global_load = load == "cp.async" ? GlobalLoad::CpAsync : load == "tma" ? GlobalLoad::Tma : GlobalLoad::Ldg;
  o.l2.coresident.enabled = true;
}

}  // namespace

LaunchSpec read_launch_spec(const Args& a, bool need_resources, const StageDesc** stage) {
  LaunchSpec o;
  *stage = nullptr;
  if (a.has("--stage")) {
    const StageDesc& s = read_stage(a);
    *stage = &s;
    read_plan_flags(a, true, o);
    const GemmCoord problem = o.problem;
    const OrderSpec order = o.order;
    const bool order_given = a.has("--order");
    auto spec = stage_launch_spec(s, problem, read_device(a));  // `auto`: the stage it picks there
    if (!spec) throw CliError(spec.error());
    o = *spec;
    if (order_given) o.order = order;
    if (a.has("--blocks-per-sm")) o.blocks_per_sm = read_int(a, "--blocks-per-sm", 1, 64, 1);
  } else {
    read_plan_flags(a, false, o);
    read_resources(a, need_resources, o);
    read_operands(a, o);
  }
  // Two blocks per SM: the older one runs faster (measured, l2_progress.h); 'even' shares the SM.
  if (a.has("--coresident")) {
    const std::string c = a.str("--coresident");
    if (c != "older-first" && c != "even") throw CliError("--coresident is older-first or even (got '" + c + "')");
    o.l2.coresident.enabled = c == "older-first";
  }
  o.cost = read_cost_model(a);
  return o;
}

Json stage_json(const StageDesc& row, const LaunchPlan& plan) {
  // The launch's facts (gemmlab/launch_facts.h): the dispatcher's are those of the stage it picks.
  const LaunchFacts f = launch_facts(row, plan);
  const StageDesc& s = *f.launched;
  Json j;
  j["id"] = row.id;
  j["name"] = row.name;
  j["track"] = track_name(row.track);
  if (f.dispatched()) j["launched"] = {{"id", s.id}, {"name", s.name}};
  j["tile"] = {f.tile.m, f.tile.n, f.tile.k};
  j["threads"] = f.resources.threads;
  j["regs"] = f.resources.regs_per_thread;
  j["smem"] = f.resources.smem_per_block;
  j["loads"] = load_name(s.loads);
  j["coresident"] = coresidency_name(s.coresident);
  j["cluster_m"] = f.cluster_m;
  j["tile_scheduler"] = f.schedule == BlockSchedule::Persistent;  // resident blocks take the tiles
  j["split_k"] = f.split_k;
  j["tiles"] = f.tiles;
  j["blocks"] = f.blocks;
  j["facts"] = f.line;
  return j;
}

}  // namespace gemmlab::cli
