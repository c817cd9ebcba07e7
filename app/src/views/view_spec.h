// What a view says about itself without drawing: its title, the settings a lesson step may give
// it, and the predict facts and rules of its quantities. Each view's <id>_spec.cpp defines
// <id>_view_spec(); views.def lists them. The lesson checker (no ImGui) reads these; the drawing
// half of the view reads the same keys in its apply().
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/predict_rules.h"

namespace gemmlab::app {

using Json = nlohmann::json;

// nullopt when a value is valid, else what it must be ("must be an integer").
using SettingCheck = std::function<std::optional<std::string>(const Json&)>;

struct SettingSpec {
  std::string key;     // "highlight_lane"
  SettingCheck check;
};

struct ViewSpec {
  std::string id;                      // "banks": the folder and the name lessons use
  const char* title = "";              // the tab label, English (a key of the UI catalogue)
  std::vector<SettingSpec> settings;   // in FORMAT.md's order
  std::vector<PredictFact> facts;      // what the view can hide while a predict step is open
  std::vector<PredictRule> rules;      // its predict quantities ("banks.wavefronts")
};

#define GEMMLAB_VIEW(id) const ViewSpec& id##_view_spec();
#include "views/views.def"
#undef GEMMLAB_VIEW

// Every view's spec, in tab order.
const std::vector<const ViewSpec*>& view_specs();
// The spec of a view id, or nullptr.
const ViewSpec* view_spec(const std::string& id);

}  // namespace gemmlab::app
