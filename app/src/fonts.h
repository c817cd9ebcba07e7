// Fonts: DejaVu (fonts-dejavu-core) for Latin text and code, with WenQuanYi Micro Hei
// (fonts-wqy-microhei) merged in for the Chinese lessons. Only the CJK characters the course
// actually uses are rasterised: the full CJK range would make a texture too large for llvmpipe.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace gemmlab::app {

struct FontSet {
  ImFont* regular = nullptr;
  ImFont* bold = nullptr;
  ImFont* italic = nullptr;
  ImFont* mono = nullptr;
  ImFont* h1 = nullptr;
  ImFont* h2 = nullptr;
  float size = 16;
  bool cjk = false;                 // a CJK font was found and merged
  std::vector<std::string> notes;   // fonts not found (the app says so once)
  std::vector<std::string> missing; // with every font found: characters a font of the set lacks
};

FontSet& fonts();

// Texels the font atlas may take (128 MiB as RGBA; ImGui keeps an alpha copy too).
constexpr long long kMaxAtlasTexels = 32ll << 20;

// Builds the atlas (call before the renderer creates its font texture, or rebuild between
// frames). extra_code_points: every non-ASCII character the text will show. The atlas stays
// within kMaxAtlasTexels and max_texture_side (GL_MAX_TEXTURE_SIZE): past them the faces are
// shared, then the size shrinks, and fonts().notes says so; fonts().size is the size built.
void load_fonts(float size_px, const std::vector<unsigned>& extra_code_points, int max_texture_side = 8192);

}  // namespace gemmlab::app
