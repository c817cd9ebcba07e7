// Issue 48: what a course can make the lesson panel and the views draw stays within Dear ImGui's
// limits and takes time linear in its size. Drawn headless (app/fuzz/headless_render.h): no
// display, no GPU, ImGui's own asserts armed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <filesystem>
#include <fstream>

#include "headless_render.h"
#include "lesson_render_check.h"
#include "markdown_render.h"
#include "model/input_limits.h"
#include "model/lesson_format.h"
#include "model/markdown_doc.h"

namespace gemmlab::app {
namespace {
namespace fs = std::filesystem;

const std::string kAssets = std::string(GEMMLAB_ROOT_DIR) + "/assets";

// One frame of the lesson panel's Markdown in a 600 px window; its largest draw list.
int draw_markdown(const std::string& md) {
  fuzz::start_headless_imgui();
  const auto blocks = parse_markdown(md);
  ImGui::NewFrame();
  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize({600, 800});
  ImGui::Begin("lesson");
  render_markdown(blocks, kAssets);
  ImGui::End();
  ImGui::Render();
  return fuzz::largest_draw_list();
}

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The word cut re-measured the rest of a long word for every line: 300 k characters took 13.7 s
// (1 MB over 100 s). Now one pass: 1 MB in well under a few seconds even under a loaded machine.
TEST(RenderLimits, LongWordLaysOutInLinearTime) {
  const double small = seconds([] { draw_markdown(std::string(100000, 'x')); });
  const double big = seconds([] { draw_markdown(std::string(1000000, 'x')); });
  EXPECT_LT(big, 5.0);
  EXPECT_LT(big, 30 * small + 0.5) << small << " s for 100 k, " << big << " s for 1 M";
  std::string code;  // a long word in a code span, and a run of '[' (md4c: refused up front)
  for (int i = 0; i < 100000; ++i) code += "[a](";
  EXPECT_LT(seconds([&] { draw_markdown(code); }), 5.0);
}

// Bytes that are not UTF-8 in the lesson text: "C0 60" decoded as a space while the layout skipped
// only real spaces, and the panel never finished its first frame (found by fuzz_render).
TEST(RenderLimits, InvalidUtf8LaysOut) {
  std::string md = "Hover a cell";
  for (const char* bad : {"\xC0\x60", "\xC0\xA0", "\xE0\x80\x8A", "\xED\xA0\x80", "\xF8\x88", "\xFF", "\x80"})
    md += std::string(" x") + bad + "y `c" + bad + "` [l" + bad + "](x)";
  md += std::string("\x00 tail", 6);
  double s = 0;
  int most = 0;
  s = seconds([&] { most = draw_markdown(md); });
  EXPECT_GT(most, 0);
  EXPECT_LT(s, 5.0);
}

// Code spans and links draw backgrounds and underlines ImGui does not clip: 20,000 of them in
// one paragraph passed 65,536 vertices (ImGui's 16-bit index assert). Only visible lines draw.
TEST(RenderLimits, LongTextStaysWithinOneDrawList) {
  std::string md;
  for (int i = 0; i < 20000; ++i) md += "`c` [l](x) ~~s~~ ";
  EXPECT_LT(draw_markdown(md), 65536);
  std::string quotes;
  for (int i = 0; i < 20000; ++i) quotes += "> q\n\n";
  EXPECT_LT(draw_markdown(quotes), 65536);
}

// A table of 70 columns tripped ImGui's 64-column assert; now the panel says it is not shown
// and `lessons --check` names it.
TEST(RenderLimits, WideTableIsRefusedNotAsserted) {
  std::string header = "|", rule = "|", row = "|";
  for (int c = 0; c < 70; ++c) header += " h |", rule += "---|", row += " x |";
  const std::string md = header + "\n" + rule + "\n" + row + "\n";
  EXPECT_GT(draw_markdown(md), 0);
  LessonText text;
  text.steps.push_back({"One", md, 3});
  std::vector<Diagnostic> errors;
  check_markdown_renders("## One\n\n" + md, text, kAssets, "en.md", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 3);
  EXPECT_NE(errors[0].message.find("a table of 70 columns"), std::string::npos) << errors[0].message;
}

// Every step of the test course, through every view: no draw list past 16-bit indices.
TEST(RenderLimits, EveryViewOfTheFixtureCourseDraws) {
  fuzz::start_headless_imgui();
  App a({GEMMLAB_ROOT_DIR, std::string(GEMMLAB_APP_FIXTURES) + "/course", kAssets}, Config{}, true);
  ASSERT_FALSE(a.course().lessons.empty());
  const int most = fuzz::draw_every_step(a, 1);
  EXPECT_GT(most, 100);
  EXPECT_LT(most, 65536);
}

// Predict answers are checked within an overall budget: five L2 predict steps took 36 s, growing
// with their count. Past the budget (0 s here, so the count does not depend on this machine's
// speed) every predict step is named as not checked and nothing is replayed.
TEST(RenderLimits, PredictCheckHasAnOverallBudget) {
  const fs::path dir = fs::temp_directory_path() / ("gemmlab-predict-" + std::to_string(::getpid()));
  fs::create_directories(dir / "a");
  std::ofstream(dir / "course.toml") << "lessons = [\"a\"]\n";
  std::string toml = "id = \"a\"\ntitle.en = \"A\"\n", md = "# A\n";
  for (int i = 0; i < 6; ++i) {
    toml += "[[step]]\nview = \"grid\"\n[step.grid]\nproblem = [32768, 1024, " + std::to_string(1024 + 64 * i) +
            "]\ntile = [128, 128, 8]\norder = \"launch\"\nsplit_k = 1\nstream_k = false\ndevice = \"h200\"\n"
            "threads = 256\nregs = 128\nsmem = 16640\ndtype = \"f32\"\ncolor_by = \"order\"\ntime = 0.0\n"
            "[step.predict]\nquantity = \"grid.l2_hit_rate\"\ntolerance = 10\n";
    md += "\n## Step " + std::to_string(i) + "\nWhat is the hit rate?\n";
  }
  std::ofstream(dir / "a" / "lesson.toml") << toml;
  std::ofstream(dir / "a" / "en.md") << md;
  const Course c = load_course(dir.string(), kAssets);
  ASSERT_TRUE(c.lessons.at(0).ok()) << c.lessons[0].errors.at(0).text();
  const AppPaths paths{GEMMLAB_ROOT_DIR, dir.string(), kAssets};
  std::vector<Diagnostic> out;
  const double s = seconds([&] { out = check_steps_render(c, paths, nullptr, 0); });
  int not_checked = 0;
  for (const auto& d : out) not_checked += d.message.find("not checked: computing the course's predict answers") != std::string::npos;
  EXPECT_EQ(not_checked, 6) << s << " s";
  fs::remove_all(dir);
}

// The font atlas holds every glyph the text uses in every face: 7,000 CJK characters at 40 px made
// an atlas larger than a texture may be (every glyph a black box), all of CJK at 16 px cost
// 1.1 GB. Now the atlas stays within its budget, the glyphs are still there, and the app says why
// italic and headings look plainer.
TEST(RenderLimits, FontAtlasStaysWithinItsBudget) {
  fuzz::start_headless_imgui();
  std::vector<unsigned> cjk;
  for (unsigned cp = 0x4E00; cp < 0x4E00 + 7000; ++cp) cjk.push_back(cp);
  load_fonts(40, cjk, 16384);
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
  EXPECT_LE(static_cast<long long>(w) * h, kMaxAtlasTexels) << w << " x " << h;
  EXPECT_LE(h, 16384);
  bool said = false;
  for (const auto& n : fonts().notes) said |= n.find("distinct characters") != std::string::npos;
  EXPECT_TRUE(said);
  if (fonts().cjk) {
    EXPECT_NE(fonts().regular->FindGlyphNoFallback(0x4E00 + 6999), nullptr);
  }
  load_fonts(16, {}, 4096);  // back to what the other tests draw with
  io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
}

}  // namespace
}  // namespace gemmlab::app
