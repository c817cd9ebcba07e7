// The rule of the predict format (model/predict_rules.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "model/predict_rules.h"
#include "model/settings_schema.h"

using namespace gemmlab::app;

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST(PredictRules, EveryQuantityHidesFactsOfItsOwnView) {
  ASSERT_EQ(known_predict_quantities().size(), 20u);  // + fp8accum.none_error_pct
  for (const auto& r : predict_rules()) {
    SCOPED_TRACE(r.quantity);
    EXPECT_FALSE(r.answer_facts.empty());
    EXPECT_FALSE(r.computed_from.empty());
    const std::string view = r.quantity.substr(0, r.quantity.find('.'));
    for (const auto* list : {&r.answer_facts, &r.clue_facts})
      for (const auto& f : *list) {
        EXPECT_NE(predict_fact(f), nullptr) << f;
        EXPECT_EQ(f.substr(0, f.find('.')), view) << f << ": a view hides only its own facts";
      }
  }
}

TEST(PredictRules, StepsShowCluesNeverAnswers) {
  PredictSpec s;
  s.quantity = "grid.blocks";
  EXPECT_EQ(hidden_facts(s), (std::vector<std::string>{"grid.blocks", "grid.waves", "grid.timeline", "grid.tiles"}));
  s.shows = {"grid.tiles"};  // lesson 13: 16 tiles x 16 slices
  EXPECT_EQ(hidden_facts(s), (std::vector<std::string>{"grid.blocks", "grid.waves", "grid.timeline"}));
  EXPECT_FALSE(check_shown_fact("grid.blocks", "grid.tiles"));
  EXPECT_NE(check_shown_fact("grid.blocks", "grid.waves")->find("the answer would be on screen"), std::string::npos);
  EXPECT_NE(check_shown_fact("grid.blocks", "grid.l2")->find("it may show grid.tiles"), std::string::npos);
  EXPECT_NE(check_shown_fact("grid.blocks", "grid.nope")->find("no fact grid.nope"), std::string::npos);
  PredictSpec t;
  t.quantity = "threadmap.iterations_s";
  EXPECT_TRUE(has(hidden_facts(t), "threadmap.delta"));    // Delta_s = threads / kContiguous gives Iterations_s
  EXPECT_TRUE(has(hidden_facts(t), "threadmap.picture"));  // each thread's accesses count the iterations
}

TEST(PredictRules, GuessDistanceInWords) {
  EXPECT_EQ(guess_distance(32, 32, 0), "right");
  EXPECT_EQ(guess_distance(30, 32, 0), "2 too low");
  EXPECT_EQ(guess_distance(40, 32, 0), "8 too high");
  EXPECT_EQ(guess_distance(61.5, 60.1, 2), "right");
  EXPECT_EQ(guess_distance(55.5, 60, 2), "4.5 too low");
}

