// libFuzzer target: a lesson's Markdown (en.md / zh.md): the step splitter, the checks of what the
// panel would refuse (nesting, tables, images) and the block parser the lesson panel draws from.
// Seeds: lessons/*/*.md.
#include <string>

#include "model/input_limits.h"
#include "model/lesson_format.h"
#include "model/markdown_doc.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const gemmlab::app::LessonText split = gemmlab::app::split_lesson_markdown(text, "fuzz.md");
  std::vector<gemmlab::app::Diagnostic> errors;
  gemmlab::app::check_markdown_renders(text, split, "/nonexistent-assets", "fuzz.md", errors);
  (void)gemmlab::app::parse_markdown(text);
  return 0;
}
