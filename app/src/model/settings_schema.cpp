#include "model/settings_schema.h"
#include "model/json_text.h"
#include "model/predict_rules.h"

#include <algorithm>
#include <functional>
#include <map>

#include "gemmlab/bank_scenario.h"
#include "gemmlab/device_presets.h"
#include "gemmlab/fragment_analysis.h"
#include "gemmlab/pipeline_trace.h"
#include "gemmlab/raster_analysis.h"

namespace gemmlab::app {
namespace {

using Check = std::function<std::optional<std::string>(const Json&)>;

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", \"" : "\"") + items[i] + "\"";
  return out;
}

Check element_bits_8_16_32() {
  return [](const Json& v) -> std::optional<std::string> {
    if (v.is_number_integer() && (v == 8 || v == 16 || v == 32)) return std::nullopt;
    return "must be 8, 16 or 32";
  };
}

Check one_of(std::vector<std::string> values) {
  return [values](const Json& v) -> std::optional<std::string> {
    if (v.is_string() && std::find(values.begin(), values.end(), v.get<std::string>()) != values.end())
      return std::nullopt;
    return "must be one of " + quoted_list(values);
  };
}

Check integer(long long lo, long long hi) {
  return [=](const Json& v) -> std::optional<std::string> {
    if (!v.is_number_integer()) return "must be an integer";
    const long long x = v.get<long long>();
    if (x < lo || x > hi)
      return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    return std::nullopt;
  };
}

Check number(double lo, double hi) {
  return [=](const Json& v) -> std::optional<std::string> {
    if (!v.is_number()) return "must be a number";
    const double x = v.get<double>();
    if (x < lo || x > hi) return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    return std::nullopt;
  };
}

Check int_tuple(size_t n, long long lo, long long hi, std::string shape) {
  return [=](const Json& v) -> std::optional<std::string> {
    const std::string msg = "must be " + shape + ": " + std::to_string(n) +
                            " integers between " + std::to_string(lo) + " and " + std::to_string(hi);
    if (!v.is_array() || v.size() != n) return msg;
    for (const auto& x : v)
      if (!x.is_number_integer() || x.get<long long>() < lo || x.get<long long>() > hi) return msg;
    return std::nullopt;
  };
}

Check boolean() {
  return [](const Json& v) -> std::optional<std::string> {
    if (!v.is_boolean()) return "must be true or false";
    return std::nullopt;
  };
}

Check string_value(std::string what) {
  return [=](const Json& v) -> std::optional<std::string> {
    if (!v.is_string() || v.get<std::string>().empty()) return "must be " + what;
    return std::nullopt;
  };
}

// A string the simulator's own parser accepts (the names of the `gemmlab sim` CLI); its message
// otherwise.
template <class Parse>
Check parsed_by(Parse parse) {
  return [parse](const Json& v) -> std::optional<std::string> {
    if (!v.is_string()) return "must be a string";
    auto r = parse(v.get<std::string>());
    if (!r) return "is not valid: " + r.error();
    return std::nullopt;
  };
}

Check swizzle_params() {
  return [](const Json& v) -> std::optional<std::string> {
    const std::string msg = "must be [B, M, S] with |S| >= B >= 0 and M >= 0 (CuTe Swizzle<B,M,S>)";
    if (!v.is_array() || v.size() != 3) return msg;
    for (const auto& x : v)
      if (!x.is_number_integer() || x.get<long long>() < -30 || x.get<long long>() > 30) return msg;
    if (!swizzle_valid({v[0].get<int>(), v[1].get<int>(), v[2].get<int>()})) return msg;
    return std::nullopt;
  };
}

std::vector<std::string> all_stage_ids() {
  std::vector<std::string> ids;
  for (const StageDesc& s : stage_table()) ids.push_back(s.id);
  return ids;
}

// Stages the Grid view can launch: those with a threadblock tile.
std::vector<std::string> tiled_stage_ids() {
  std::vector<std::string> ids;
  for (const StageDesc& s : stage_table())
    if (s.has_tile()) ids.push_back(s.id);
  return ids;
}

Check stage_list() {
  return [](const Json& v) -> std::optional<std::string> {
    std::vector<std::string> ids;
    for (const StageDesc& s : stage_table()) ids.push_back(s.id);
    ids.push_back("cublas-fp32");
    ids.push_back("cublas-fp16");
    ids.push_back("im2col-cublas");
    ids.push_back("cudnn");
    if (!v.is_array()) return "must be a list of stage ids: " + quoted_list(ids);
    for (const auto& x : v)
      if (!x.is_string() || std::find(ids.begin(), ids.end(), x.get<std::string>()) == ids.end())
        return "has " + json_text(x) + ", which is not a stage; stages are " + quoted_list(ids);
    return std::nullopt;
  };
}

struct KeySpec {
  std::string key;
  Check check;
};

