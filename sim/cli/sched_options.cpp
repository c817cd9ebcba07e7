#include "sched_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace gemmlab::cli {

std::set<std::string> merge(std::initializer_list<std::set<std::string>> sets) {
  std::set<std::string> out;
  for (const auto& s : sets) out.insert(s.begin(), s.end());
  return out;
}

int read_int(const Args& a, const std::string& key, long long lo, long long hi, long long fallback) {
  const long long v = a.integer(key, fallback);
  if (v < lo || v > hi)
    throw CliError(key + " must be " + std::to_string(lo) + ".." + std::to_string(hi) + " (got " + std::to_string(v) + ")");
  return static_cast<int>(v);
}

double read_number(const Args& a, const std::string& key, double fallback) {
  if (!a.has(key)) return fallback;
  const std::string t = a.str(key);
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || errno == ERANGE || *end != '\0' || !std::isfinite(v))
    throw CliError(key + ": '" + t + "' is not a number");
  return v;
}

static int checked_extent(long long v, const char* what) {
  if (v <= 0 || v > kMaxProblemExtent)
    throw CliError(std::string(what) + " must be 1.." + std::to_string(kMaxProblemExtent) + " (got " +
                   std::to_string(v) + ")");
  return static_cast<int>(v);
}

PlanRequest read_plan_request(const Args& a, bool need_tk) {
  PlanRequest rq;
  const auto p = a.int_tuple("--problem", 3);
  rq.problem = {checked_extent(p[0], "--problem M"), checked_extent(p[1], "--problem N"),
                checked_extent(p[2], "--problem K")};
  const auto t = need_tk ? a.int_tuple("--tile", 3) : a.int_tuple("--tile", 2, 3);
  rq.tile.m = checked_extent(t[0], "--tile TM");
  rq.tile.n = checked_extent(t[1], "--tile TN");
  const bool split = a.has("--split-k");
  if (t.size() == 3) {
    rq.tile.k = checked_extent(t[2], "--tile TK");
  } else {
    if (split) throw CliError("--split-k needs the k tile: give --tile TM,TN,TK");
    rq.tile.k = 32;  // no TK given: it only matters for split-k, which requires it
  }
  auto order = parse_order(a.str("--order", "launch"));
  if (!order) throw CliError(order.error());
  rq.order = *order;
  const bool stream_k = a.has("--stream-k");
  if (stream_k && split) throw CliError("choose one of --split-k S and --stream-k");
  if (a.has("--split-k-mode") && !split) throw CliError("--split-k-mode needs --split-k S");
  if (split) {
    rq.split_k = read_int(a, "--split-k", 1, 65535, 1);
    const std::string mode = a.str("--split-k-mode", "serial");
    if (mode == "serial")
      rq.partition = Partition::SplitKSerial;
    else if (mode == "parallel")
      rq.partition = Partition::SplitKParallel;
    else
      throw CliError("--split-k-mode is serial or parallel (got '" + mode + "')");
  }
  if (stream_k) rq.partition = Partition::StreamK;
  return rq;
}

DeviceDesc read_device(const Args& a) {
  auto d = device_preset(a.str("--device", "h100"));
  if (!d) throw CliError(d.error());
  DeviceDesc dev = *d;
  dev.sms = read_int(a, "--sms", 1, 4096, dev.sms);
  if (a.has("--l2-bytes")) {
    const long long b = a.integer("--l2-bytes");
    if (b <= 0 || b > (1LL << 33)) throw CliError("--l2-bytes must be 1 .. 8 GiB");
    dev.l2_bytes = b;
  }
  dev.l2_ways = read_int(a, "--l2-ways", 1, 16, dev.l2_ways);
  dev.l2_partitions = read_int(a, "--l2-partitions", 1, 2, dev.l2_partitions);
  if (auto e = validate_device(dev); !e.empty()) throw CliError(e);
  return dev;
}

CostModel read_cost_model(const Args& a) {
  CostModel c;
  c.iter_cost = read_number(a, "--iter-cost", c.iter_cost);
  c.epilogue_cost = read_number(a, "--epilogue-cost", c.epilogue_cost);
  c.partial_cost = read_number(a, "--partial-cost", c.partial_cost);
  if (auto e = validate_cost_model(c); !e.empty()) throw CliError(e);
  return c;
}

Json device_json(const DeviceDesc& d) {
  Json j;
  j["name"] = d.name;
  j["compute_capability"] = d.compute_capability;
  j["sms"] = d.sms;
  j["max_threads_per_sm"] = d.max_threads_per_sm;
  j["max_blocks_per_sm"] = d.max_blocks_per_sm;
  j["regs_per_sm"] = d.regs_per_sm;
  j["smem_per_sm"] = d.smem_per_sm;
  j["max_smem_per_block"] = d.max_smem_per_block;
  j["l2_bytes"] = d.l2_bytes;
  j["l2_partitions"] = d.l2_partitions;
  j["l2_ways"] = d.l2_ways;
  j["notes"] = d.notes;
  return j;
}

static const char* partition_name(Partition p) {
  switch (p) {
    case Partition::None: return "none";
    case Partition::SplitKSerial: return "split-k-serial";
    case Partition::SplitKParallel: return "split-k-parallel";
    case Partition::StreamK: return "stream-k";
  }
  return "?";
}

Json plan_summary_json(const BlockPlan& p) {
  Json j;
  j["order"] = p.has_streamk ? "stream-k" : order_name(p.order);
  j["partition"] = partition_name(p.partition);
  j["grid"] = {p.grid.x, p.grid.y, p.grid.z};
  j["tiled_shape"] = {p.tiled_shape.m, p.tiled_shape.n, p.tiled_shape.k};
  j["k_iterations"] = p.k_iterations;
  if (p.has_streamk) {
    const auto& s = p.streamk;
    Json k;
    k["output_tiles"] = s.output_tiles();
    k["iters_per_tile"] = s.iters_per_tile;
    k["dp_tiles"] = s.dp_tiles;
    k["sk_tiles"] = s.sk_tiles;
    k["sk_blocks"] = s.sk_blocks;
    k["sk_waves"] = s.sk_waves;
    k["sk_regions"] = s.sk_regions;
    k["sk_iters_per_normal_block"] = s.sk_iters_per_normal_block;
    k["sk_big_blocks_per_region"] = s.sk_big_blocks_per_region;
    k["dp_blocks"] = s.dp_blocks;
    k["dp_first_wave_tiles"] = s.dp_first_wave_tiles;
    k["cohort_raster"] = s.cohort_raster;
    k["remap_block_indices"] = s.remap_block_indices;
    k["cutlass_would_use_reduction_wave"] = s.cutlass_would_use_reduction_wave;
    k["note"] = "fix-up modelled in the finishing block; CUTLASS's separate reduction wave is not modelled";
    j["stream_k"] = k;
  }
  return j;
}

}  // namespace gemmlab::cli
