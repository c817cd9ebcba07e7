// libFuzzer target: a lesson's Markdown (en.md / zh.md): the step splitter, the image list and
// the block parser the lesson panel draws from. Seeds: lessons/*/*.md.
#include <string>

#include "model/lesson_format.h"
#include "model/markdown_doc.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)gemmlab::app::split_lesson_markdown(text, "fuzz.md");
  (void)gemmlab::app::markdown_images(text);
  (void)gemmlab::app::parse_markdown(text);
  return 0;
}
