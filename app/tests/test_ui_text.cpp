// The UI catalogue (model/ui_text.h): formats keep their arguments, every tr() key has an entry.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "source_text.h"

#include "gemmlab/dispatch.h"
#include "gemmlab/launch_facts.h"

#include "model/predict_rules.h"
#include "model/ui_catalogue_check.h"
#include "model/settings_schema.h"
#include "model/ui_text.h"

using namespace gemmlab::app;

namespace {

using gemmlab::test::read_all;
using gemmlab::test::unescape;

}  // namespace

TEST(UiText, TranslationFormatsAreTheKeysExactly) {
  EXPECT_EQ(format_problem("%d x %d tiles, %.2f%% full, %s", "%d × %d 个分块，%.2f%% 满，%s"), "");
  EXPECT_EQ(format_problem("%5.1f %lld %zu %%", "%5.1f %lld %zu %%"), "");
  EXPECT_EQ(format_problem("no conversion", "没有"), "");
  EXPECT_EQ(format_problem("lane % 4 (PTX), rows (i%2)*8, slot %d", "lane % 4（PTX），行 (i%2)*8，槽 %d"), "");
}

// Issue 48: each of these passed the old check (same conversion letters) and some crash in
// vsnprintf (%n writes through an argument; %1$n too; "% s" and "%-s" were compared by letter).
TEST(UiText, HostileTranslationFormatsAreRefused) {
  const char* key = "%d tiles of %s";
  for (const char* bad : {"%n tiles of %s", "%1$d tiles of %2$s", "%d tiles of % s", "%d tiles of %-s",
                          "%*d tiles of %s", "%d tiles of %s %n", "%d tiles of %ls", "%5d tiles of %s",
                          "%hhn%d %s", "%d %s %%n %p", "%d tiles of", "%i tiles of %s", "%d tiles of %s%"})
    EXPECT_NE(format_problem(key, bad), "") << bad;
  EXPECT_NE(format_problem("lane % 4 (x)", "lane % 4 (x) %n"), "");  // plain text may not become a conversion
  EXPECT_NE(format_problem("lane % 4 (x)", "lane %n4"), "");
  EXPECT_NE(format_problem("%n", "%n"), "");  // not even when the key has it
  EXPECT_NE(format_problem("100%", "100%s"), "");
  EXPECT_EQ(format_problem("100%", "100%"), "");
}

// Every entry of the Chinese catalogue reads the same printf arguments as its English key (a
// mismatch would make ImGui::Text read the wrong argument); names such as "warp" or "cuBLAS" may
// stay as they are.
TEST(UiText, ChineseCatalogueKeepsEveryFormat) {
  const auto j = nlohmann::json::parse(read_all(std::string(GEMMLAB_ROOT_DIR) + "/assets/i18n/zh.json"));
  ASSERT_TRUE(j.is_object());
  EXPECT_GT(j.size(), 100u);
  for (const auto& [en, zh] : j.items()) {
    ASSERT_TRUE(zh.is_string()) << en;
    EXPECT_EQ(format_problem(en, zh.get<std::string>()), "") << en;
  }
  EXPECT_EQ(set_ui_language("zh", std::string(GEMMLAB_ROOT_DIR) + "/assets"), "");
  EXPECT_STREQ(tr("Reveal"), "揭晓");
  EXPECT_EQ(guess_distance(30, 32, 0), "少了 2");
  // The predict rules' words are catalogue keys too: the hidden boxes and "computed from".
  for (const auto& f : predict_facts()) EXPECT_TRUE(j.contains(f.text)) << f.id;
  for (const auto& r : predict_rules()) EXPECT_TRUE(j.contains(r.computed_from)) << r.quantity;
  for (const auto& id : known_view_ids()) EXPECT_TRUE(j.contains(view_title(id))) << id;  // the tab titles
  EXPECT_STREQ(tr("not a key of the catalogue"), "not a key of the catalogue");
  EXPECT_EQ(untranslated().count("not a key of the catalogue"), 1u);
  set_ui_language("en", std::string(GEMMLAB_ROOT_DIR) + "/assets");
  EXPECT_STREQ(tr("Reveal"), "Reveal");
}