const std::map<std::string, std::vector<KeySpec>>& schema() {
  static const std::map<std::string, std::vector<KeySpec>> s = {
      {"threadmap",
       {{"map", one_of({"stripmined", "warp-raked", "warp-striped"})},
        {"shape", int_tuple(2, 1, 4096, "[C, S]")},
        {"threads", integer(1, 4096)},
        {"access", integer(1, 64)},
        {"warp_arrangement", int_tuple(2, 1, 32, "[c, s]")},
        {"highlight_thread", integer(-1, 4095)},
        {"highlight_warp", integer(-1, 127)},
        {"iteration", integer(-1, 1 << 20)},
        {"color_by", one_of({"thread", "warp"})}}},
      {"fragments",
       {{"op", parsed_by([](const std::string& x) { return parse_fragment_op(x); })},
        {"operand", one_of({"a", "b", "c"})},
        {"highlight_lane", integer(-1, 127)}}},  // wgmma: a thread of the warpgroup
      {"banks",
       {{"op", parsed_by([](const std::string& x) { return parse_smem_op(x); })},
        {"layout", parsed_by([](const std::string& x) { return parse_smem_layout(x); })},
        {"tile", int_tuple(2, 1, 4096, "[rows, cols]")},
        {"element_bits", element_bits_8_16_32()},
        {"pad_bytes", integer(0, 1024)},
        {"swizzle", swizzle_params()},
        {"pattern", parsed_by([](const std::string& x) { return parse_bank_pattern(x); })},
        {"origin", int_tuple(2, 0, 4095, "[row, col]")},
        {"compare", boolean()}}},
      {"grid",
       {{"stage", one_of(tiled_stage_ids())},
        {"problem", int_tuple(3, 1, gemmlab::kMaxProblemExtent, "[M, N, K]")},
        {"tile", int_tuple(3, 1, 4096, "[TM, TN, TK]")},
        {"order", parsed_by([](const std::string& x) { return parse_order(x); })},
        {"split_k", integer(1, 1024)},
        {"split_k_mode", one_of({"serial", "parallel"})},
        {"stream_k", boolean()},
        {"device", parsed_by([](const std::string& x) { return device_preset(x); })},
        {"threads", integer(1, 1024)},
        {"regs", integer(1, 255)},
        {"smem", integer(0, 1 << 20)},
        {"dtype", one_of({"f16", "f32"})},
        {"color_by", one_of({"order", "wave", "sm", "reuse"})},
        {"time", number(0.0, 1.0)},
        {"block_detail", boolean()},
        {"highlight_warp", integer(-1, 7)}}},
      {"pipeline",
       {{"kind", parsed_by([](const std::string& x) { return parse_pipeline_kind(x); })},
        {"k_iterations", integer(1, kMaxTraceKIterations)},
        {"tiles", integer(1, 64)},
        {"global_latency", number(0, 1000)},
        {"cursor", integer(0, 1 << 20)}}},
      {"kernels",
       {{"stages", stage_list()},
        {"size", int_tuple(3, 1, gemmlab::kMaxProblemExtent, "[M, N, K]")},
        {"conv", int_tuple(10, 0, 1 << 20, "[N, H, W, C, K, R, S, pad, stride, dilation]")},
        {"device", one_of({"h100", "h200", "a100", "rtx4090"})}}},
      {"measured", {{"csv", string_value("a path of an ncu CSV file under assets/")}}},
      {"conv",
       {{"problem", int_tuple(10, 0, 65536, "[N, H, W, C, K, R, S, pad, stride, dilation]")},
        {"element", one_of({"f16", "s8", "s4"})},
        {"copy", one_of({"cp.async", "tma"})},
        {"row", integer(0, 1 << 30)},
        {"block", integer(0, 1 << 24)},
        {"k_tile", integer(0, 1 << 20)},
        {"sms", integer(1, 1024)}}},
      {"gmma",
       {{"swizzle", one_of({"none", "32B", "64B", "128B"})},
        {"major", one_of({"K", "MN"})},
        {"shape", int_tuple(2, 1, 1024, "[rows, K]")},
        {"element_bits", element_bits_8_16_32()},
        {"k_step", integer(0, 64)},
        {"operand_rows", integer(8, 256)},
        {"select", int_tuple(2, -1, 1024, "[row, col]")},
        {"global", int_tuple(2, 1, 1 << 30, "[inner, outer] extent of the operand")},
        {"start", int_tuple(2, -(1 << 30), 1 << 30, "[inner, outer] start of the box")}}},
      {"code",
       {{"stage", one_of(all_stage_ids())},
        {"file", string_value("a file name of the stage's sources (e.g. \"09_ldmatrix.cuh\")")},
        {"lines", int_tuple(2, 1, 100000, "[first, last] line of `file` (default: the stage's .cu file)")}}},
  };
  return s;
}

}  // namespace

const std::vector<std::string>& known_view_ids() {
  static const std::vector<std::string> ids = {"threadmap", "fragments", "banks", "grid", "pipeline",
                                               "kernels",   "measured",  "conv",  "gmma", "code"};
  return ids;
}

std::vector<std::string> known_setting_keys(const std::string& view) {
  std::vector<std::string> keys;
  auto it = schema().find(view);
  if (it != schema().end())
    for (const auto& k : it->second) keys.push_back(k.key);
  return keys;
}

std::optional<std::string> check_view_setting(const std::string& view, const std::string& key,
                                              const Json& value) {
  auto it = schema().find(view);
  if (it == schema().end())
    return "unknown view \"" + view + "\"; views are " + quoted_list(known_view_ids());
  for (const auto& spec : it->second) {
    if (spec.key != key) continue;
    if (auto problem = spec.check(value)) return view + "." + key + " " + *problem;
    return std::nullopt;
  }
  return "unknown key \"" + key + "\" for view " + view + "; its keys are " +
         quoted_list(known_setting_keys(view));
}

const std::vector<std::string>& known_predict_quantities() {
  static const std::vector<std::string> q = [] {
    std::vector<std::string> v;
    for (const auto& r : predict_rules()) v.push_back(r.quantity);
    return v;
  }();
  return q;
}

}  // namespace gemmlab::app
