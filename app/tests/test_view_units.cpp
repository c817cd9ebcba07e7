// A view is one unit (issue 46): app/src/views/<id>/ holds its drawing and its spec (settings,
// predict facts and rules, strings' keys), and views/views.def is the one list of views.
#include <gtest/gtest.h>

#include "cli_run.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "model/predict_rules.h"
#include "model/settings_schema.h"
#include "views/view_spec.h"

using namespace gemmlab::app;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const fs::path kViews = fs::path(GEMMLAB_ROOT_DIR) / "app/src/views";

}  // namespace

// views.def lists every folder under app/src/views/, each with its two halves, in tab order.
TEST(ViewUnits, EveryViewIsAFolderListedOnce) {
  const std::vector<std::string> want = {"threadmap", "fragments", "banks", "grid", "pipeline",
                                         "kernels",   "measured",  "conv",  "gmma", "code", "fp8accum"};
  EXPECT_EQ(known_view_ids(), want);
  std::set<std::string> folders;
  for (const auto& e : fs::directory_iterator(kViews))
    if (e.is_directory()) folders.insert(e.path().filename().string());
  EXPECT_EQ(folders, std::set<std::string>(want.begin(), want.end()));
  for (const std::string& id : want) {
    EXPECT_TRUE(fs::exists(kViews / id / (id + "_spec.cpp"))) << id;
    EXPECT_TRUE(fs::exists(kViews / id / (id + "_view.cpp"))) << id;
    const ViewSpec* s = view_spec(id);
    ASSERT_NE(s, nullptr) << id;
    EXPECT_EQ(s->id, id);
    EXPECT_STRNE(s->title, "");
  }
  EXPECT_EQ(view_spec("nope"), nullptr);
  EXPECT_STREQ(view_title("banks"), "Smem banks");
  EXPECT_STREQ(view_title("nope"), "?");
}

// A view's facts and quantities are its own ("banks.counts" in the banks spec), and no other file
// adds settings, facts or quantities: the model's tables are the specs gathered.
TEST(ViewUnits, FactsAndQuantitiesBelongToTheirView) {
  size_t facts = 0, rules = 0;
  for (const ViewSpec* s : view_specs()) {
    for (const auto& f : s->facts) EXPECT_EQ(f.id.substr(0, f.id.find('.')), s->id) << f.id;
    for (const auto& r : s->rules) {
      EXPECT_EQ(r.quantity.substr(0, r.quantity.find('.')), s->id) << r.quantity;
      for (const auto& f : r.answer_facts) EXPECT_NE(predict_fact(f), nullptr) << f;
    }
    facts += s->facts.size();
    rules += s->rules.size();
  }
  EXPECT_EQ(predict_facts().size(), facts);
  EXPECT_EQ(predict_rules().size(), rules);
  EXPECT_EQ(facts, 19u);
  EXPECT_EQ(rules, 20u);
  // The view id in a factory's name is the folder's: make_<id>_view() in views/<id>/<id>_view.cpp.
  for (const std::string& id : known_view_ids())
    EXPECT_NE(read_all(kViews / id / (id + "_view.cpp")).find("make_" + id + "_view()"), std::string::npos) << id;
}

// The settings a step can give a view about what its text talks about (issue 47): the pipeline
// cursor at an event, the banks phase and picture, a highlighted C tile.
TEST(ViewUnits, StepStateSettings) {
  EXPECT_FALSE(check_view_setting("pipeline", "event", Json::array({"math", 0})));
  EXPECT_FALSE(check_view_setting("pipeline", "event", Json::array({"wait", -1})));
  EXPECT_NE(check_view_setting("pipeline", "event", Json::array({"mma", 0}))->find("\"math\""), std::string::npos);
  EXPECT_TRUE(check_view_setting("pipeline", "event", Json::array({"math", -2})));
  EXPECT_TRUE(check_view_setting("pipeline", "event", "math"));
  EXPECT_FALSE(check_view_setting("banks", "phase", 1));
  EXPECT_FALSE(check_view_setting("banks", "phase", -1));
  EXPECT_TRUE(check_view_setting("banks", "phase", 32));
  EXPECT_FALSE(check_view_setting("banks", "show", "tile"));
  EXPECT_TRUE(check_view_setting("banks", "show", "cells"));
  EXPECT_FALSE(check_view_setting("grid", "highlight_tile", Json::array({5, 6})));
  EXPECT_TRUE(check_view_setting("grid", "highlight_tile", Json::array({5})));
}

// The files that used to hold every view's settings and facts hold none of them now.
TEST(ViewUnits, NoViewTableOutsideTheViews) {
  const std::string schema = read_all(fs::path(GEMMLAB_ROOT_DIR) / "app/src/model/settings_schema.cpp");
  const std::string rules = read_all(fs::path(GEMMLAB_ROOT_DIR) / "app/src/model/predict_rules.cpp");
  for (const char* key : {"\"highlight_lane\"", "\"warp_arrangement\"", "\"operand_rows\""})
    EXPECT_EQ(schema.find(key), std::string::npos) << key;
  for (const char* fact : {"\"grid.tiles\"", "\"banks.counts\"", "\"gmma.stride_bytes\""})
    EXPECT_EQ(rules.find(fact), std::string::npos) << fact;
}

// The step before a predict step may not show its answer in the same view (issue 47: lesson 4
// step 1 showed "Iterations (c,s) = (1,4)" before step 2 asked for it; lesson 7 step 2 every owner).
TEST(ViewUnits, CheckRefusesAnAnswerOneStepEarly) {
  const CliRun r = run_gemmlab(std::string("lessons --check ") + GEMMLAB_APP_FIXTURES + "/answer_before");
  const std::string& out = r.out;
  EXPECT_EQ(r.code, 1) << out;
  for (const char* want :
       {"01-threads/lesson.toml:22: step 2: step 1 already shows the answer to threadmap.iterations_s (4) in the same view",
        "02-owners/lesson.toml:15: step 2: step 1 already shows the answer to fragments.lane_of_element (5) in the same view"})
    EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
  EXPECT_EQ(out.find("step 4:"), std::string::npos) << out;         // step 3 answered it for 64 threads
  EXPECT_EQ(out.find("03-other-view"), std::string::npos) << out;   // the thread map was not in front
  EXPECT_NE(out.find("2 problem(s)"), std::string::npos) << out;
}
