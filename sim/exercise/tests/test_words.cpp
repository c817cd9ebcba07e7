// A verdict's words (words.h): English by themselves, in another language through a catalogue,
// and never reading arguments the template does not have.
#include <gtest/gtest.h>

#include <map>

#include "grader.h"
#include "words.h"

namespace gemmlab::exercise {
namespace {

const std::map<std::string, std::string> kCatalogue = {
    {"offset %s of %s is outside the tile", "偏移 %s（%s）超出 tile"},  // arguments in the key's order
    {"(row %s, k %s)", "（行 %s，k %s）"},
    {"%s%% of %s", "%s%%，属于 %s"},
    {"two %s here", "只有一个"},  // a catalogue the app would refuse: too few "%s"
};
std::string translate(const std::string& f) {
  const auto it = kCatalogue.find(f);
  return it == kCatalogue.end() ? f : it->second;
}

TEST(Words, EnglishSubstitutesInOrderAndNests) {
  const Words w = words("offset %s of %s is outside the tile", 4100, words("(row %s, k %s)", 3, 17));
  EXPECT_EQ(w.text(), "offset 4100 of (row 3, k 17) is outside the tile");
  EXPECT_EQ(w.text(translate), "偏移 4100（（行 3，k 17））超出 tile");
  std::vector<std::string> keys;
  w.templates(keys);
  EXPECT_EQ(keys, (std::vector<std::string>{"offset %s of %s is outside the tile", "(row %s, k %s)"}));
}

TEST(Words, LiteralsAndPercentSignsStayAsTheyAre) {
  EXPECT_EQ(words("%s%% of %s", "12.5", literal("(row %s)")).text(), "12.5% of (row %s)");
  EXPECT_EQ(words("%s%% of %s", "12.5", "x").text(translate), "12.5%，属于 x");
  EXPECT_EQ(words("lane % 4 is %s", 3).text(), "lane % 4 is 3");
  EXPECT_EQ(words("100%").text(), "100%");
}

TEST(Words, ATranslationWithOtherPlaceholdersFallsBackToEnglish) {
  EXPECT_EQ(words("two %s here", 2).text(translate), "two 2 here");
}

TEST(Words, AVerdictKeepsEnglishAndWordsTogether) {
  HostVerdict v;
  v.hold(words("(row %s, k %s)", 1, 2));
  v.say(words("offset %s of %s is outside the tile", -1, words("(row %s, k %s)", 0, 0)));
  EXPECT_EQ(v.passed, (std::vector<std::string>{"(row 1, k 2)"}));
  EXPECT_EQ(v.reason, "offset -1 of (row 0, k 0) is outside the tile");
  EXPECT_EQ(v.why.text(translate), "偏移 -1（（行 0，k 0））超出 tile");
  ASSERT_EQ(v.held.size(), 1u);
}

}  // namespace
}  // namespace gemmlab::exercise
