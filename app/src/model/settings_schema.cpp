// The settings of every view, gathered from the views' own specs (app/src/views/<id>/<id>_spec.cpp,
// listed in views/views.def).
#include "model/settings_schema.h"
#include "model/predict_rules.h"

#include "views/setting_checks.h"
#include "views/view_spec.h"

namespace gemmlab::app {

const std::vector<std::string>& known_view_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const ViewSpec* s : view_specs()) v.push_back(s->id);
    return v;
  }();
  return ids;
}

std::vector<std::string> known_setting_keys(const std::string& view) {
  std::vector<std::string> keys;
  if (const ViewSpec* s = view_spec(view))
    for (const auto& k : s->settings) keys.push_back(k.key);
  return keys;
}

std::optional<std::string> check_view_setting(const std::string& view, const std::string& key,
                                              const Json& value) {
  const ViewSpec* s = view_spec(view);
  if (!s) return "unknown view \"" + view + "\"; views are " + checks::quoted_list(known_view_ids());
  for (const auto& spec : s->settings) {
    if (spec.key != key) continue;
    if (auto problem = spec.check(value)) return view + "." + key + " " + *problem;
    return std::nullopt;
  }
  return "unknown key \"" + key + "\" for view " + view + "; its keys are " +
         checks::quoted_list(known_setting_keys(view));
}

const std::vector<std::string>& known_predict_quantities() {
  static const std::vector<std::string> q = [] {
    std::vector<std::string> v;
    for (const auto& r : predict_rules()) v.push_back(r.quantity);
    return v;
  }();
  return q;
}

const char* view_title(const std::string& id) {
  const ViewSpec* s = view_spec(id);
  return s ? s->title : "?";
}

}  // namespace gemmlab::app
