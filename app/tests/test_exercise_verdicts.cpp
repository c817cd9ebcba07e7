// The exercise panel's verdicts in the UI language (exercise/verdict_text.h): every template a
// grader writes (words("...") in sim/exercise, and the GPU grade's in kernels/exercise) has a
// Chinese entry, and a failing verdict of each grader reads in Chinese with all its numbers, in
// English exactly as the command line prints it; so does the GPU grade's verdict.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "source_text.h"

#include "catalog.h"
#include "device_words.h"
#include "exercise/verdict_text.h"
#include "grade_device.h"
#include "grader.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace {

using gemmlab::test::read_all;
using gemmlab::test::unescape;

using exercise::ValueTable;
using exercise::Words;

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

// The host graders' (sim/exercise) and the GPU grade's (kernels/exercise, its sentences in
// sim/exercise/device_words.cpp).
TEST(ExerciseVerdicts, EveryTemplateOfTheGradersIsInTheCatalogue) {
  const auto zh = nlohmann::json::parse(read_all(std::string(GEMMLAB_ROOT_DIR) + "/assets/i18n/zh.json"));
  const std::regex call(R"re(\bwords\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)[),])re");
  const std::regex piece(R"re("((?:[^"\\]|\\.)*)")re");
  std::map<std::string, int> found;  // per folder
  for (const std::string dir : {"sim/exercise", "kernels/exercise"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(GEMMLAB_ROOT_DIR) + "/" + dir)) {
      if (entry.path().extension() != ".cpp") continue;
      const std::string src = read_all(entry.path().string());
      for (std::sregex_iterator it(src.begin(), src.end(), call), end; it != end; ++it) {
        const std::string args = (*it)[1];
        std::string key;
        for (std::sregex_iterator p(args.begin(), args.end(), piece); p != end; ++p) key += (*p)[1];
        key = unescape(key);
        EXPECT_TRUE(zh.contains(key)) << entry.path().filename() << ": words(\"" << key << "\") has no Chinese entry";
        ++found[dir];
      }
    }
  EXPECT_GT(found["sim/exercise"], 110);
  EXPECT_GE(found["kernels/exercise"], 13);  // grade_device_gpu.cpp's own: NVRTC's, not graded, stopped
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
      {"fp8-quantize", table("fp8-quantize", [](long long, int) { return 0; })},  // every code 0: 2^-9 is 0x01
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

// A verdict in Chinese: every template translated, every argument (numbers, names, the runner's
// words) kept as it is; in English, the text the command line prints.
void expect_chinese(const Words& why, const std::string& english, const std::string& what) {
  const std::string assets = std::string(GEMMLAB_ROOT_DIR) + "/assets";
  ASSERT_EQ(set_ui_language("en", assets), "");
  EXPECT_EQ(ui_words(why), english) << what;
  ASSERT_EQ(set_ui_language("zh", assets), "");
  const std::string zh = ui_words(why);
  EXPECT_TRUE(has_cjk(zh)) << what << ": " << zh;
  std::vector<std::string> args;
  literals(why, args);
  for (const std::string& a : args) EXPECT_NE(zh.find(a), std::string::npos) << what << ": " << a << " not in " << zh;
  std::vector<std::string> keys;
  why.templates(keys);
  for (const auto& k : keys) EXPECT_EQ(untranslated().count(k), 0u) << what << ": " << k;
  set_ui_language("en", assets);
}

unsigned long long stuck_wait(int k_tile, int stage, int parity) {
  return 1ull << 63 | static_cast<unsigned long long>(k_tile) << 32 | static_cast<unsigned long long>(stage) << 8 |
         static_cast<unsigned long long>(parity);
}

// The GPU grade's sentences (device_words.h), each branch with sample values.
TEST(ExerciseVerdicts, TheGpuGradesSentencesReadInChinese) {
  const conv::Shape shape{2, 7, 7, 8, 64, 3, 3, 1, 2, 1};
  const exercise::WrongResult wrongs[] = {
      {"the stage needs K a multiple of 8", 0, 0, 0, 2e-3}, {"", 1572864, 0, 0, 1e-5}, {"", 0, 12, 0, 1e-5},
      {"", 0, 0, 0.4375, 2e-3}};
  std::vector<Words> sentences;
  for (const auto& r : wrongs) {
    sentences.push_back(exercise::wrong_c("9", 1024, 1536, 704, r));
    sentences.push_back(exercise::wrong_conv_output("14a", shape, r));
  }
  sentences.push_back(exercise::timed_against_stage("NVIDIA H200", 4096, 4096, 2048, "17", 0.98, 1.23456, 1.2));
  sentences.push_back(exercise::timed_conv_against_stage("NVIDIA H200", shape, "14a", 1.02, 0.0123, 0.0125));
  sentences.push_back(exercise::correct_not_timed("NVIDIA H200", "out of memory"));
  sentences.push_back(exercise::correct_conv_not_timed("NVIDIA H200", "out of memory"));
  sentences.push_back(exercise::mbarrier_deadlock(stuck_wait(0, 0, 0), stuck_wait(0, 0, 0), 4));
  sentences.push_back(exercise::mbarrier_deadlock(stuck_wait(5, 1, 1), 0, 4));
  sentences.push_back(exercise::mbarrier_deadlock(0, stuck_wait(9, 1, 0), 4));
  for (const Words& w : sentences) expect_chinese(w, w.text(), w.text());

  // Word for word: the numbers land where the sentence means them.
  ASSERT_EQ(set_ui_language("zh", std::string(GEMMLAB_ROOT_DIR) + "/assets"), "");
  EXPECT_EQ(ui_words(sentences[8]),
            "在 NVIDIA H200 上与 cuBLAS 对照结果正确；在 4096 x 4096 x 2048 时，你的 kernel 速度为 0.98x"
            "（相对 stage 17 的 kernel；1.235 ms 对 1.200 ms，轮流计时）");
  EXPECT_EQ(ui_words(sentences[12]),
            "你的计划在 GPU 上死锁：生产者在 empty[0]（parity 0，k-tile 0 之前）上等待，消费者在 full[0]"
            "（parity 0，k-tile 0 之前）上等待；两次等待都没有在 100 ms 内通过（stage 17 在 full 上等待 parity 0，"
            "在 empty 上不等待（新的 barrier），k-tile 0）");
  EXPECT_EQ(ui_words(sentences[6]),
            "stage 9 的 kernel 配上你的函数，在 1024 x 1536 x 704 时算出的 C 是错的：与 cuBLAS 相比的相对误差为 0.44"
            "（至多允许 0.002）");
  set_ui_language("en", std::string(GEMMLAB_ROOT_DIR) + "/assets");
}

// The GPU grade as the panel gets it. Where it did not run (no GPU here: the runner's words are
// its argument, untranslated; a build without the CUDA kernels: this version's), it says so in
// Chinese; where a GPU graded it, its numbers are kept all the same.
TEST(ExerciseVerdicts, TheGpuGradesVerdictReadsInChinese) {
  const auto ex = exercise::find_exercise(std::string(GEMMLAB_ROOT_DIR) + "/lessons", "09-swizzle/smem-offset");
  ASSERT_TRUE(ex) << ex.error();
  const exercise::DeviceGrade d = exercise::grade_on_device(*ex, ex->reference);
  ASSERT_FALSE(d.why.empty()) << d.reason;
  expect_chinese(d.why, d.reason, "smem-offset");
  if (d.ran) return;
  const std::string assets = std::string(GEMMLAB_ROOT_DIR) + "/assets";
  ASSERT_EQ(set_ui_language("zh", assets), "");
  const std::string zh = ui_reason(d);
  set_ui_language("en", assets);
  EXPECT_EQ(zh.rfind("未在 GPU 上评分：", 0), 0u) << zh;
  if (d.why.format == "not graded on a GPU: %s") {  // the runner's words (gpu_unavailable_reason), as they came
    ASSERT_EQ(d.why.args.size(), 1u);
    ASSERT_TRUE(d.why.args[0].literal);
    EXPECT_EQ(d.reason, "not graded on a GPU: " + d.why.args[0].format);
    EXPECT_EQ(zh, "未在 GPU 上评分：" + d.why.args[0].format);
  }
}

// A grader no harness serves: the host grade stands alone, said in Chinese on any machine.
TEST(ExerciseVerdicts, AnExerciseWithoutAGpuHarnessSaysSoInChinese) {
  exercise::Exercise e;
  e.id = "99-elsewhere/no-harness";
  e.grader = "no-such-grader";
  e.stage = "simt-tile";
  const exercise::DeviceGrade d = exercise::grade_on_device(e, "int f() { return 0; }\n");
  EXPECT_FALSE(d.ran);
  const std::string assets = std::string(GEMMLAB_ROOT_DIR) + "/assets";
  ASSERT_EQ(set_ui_language("zh", assets), "");
  const std::string zh = ui_reason(d);
  set_ui_language("en", assets);
  if (d.reason.find("no GPU harness yet") != std::string::npos)  // a build with the CUDA kernels
    EXPECT_EQ(zh, "未在 GPU 上评分：这个练习的 stage 还没有 GPU harness，因此只以本机评分为准");
  else
    EXPECT_EQ(zh, "未在 GPU 上评分：这个版本的 GEMM Lab 还不能用你的函数重新构建 stage `simt-tile` 的 kernel，"
                  "因此只以本机评分为准");
}

}  // namespace
}  // namespace gemmlab::app
