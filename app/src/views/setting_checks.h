// The checks a view's settings are built from (views/<id>/<id>_spec.cpp): each returns nullopt for
// a valid value, else the rule it breaks ("must be between 0 and 31").
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "views/view_spec.h"

namespace gemmlab::app::checks {

std::string quoted_list(const std::vector<std::string>& items);  // "a", "b", "c"

SettingCheck element_bits_8_16_32();
SettingCheck one_of(std::vector<std::string> values);
SettingCheck integer(long long lo, long long hi);
SettingCheck number(double lo, double hi);
SettingCheck int_tuple(size_t n, long long lo, long long hi, std::string shape);  // shape: "[row, col]"
SettingCheck boolean();
SettingCheck string_value(std::string what);
SettingCheck swizzle_params();  // CuTe Swizzle<B,M,S> as [B, M, S]

// A string the simulator's own parser accepts (the names of the `gemmlab sim` CLI); its message
// otherwise.
template <class Parse>
SettingCheck parsed_by(Parse parse) {
  return [parse](const Json& v) -> std::optional<std::string> {
    if (!v.is_string()) return "must be a string";
    auto r = parse(v.get<std::string>());
    if (!r) return "is not valid: " + r.error();
    return std::nullopt;
  };
}

}  // namespace gemmlab::app::checks
