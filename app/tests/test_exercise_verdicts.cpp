// The exercise panel's verdicts in the UI language (exercise/verdict_text.h): every template a
// grader writes (words("...") in sim/exercise) has a Chinese entry, and a failing verdict of each
// grader reads in Chinese with all its numbers, in English exactly as the command line prints it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "exercise/verdict_text.h"
#include "grader.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace {

using exercise::ValueTable;
using exercise::Words;

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ValueTable table(const std::string& kind, const std::function<long long(long long, int)>& f) {
  const exercise::Grader* g = exercise::find_grader(kind);
  ValueTable t{g->points, g->values_per_point, {}};
  for (long long p = 0; p < t.points; ++p)
    for (int i = 0; i < t.values_per_point; ++i) t.values.push_back(f(p, i));
  return t;
}

void literals(const Words& w, std::vector<std::string>& out) {
  if (w.literal) out.push_back(w.format);
  for (const Words& a : w.args) literals(a, out);
}

bool has_cjk(const std::string& s) {
  for (size_t i = 0; i + 2 < s.size(); ++i)
    if (static_cast<unsigned char>(s[i]) >= 0xE4 && static_cast<unsigned char>(s[i]) <= 0xE9) return true;
  return false;
}

TEST(ExerciseVerdicts, EveryTemplateOfTheGradersIsInTheCatalogue) {
  const auto zh = nlohmann::json::parse(read_all(std::string(GEMMLAB_ROOT_DIR) + "/assets/i18n/zh.json"));
  const std::regex call(R"re(\bwords\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)[),])re");
  const std::regex piece(R"re("((?:[^"\\]|\\.)*)")re");
  int found = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GEMMLAB_ROOT_DIR) + "/sim/exercise")) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string src = read_all(entry.path().string());
    for (std::sregex_iterator it(src.begin(), src.end(), call), end; it != end; ++it) {
      const std::string args = (*it)[1];
      std::string key;
      for (std::sregex_iterator p(args.begin(), args.end(), piece); p != end; ++p) key += (*p)[1];
      EXPECT_TRUE(zh.contains(key)) << entry.path().filename() << ": words(\"" << key << "\") has no Chinese entry";
      ++found;
    }
  }
  EXPECT_GT(found, 90);
}

// A failing table of each grader: the learner's mistake the stub makes, or one as simple.
std::vector<std::pair<std::string, ValueTable>> failing_tables() {
  return {
      {"smem-offset", table("smem-offset", [](long long p, int) { return p; })},  // row-major
      {"coalesced-map", table("coalesced-map", [](long long p, int) {
         const long long t = p / 4, a = p % 4;  // neighbouring threads down a column
         return (t % 8) * 128 + t / 8 + 32 * a;
       })},
      {"block-order", table("block-order", [](long long b, int i) { return i == 0 ? (b == 0 ? 300 : b % 256) : b / 256; })},
      {"im2col", table("im2col", [](long long p, int) {
         const long long row = p / 72, col = p % 72;  // no stride, no padding
         const long long n = row / 16, pp = row / 4 % 4, q = row % 4, r = col / 24, s = col / 8 % 3, c = col % 8;
         return ((n * 7 + pp + r) * 7 + q + s) * 8 + c;
       })},
      {"tma-box", table("tma-box", [](long long p, int i) {
         const long long k = p % 8, n = p / 8 % 2, m = p / 16 % 4, op = p / 64;  // counted in tiles
         return i == 0 ? k : (op == 0 ? m : n);
       })},
      {"mbarrier-parity", table("mbarrier-parity", [](long long, int i) { return i == 0 ? 0 : 1; })},
  };
}

TEST(ExerciseVerdicts, AVerdictOfEachGraderReadsInChineseWithItsNumbers) {
  const std::string assets = std::string(GEMMLAB_ROOT_DIR) + "/assets";
  for (const auto& [kind, t] : failing_tables()) {
    const exercise::HostVerdict v = exercise::find_grader(kind)->evaluate(t);
    ASSERT_FALSE(v.pass) << kind;
    ASSERT_FALSE(v.why.empty()) << kind << ": " << v.reason;
    ASSERT_EQ(set_ui_language("en", assets), "");
    EXPECT_EQ(ui_reason(v), v.reason) << kind;
    ASSERT_EQ(set_ui_language("zh", assets), "");
    const std::string zh = ui_reason(v);
    EXPECT_TRUE(has_cjk(zh)) << kind << ": " << zh;
    std::vector<std::string> numbers;
    literals(v.why, numbers);
    EXPECT_FALSE(numbers.empty()) << kind;
    for (const std::string& n : numbers) EXPECT_NE(zh.find(n), std::string::npos) << kind << ": " << n << " not in " << zh;
    for (size_t i = 0; i < v.passed.size(); ++i) EXPECT_TRUE(has_cjk(ui_held(v, i))) << kind << ": " << v.passed[i];
    std::vector<std::string> keys;
    v.why.templates(keys);
    for (const auto& k : keys) EXPECT_EQ(untranslated().count(k), 0u) << k;
  }
  set_ui_language("en", assets);
}

// Two of them word for word: the numbers land where the sentence means them.
TEST(ExerciseVerdicts, TheStubsVerdictsInChinese) {
  const std::string assets = std::string(GEMMLAB_ROOT_DIR) + "/assets";
  ASSERT_EQ(set_ui_language("zh", assets), "");
  const auto tables = failing_tables();
  EXPECT_EQ(ui_reason(exercise::find_grader("tma-box")->evaluate(tables[4].second)),
            "A 的 box（k-tile 1，block (m 0, n 0)）起点为 (inner 1, outer 0)：k 1-64，行 (m) 0-127；"
            "该 stage 的 box 起点为 (inner 64, outer 0)：k 64-127，行 (m) 0-127");
  EXPECT_EQ(ui_reason(exercise::find_grader("smem-offset")->evaluate(tables[0].second)),
            "第 0, 2, 4 和 6 行在 ldmatrix 相位（矩阵 0，属于 A 第 0-15 行在 k 0 处的 ldmatrix.x4）中都落在 bank 0："
            "4 个 wavefront，而 1 个即可（整条 .x4 为 16 个，而 4 个即可）");
  set_ui_language("en", assets);
}

}  // namespace
}  // namespace gemmlab::app