// The simulator's sentence templates the views fill in the learner's language (the dispatcher's
// rule, a launch's facts line) are catalogue keys too, with the same "%s" arguments.
TEST(UiText, TheSimulatorsTemplatesAreInTheCatalogue) {
  const auto j = nlohmann::json::parse(read_all(std::string(GEMMLAB_ROOT_DIR) + "/assets/i18n/zh.json"));
  std::vector<const char*> keys = gemmlab::auto_sentence_formats();
  for (const char* f : gemmlab::launch_facts_formats()) keys.push_back(f);
  EXPECT_EQ(keys.size(), 14u);  // 8 rule sentences, 6 launch lines
  for (const char* k : keys) {
    ASSERT_TRUE(j.contains(k)) << k;
    EXPECT_EQ(printf_conversions(j[k].get<std::string>()), printf_conversions(k)) << k;
  }
}

// Every tr("...") / trf("...") literal in the app's sources (adjacent literals joined, as the
// compiler joins them) has a Chinese entry; the GUI walk in Chinese catches text drawn without tr().
TEST(UiText, EveryTrLiteralIsInTheCatalogue) {
  const auto j = nlohmann::json::parse(read_all(std::string(GEMMLAB_ROOT_DIR) + "/assets/i18n/zh.json"));
  const std::regex call(R"re(\btrf?\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)[),])re");
  const std::regex piece(R"re("((?:[^"\\]|\\.)*)")re");
  int found = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(GEMMLAB_ROOT_DIR) + "/app/src")) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string file = entry.path().filename().string();
    const std::string src = read_all(entry.path().string());
    for (std::sregex_iterator it(src.begin(), src.end(), call), end; it != end; ++it) {
      const std::string args = (*it)[1];
      std::string key;
      for (std::sregex_iterator p(args.begin(), args.end(), piece); p != end; ++p) key += (*p)[1];
      key = unescape(key);
      EXPECT_TRUE(j.contains(key)) << file << ": tr(\"" << key << "\") has no Chinese entry";
      ++found;
    }
  }
  EXPECT_GT(found, 250);
}

// A broken catalogue never breaks the UI: it stays in English (or skips the bad entry) and says
// which file and entry, for the app's log.
TEST(UiText, BrokenCatalogueFallsBackAndSaysWhy) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("gemmlab_i18n_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "i18n");
  auto write = [&](const char* lang, const std::string& text) { std::ofstream(dir / "i18n" / (std::string(lang) + ".json")) << text; };
  write("xx", "{ not json");
  EXPECT_NE(set_ui_language("xx", dir.string()).find("is not a JSON object"), std::string::npos);
  EXPECT_STREQ(tr("Reveal"), "Reveal");
  write("yy", R"({"Reveal": "R!", "%d of %d": "%s of %d", "Hide": 3})");
  const std::string problem = set_ui_language("yy", dir.string());
  EXPECT_NE(problem.find("(skipped)"), std::string::npos) << problem;
  EXPECT_STREQ(tr("Reveal"), "R!");
  EXPECT_STREQ(tr("%d of %d"), "%d of %d");  // the entry that reads other arguments is not used
  EXPECT_EQ(trf("%d of %d", 3, 4), "3 of 4");
  EXPECT_NE(set_ui_language("zz", dir.string()).find("no UI catalogue"), std::string::npos);
  // Issue 48: a "% s" or "%1$n" translation is refused at load, so trf never hands it to vsnprintf.
  write("ww", R"({"%d of %d": "%1$n of %d", "saved %s": "% s saved", "Reveal": "R%n"})");
  EXPECT_EQ(ui_catalogue_problems((dir / "i18n" / "ww.json").string()).size(), 3u);
  set_ui_language("ww", dir.string());
  EXPECT_EQ(trf("%d of %d", 3, 4), "3 of 4");
  EXPECT_EQ(trf("saved %s", "x.png"), "saved x.png");
  EXPECT_STREQ(tr("Reveal"), "Reveal");
  write("vv", std::string(100000, '[') + std::string(100000, ']'));  // nesting bounded before parsing
  EXPECT_NE(set_ui_language("vv", dir.string()).find("nests more than"), std::string::npos);
  set_ui_language("en", dir.string());
  std::filesystem::remove_all(dir);
}

// Counts as the views print them (and as the GUI walk looks for a predict step's answer).
TEST(UiText, FmtIntGroupsThousands) {
  EXPECT_EQ(fmt_int(0), "0");
  EXPECT_EQ(fmt_int(999), "999");
  EXPECT_EQ(fmt_int(1024), "1,024");
  EXPECT_EQ(fmt_int(100352), "100,352");
  EXPECT_EQ(fmt_int(-16384), "-16,384");
}
