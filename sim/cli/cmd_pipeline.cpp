// gemmlab sim pipeline: one warp's main-loop events in time, with the shared stages they touch.
#include "gemmlab/pipeline_trace.h"
#include "sched_options.h"

namespace gemmlab::cli {

Json cmd_pipeline(const Args& a) {
  a.reject_unknown({"--json", "--kind", "--k-iterations", "--warp-k-steps", "--global-latency",
                    "--shared-latency", "--math-cost", "--tiles", "--epilogue-cost"});
  auto spec = parse_pipeline_kind(a.str("--kind"));
  if (!spec) throw CliError(spec.error());
  PipelineSpec s = *spec;
  s.k_iterations = read_int(a, "--k-iterations", 1, kMaxTraceKIterations, 0);
  if (!a.has("--k-iterations")) throw CliError("missing required option --k-iterations");
  s.warp_k_steps = a.has("--warp-k-steps") ? read_int(a, "--warp-k-steps", 1, 64, 1) : 0;  // 0: the kind's default
  s.global_latency = read_number(a, "--global-latency", s.global_latency);
  s.shared_latency = read_number(a, "--shared-latency", s.shared_latency);
  s.math_cost = read_number(a, "--math-cost", s.math_cost);
  if (a.has("--tiles") || a.has("--epilogue-cost")) {
    if (!s.warp_specialized()) throw CliError("--tiles and --epilogue-cost apply to warp-specialized:K and ping-pong:K");
    s.tiles = read_int(a, "--tiles", 1, kMaxTraceKIterations, s.tiles);
    s.epilogue_cost = read_number(a, "--epilogue-cost", s.epilogue_cost);
  }
  auto t = trace_pipeline(s);
  if (!t) throw CliError(t.error());
  Json out;
  out["kind"] = pipeline_kind_name(t->spec);
  out["stages"] = t->spec.stages;
  out["k_iterations"] = t->spec.k_iterations;
  out["warp_k_steps"] = t->spec.warp_k_steps;
  out["latencies"] = {{"global", t->spec.global_latency}, {"shared", t->spec.shared_latency},
                      {"math", t->spec.math_cost}};
  Json ev = Json::array();
  for (const auto& e : t->events) {
    Json j;
    j["kind"] = trace_event_kind_name(e.kind);
    j["label"] = e.label;
    j["k_tile"] = e.k_tile;
    j["k_group"] = e.k_group;
    j["smem_read"] = e.smem_read;
    j["smem_write"] = e.smem_write;
    j["reg_buffer"] = e.reg_buffer;
    j["async"] = e.async;
    j["predicated_off"] = e.predicated_off;
    if (e.wait_pending >= 0) j["wait_pending"] = e.wait_pending;
    if (e.role >= 0) j["warpgroup"] = e.role;
    if (e.barrier >= 0) {
      j["mbarrier"] = std::string(e.full_barrier ? "full" : "empty");
      j["mbarrier_stage"] = e.barrier;
    }
    if (e.parity >= 0) j["parity"] = e.parity;
    if (e.tx_bytes > 0) j["tx_bytes"] = e.tx_bytes;
    j["start"] = e.start;
    j["end"] = e.end;
    ev.push_back(std::move(j));
  }
  out["events"] = std::move(ev);
  if (t->spec.warp_specialized()) {
    out["consumers"] = t->spec.consumers;
    out["tiles"] = t->spec.tiles;
    Json ph = Json::array();
    for (const auto& p : t->phases)
      ph.push_back({{"mbarrier", p.full ? "full" : "empty"}, {"stage", p.stage}, {"phase", p.phase},
                    {"k_tile", p.k_tile}, {"completed", p.completed}});
    out["phases"] = std::move(ph);
  }
  out["total_time"] = t->total_time;
  out["math_busy"] = t->math_busy;
  out["math_utilisation"] = t->total_time > 0 ? t->math_busy / t->total_time : 0.0;
  out["note"] = t->spec.warp_specialized()
                    ? "one lane per warpgroup (0 producer, 1.. consumers); times are relative (see pipeline_trace.h)"
                    : "every warp of the block runs this sequence; times are relative (see pipeline_trace.h)";
  return out;
}

}  // namespace gemmlab::cli
