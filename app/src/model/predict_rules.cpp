#include "model/predict_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/ui_text.h"
#include "views/view_spec.h"

namespace gemmlab::app {

// Gathered from the views' specs (app/src/views/<id>/<id>_spec.cpp), in tab order.
const std::vector<PredictFact>& predict_facts() {
  static const std::vector<PredictFact> f = [] {
    std::vector<PredictFact> v;
    for (const ViewSpec* s : view_specs()) v.insert(v.end(), s->facts.begin(), s->facts.end());
    return v;
  }();
  return f;
}

const std::vector<PredictRule>& predict_rules() {
  static const std::vector<PredictRule> r = [] {
    std::vector<PredictRule> v;
    for (const ViewSpec* s : view_specs()) v.insert(v.end(), s->rules.begin(), s->rules.end());
    return v;
  }();
  return r;
}

const PredictRule* predict_rule(const std::string& quantity) {
  for (const auto& r : predict_rules())
    if (r.quantity == quantity) return &r;
  return nullptr;
}

const PredictFact* predict_fact(const std::string& id) {
  for (const auto& f : predict_facts())
    if (f.id == id) return &f;
  return nullptr;
}

std::vector<std::string> hidden_facts(const PredictSpec& spec) {
  const PredictRule* r = predict_rule(spec.quantity);
  if (!r) return {};
  std::vector<std::string> out = r->answer_facts;
  for (const auto& f : r->clue_facts)
    if (std::find(spec.shows.begin(), spec.shows.end(), f) == spec.shows.end()) out.push_back(f);
  return out;
}

std::optional<std::string> check_shown_fact(const std::string& quantity, const std::string& fact) {
  const PredictRule* r = predict_rule(quantity);
  if (!r) return "no predict quantity " + quantity;
  auto has = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  if (!predict_fact(fact)) {  // the facts of the quantity's own view: the only ones it could name
    const std::string view = quantity.substr(0, quantity.find('.'));
    std::string all;
    for (const auto& f : predict_facts())
      if (f.id.rfind(view + ".", 0) == 0) all += (all.empty() ? "" : ", ") + f.id;
    return "predict.shows: no fact " + fact + "; the facts are " + all;
  }
  if (has(r->clue_facts, fact)) return std::nullopt;
  if (has(r->answer_facts, fact))
    return "predict.shows names " + fact + ", from which " + quantity +
           " can be read: the answer would be on screen before Reveal";
  std::string clues;
  for (const auto& c : r->clue_facts) clues += (clues.empty() ? "" : ", ") + c;
  return "predict.shows: " + fact + " is not something a " + quantity + " step hides" +
         (clues.empty() ? std::string(" (it hides no clues, only its answer)") : "; it may show " + clues);
}

std::string guess_distance(double guess, double answer, double tolerance) {
  const double d = guess - answer;
  if (std::abs(d) <= tolerance + 1e-9) return tr("right");
  char amount[32];
  std::snprintf(amount, sizeof amount, "%.6g", std::abs(d));
  return trf(d < 0 ? "%s too low" : "%s too high", amount);
}

}  // namespace gemmlab::app
