// The FP8 accumulator view's settings, predict facts and rules (views/view_spec.h); drawn by
// fp8accum_view.cpp from gemmlab/fp8_promotion.h's study.
#include "views/setting_checks.h"

#include "gemmlab/fp8_promotion.h"

namespace gemmlab::app {

using namespace checks;

namespace {

// Promotion intervals in k-blocks: 1..1024, or 0 for never; at most 8 lines.
SettingCheck interval_list() {
  return [](const Json& v) -> std::optional<std::string> {
    const std::string msg = "must be a list of 1 to 8 intervals in k-blocks (1..1024), 0 for no promotion, e.g. [1, 2, 4, 0]";
    if (!v.is_array() || v.empty() || v.size() > 8) return msg;
    for (const auto& x : v)
      if (!x.is_number_integer() || x.get<long long>() < 0 || x.get<long long>() > 1024) return msg;
    return std::nullopt;
  };
}

}  // namespace

const ViewSpec& fp8accum_view_spec() {
  static const ViewSpec spec = {
      "fp8accum",
      "FP8 accumulator",
      {{"intervals", interval_list()},
        {"k_range", int_tuple(2, 128, 65536, "[K min, K max], multiples of 128")},
        {"data", parsed_by([](const std::string& x) { return fp8::parse_fp8_data(x); })},
        {"error_of", parsed_by([](const std::string& x) { return fp8::parse_fp8_error_of(x); })},
        {"columns", integer(1, 1024)},
        {"seed", integer(0, 1LL << 30)},
        {"max_lines", boolean()}},
      {
          {"fp8accum.none_curve", "the line without promotion and its values"},
      },
      {
          {"fp8accum.none_error_pct", "the data, K and the accumulator's rule (14 significant bits, terms cut at 2^(E-13))",
           {"fp8accum.none_curve"}, {}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
