// Draws a lesson's Markdown blocks in the current ImGui window: wrapped text with bold, italic,
// code and links, headings, lists, quotes, code blocks, tables and images from assets/. Chinese
// text wraps between any two characters; Latin text between words.
#pragma once
#include <string>
#include <vector>

#include "model/markdown_doc.h"

namespace gemmlab::app {

void render_markdown(const std::vector<MdBlock>& blocks, const std::string& assets_dir);

}  // namespace gemmlab::app
