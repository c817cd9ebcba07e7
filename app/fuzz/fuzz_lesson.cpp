// libFuzzer target: lesson.toml as a learner writes it, through the loader the app and
// `gemmlab lessons --check` use (one lesson in a scratch course; en.md fixed).
// Seeds: lessons/*/lesson.toml.
#include "fuzz_support.h"
#include "model/lesson_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  using gemmlab::fuzz::scratch;
  static const bool ready = [] {
    fs::create_directories(scratch() / "course" / "x");
    std::ofstream(scratch() / "course" / "course.toml") << "lessons = [\"x\"]\n";
    std::ofstream(scratch() / "course" / "x" / "en.md") << "# X\n\n## One\nText.\n\n## Two\nMore.\n";
    return true;
  }();
  (void)ready;
  gemmlab::fuzz::write_file(scratch() / "course" / "x" / "lesson.toml", data, size);
  (void)gemmlab::app::load_course((scratch() / "course").string(), scratch().string());
  return 0;  // libFuzzer reserves other values
}
