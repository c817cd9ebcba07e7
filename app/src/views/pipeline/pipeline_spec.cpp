// The pipeline view's settings, predict facts and rules (views/view_spec.h); drawn by pipeline_view.cpp.
#include "views/setting_checks.h"

#include <algorithm>

#include "gemmlab/pipeline_trace.h"

namespace gemmlab::app {

using namespace checks;

namespace {

// [kind, k_tile]: the cursor at the first event of that kind (a trace_event_kind_name) and k-tile
// (-1: any), e.g. ["math", 0] for the first MMA, ["wait", 1].
SettingCheck event_at() {
  return [](const Json& v) -> std::optional<std::string> {
    std::vector<std::string> kinds;
    for (int k = 0; k <= int(TraceEventKind::MbarrierArrive); ++k)
      kinds.push_back(trace_event_kind_name(TraceEventKind(k)));
    const std::string msg = "must be [kind, k_tile]: kind one of " + quoted_list(kinds) + ", k_tile -1 (any) or more";
    if (!v.is_array() || v.size() != 2 || !v[0].is_string() || !v[1].is_number_integer() || v[1].get<long long>() < -1 ||
        v[1].get<long long>() > (1 << 20))
      return msg;
    if (std::find(kinds.begin(), kinds.end(), v[0].get<std::string>()) == kinds.end()) return msg;
    return std::nullopt;
  };
}

}  // namespace

const ViewSpec& pipeline_view_spec() {
  static const ViewSpec spec = {
      "pipeline",
      "Pipeline",
      {{"kind", parsed_by([](const std::string& x) { return parse_pipeline_kind(x); })},
        {"k_iterations", integer(1, kMaxTraceKIterations)},
        {"tiles", integer(1, 64)},
        {"global_latency", number(0, 1000)},
        {"cursor", integer(0, 1 << 20)},
        {"event", event_at()}},
      {
          {"pipeline.timeline", "the timeline, the shared-memory stages and the event list"},
      },
      {
          {"pipeline.stages_in_flight", "the pipeline's loop (the code of the step)",
       {"pipeline.timeline"}, {}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
