// libFuzzer target: a lesson's Markdown (en.md / zh.md): the step splitter, the image list and
// the block parser the lesson panel draws from. Seeds: lessons/*/*.md.
#include <string>

#include "model/lesson_format.h"
#include "model/markdown_doc.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto lesson = gemmlab::app::split_lesson_markdown(text, "fuzz.md");
  const auto images = gemmlab::app::markdown_images(text);
  const auto blocks = gemmlab::app::parse_markdown(text);
  return static_cast<int>(lesson.steps.size() + images.size() + blocks.size() > (1u << 30));
}
