#include "fonts.h"

#include <cstdio>
#include <filesystem>
#include <utility>

namespace gemmlab::app {
namespace {

const char* first_existing(std::initializer_list<const char*> paths) {
  for (const char* p : paths)
    if (std::filesystem::exists(p)) return p;
  return nullptr;
}

}  // namespace

FontSet& fonts() {
  static FontSet f;
  return f;
}

void load_fonts(float size, const std::vector<unsigned>& extra) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  FontSet& f = fonts();
  f = FontSet{};
  f.size = size;

  // Glyph ranges must outlive the atlas build: keep them in statics.
  static ImVector<ImWchar> latin_ranges, cjk_ranges;
  latin_ranges.clear();
  cjk_ranges.clear();
  {
    ImFontGlyphRangesBuilder b;
    b.AddRanges(io.Fonts->GetGlyphRangesDefault());
    static const ImWchar symbols[] = {0x0370, 0x03FF,   // Greek
                                      0x2000, 0x206F,   // punctuation: dashes, bullets, ellipsis
                                      0x2190, 0x21FF,   // arrows
                                      0x2200, 0x22FF,   // maths
                                      0x2500, 0x257F,   // box drawing
                                      0x25A0, 0x25FF,   // shapes (play/pause)
                                      0x2700, 0x27BF,   // dingbats (check mark)
                                      0};
    b.AddRanges(symbols);
    for (unsigned cp : extra)
      if (cp <= 0xFFFF) b.AddChar(static_cast<ImWchar>(cp));
    b.BuildRanges(&latin_ranges);
  }
  {
    ImFontGlyphRangesBuilder b;
    static const ImWchar cjk_punct[] = {0x3000, 0x303F, 0xFF00, 0xFFEF, 0};
    b.AddRanges(cjk_punct);
    for (unsigned cp : extra)
      if (cp >= 0x2E80 && cp <= 0xFFFF) b.AddChar(static_cast<ImWchar>(cp));
    b.BuildRanges(&cjk_ranges);
  }

  const char* sans = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"});
  const char* bold = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"});
  const char* italic = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf"});
  const char* mono = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"});
  const char* cjk = first_existing({"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
                                    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
                                    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"});
  if (!sans) f.notes.push_back("DejaVu Sans not found (install fonts-dejavu-core): using "
                               "Dear ImGui's built-in font");
  if (!cjk) f.notes.push_back("no CJK font found (install fonts-wqy-microhei): Chinese text "
                              "will show as boxes");

  auto add = [&](const char* path, float px, bool with_cjk) -> ImFont* {
    ImFont* font = nullptr;
    if (path) {
      ImFontConfig cfg;
      cfg.OversampleH = 2;
      font = io.Fonts->AddFontFromFileTTF(path, px, &cfg, latin_ranges.Data);
    }
    if (!font) {
      ImFontConfig cfg;
      cfg.SizePixels = px;
      font = io.Fonts->AddFontDefault(&cfg);
    }
    if (with_cjk && cjk && path) {
      ImFontConfig cfg;
      cfg.MergeMode = true;
      cfg.OversampleH = 1;  // CJK glyphs are many; 1x keeps the atlas small
      cfg.PixelSnapH = true;
      if (io.Fonts->AddFontFromFileTTF(cjk, px, &cfg, cjk_ranges.Data)) f.cjk = true;
    }
    return font;
  };
  f.regular = add(sans, size, true);
  f.bold = add(bold ? bold : sans, size, true);
  f.italic = add(italic ? italic : sans, size, true);  // CJK stays upright inside *emphasis*
  f.mono = add(mono ? mono : sans, size * 0.95f, true);
  f.h1 = add(bold ? bold : sans, size * 1.5f, true);
  f.h2 = add(bold ? bold : sans, size * 1.25f, true);
  io.FontDefault = f.regular;
  io.Fonts->Build();

  // Every character the text uses, in every face the Markdown can pick: a missing one would draw
  // as '?' (Chinese *emphasis* did, before the italic face got the CJK glyphs).
  f.missing.clear();
  if (!sans || !cjk) return;
  const std::pair<const char*, ImFont*> faces[] = {{"regular", f.regular}, {"bold", f.bold}, {"italic", f.italic},
                                                   {"mono", f.mono},       {"h1", f.h1},     {"h2", f.h2}};
  for (const auto& [name, font] : faces) {
    int count = 0;
    unsigned first = 0;
    for (unsigned cp : extra)
      if (cp > 0x7F && cp <= 0xFFFF && !font->FindGlyphNoFallback(static_cast<ImWchar>(cp))) {
        if (count == 0) first = cp;
        ++count;
      }
    if (count > 0) {
      char text[160];
      std::snprintf(text, sizeof text, "the %s font lacks %d of the characters the text uses (first U+%04X): they draw as '?'",
                    name, count, first);
      f.missing.push_back(text);
    }
  }
}

}  // namespace gemmlab::app
