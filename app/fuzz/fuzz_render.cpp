// libFuzzer target: a lesson a hostile writer made, drawn frame by frame through every view with
// Dear ImGui's limits checked (headless_render.h; no GPU, no display). The input is the lesson's
// lesson.toml, a line "%%", then its en.md; without the line, all of it is en.md under a fixed
// lesson.toml of three steps. Seeds: the shipped lessons (app/fuzz/run_fuzz.sh joins them).
#include <string>

#include "fuzz_support.h"
#include "headless_render.h"
#include "replay_limit.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  using gemmlab::fuzz::scratch;
  static const bool ready = [] {
    fs::create_directories(scratch() / "course" / "x");
    std::ofstream(scratch() / "course" / "course.toml") << "lessons = [\"x\"]\n";
    gemmlab::fuzz::start_headless_imgui();
    // Launches up to 2^18 L2 look-ups are replayed (a few milliseconds); larger ones draw the
    // "not replayed" note. Without this the default 4096^3 replay took a second per input.
    gemmlab::app::set_l2_replay_limit(1u << 18);
    return true;
  }();
  (void)ready;
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::string toml = "id = \"x\"\ntitle.en = \"X\"\n[[step]]\nview = \"threadmap\"\n[[step]]\nview = \"banks\"\n"
                     "[[step]]\nview = \"grid\"\n";
  std::string md = input;
  if (const auto cut = input.find("\n%%\n"); cut != std::string::npos) {
    toml = input.substr(0, cut);
    md = input.substr(cut + 4);
  }
  std::ofstream(scratch() / "course" / "x" / "lesson.toml", std::ios::binary | std::ios::trunc) << toml;
  std::ofstream(scratch() / "course" / "x" / "en.md", std::ios::binary | std::ios::trunc) << md;
  // One App for the whole run, the course opened afresh per input: building the app and its
  // views' first models took half of an input's time. Views keep their state between inputs, so
  // a finding that does not reproduce alone replays with the corpus before it.
  static gemmlab::app::App a(gemmlab::app::AppPaths{GEMMLAB_ROOT_DIR, (scratch() / "course").string(),
                                                    std::string(GEMMLAB_ROOT_DIR) + "/assets"},
                             gemmlab::app::Config{}, true);
  a.open_course((scratch() / "course").string());
  static bool first = true;  // every view once, then those each step names (headless_render.h)
  gemmlab::fuzz::draw_every_step(a, 1, first ? gemmlab::fuzz::ViewsPerStep::All : gemmlab::fuzz::ViewsPerStep::Changed);
  first = false;
  return 0;
}
