// What a lesson step may set in each view: the table "Views and their settings" of
// lessons/FORMAT.md as data, gathered from each view's spec (app/src/views/<id>/<id>_spec.cpp).
// The lesson checker validates against it; the views read the same keys.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gemmlab/stage_desc.h"  // the stage table: kernels.stages and predict steps name its ids

namespace gemmlab::app {

using Json = nlohmann::json;

// The view ids a step's `view = "..."` and `[step.<view>]` may name, in tab order.
const std::vector<std::string>& known_view_ids();

// Keys the view accepts, in FORMAT.md's order (for "known keys: ..." messages).
std::vector<std::string> known_setting_keys(const std::string& view);

// nullopt when `value` is a valid setting `key` of `view`, else a message naming the rule
// (e.g. "threadmap.map must be one of \"stripmined\", \"warp-raked\", \"warp-striped\"").
// stage_ids: the kernel registry's ids, for kernels.stages.
std::optional<std::string> check_view_setting(const std::string& view, const std::string& key,
                                              const Json& value);

// The tab title of a view id ("fragments" -> "Fragments"), English (tr() it to show); "?" if none.
const char* view_title(const std::string& id);

// Predict quantities of FORMAT.md's "predict" table.
const std::vector<std::string>& known_predict_quantities();

// Largest sizes the views accept from a lesson or the user: a grid of more cells would not be
// readable and could exhaust memory. The views clamp with a message; the checker reports.
inline constexpr long long kMaxTileElements = 1 << 18;  // thread map / banks tiles

}  // namespace gemmlab::app
