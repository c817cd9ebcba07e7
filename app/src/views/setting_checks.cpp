#include "views/setting_checks.h"

#include <algorithm>

#include "gemmlab/swizzle.h"

namespace gemmlab::app::checks {

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", \"" : "\"") + items[i] + "\"";
  return out;
}

SettingCheck element_bits_8_16_32() {
  return [](const Json& v) -> std::optional<std::string> {
    if (v.is_number_integer() && (v == 8 || v == 16 || v == 32)) return std::nullopt;
    return "must be 8, 16 or 32";
  };
}

SettingCheck one_of(std::vector<std::string> values) {
  return [values](const Json& v) -> std::optional<std::string> {
    if (v.is_string() && std::find(values.begin(), values.end(), v.get<std::string>()) != values.end())
      return std::nullopt;
    return "must be one of " + quoted_list(values);
  };
}

SettingCheck integer(long long lo, long long hi) {
  return [=](const Json& v) -> std::optional<std::string> {
    if (!v.is_number_integer()) return "must be an integer";
    const long long x = v.get<long long>();
    if (x < lo || x > hi)
      return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    return std::nullopt;
  };
}

SettingCheck number(double lo, double hi) {
  return [=](const Json& v) -> std::optional<std::string> {
    if (!v.is_number()) return "must be a number";
    const double x = v.get<double>();
    if (x < lo || x > hi) return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    return std::nullopt;
  };
}

SettingCheck int_tuple(size_t n, long long lo, long long hi, std::string shape) {
  return [=](const Json& v) -> std::optional<std::string> {
    const std::string msg = "must be " + shape + ": " + std::to_string(n) +
                            " integers between " + std::to_string(lo) + " and " + std::to_string(hi);
    if (!v.is_array() || v.size() != n) return msg;
    for (const auto& x : v)
      if (!x.is_number_integer() || x.get<long long>() < lo || x.get<long long>() > hi) return msg;
    return std::nullopt;
  };
}

SettingCheck boolean() {
  return [](const Json& v) -> std::optional<std::string> {
    if (!v.is_boolean()) return "must be true or false";
    return std::nullopt;
  };
}

SettingCheck string_value(std::string what) {
  return [=](const Json& v) -> std::optional<std::string> {
    if (!v.is_string() || v.get<std::string>().empty()) return "must be " + what;
    return std::nullopt;
  };
}

SettingCheck swizzle_params() {
  return [](const Json& v) -> std::optional<std::string> {
    const std::string msg = "must be [B, M, S] with |S| >= B >= 0 and M >= 0 (CuTe Swizzle<B,M,S>)";
    if (!v.is_array() || v.size() != 3) return msg;
    for (const auto& x : v)
      if (!x.is_number_integer() || x.get<long long>() < -30 || x.get<long long>() > 30) return msg;
    if (!swizzle_valid({v[0].get<int>(), v[1].get<int>(), v[2].get<int>()})) return msg;
    return std::nullopt;
  };
}

}  // namespace gemmlab::app::checks
