#include "fonts.h"

#include <algorithm>
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

// Glyphs a zero-terminated list of [first, last] ranges asks for.
double range_glyphs(const ImVector<ImWchar>& ranges) {
  double n = 0;
  for (int i = 0; i + 1 < ranges.Size && ranges[i]; i += 2) n += ranges[i + 1] - ranges[i] + 1;
  return n;
}

}  // namespace

FontSet& fonts() {
  static FontSet f;
  return f;
}

void load_fonts(float size, const std::vector<unsigned>& extra, int max_texture_side) {
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
  // The atlas budget: every face holds every glyph the text uses, so thousands of CJK characters
  // at a large size make an atlas larger than a texture may be (drawn as black boxes) or than
  // memory should hold. Estimated before building (the build itself is what costs); over the
  // budget, italic shares the regular face and headings the bold one (drawn at text size), and
  // only then does the size shrink. Said in f.notes.
  const int max_side = std::min(max_texture_side, 16384);
  const long long budget = std::min<long long>(kMaxAtlasTexels, static_cast<long long>(max_side) * max_side / 2);
  const double glyphs = range_glyphs(latin_ranges) + range_glyphs(cjk_ranges);
  auto texels = [&](float px, double faces) { return glyphs * faces * (px + 2) * (px + 2); };
  const double kAllFaces = 1 + 1 + 1 + 0.95 * 0.95 + 1.5 * 1.5 + 1.25 * 1.25, kSharedFaces = 1 + 1 + 0.95 * 0.95;
  const bool shared = texels(size, kAllFaces) > budget;
  const double face_units = shared ? kSharedFaces : kAllFaces;
  const float wanted = size;
  while (size > 8 && texels(size, face_units) > budget) size -= 1;
  f.size = size;
  if (shared) {
    char text[240];
    std::snprintf(text, sizeof text,
                  "the text uses %.0f distinct characters: to keep the font atlas within %lld Mpixels, italic and "
                  "headings use the regular and bold faces",
                  glyphs, budget >> 20);
    f.notes.push_back(text);
    if (size < wanted)
      f.notes.push_back("the font atlas would still be too large: the font size is " + std::to_string(int(size)) +
                        " px instead of " + std::to_string(int(wanted)) + " px");
  }
  io.Fonts->TexDesiredWidth = std::min(4096, max_side);
  f.regular = add(sans, size, true);
  f.bold = add(bold ? bold : sans, size, true);
  f.italic = shared ? f.regular : add(italic ? italic : sans, size, true);  // CJK stays upright inside *emphasis*
  f.mono = add(mono ? mono : sans, size * 0.95f, true);
  f.h1 = shared ? f.bold : add(bold ? bold : sans, size * 1.5f, true);
  f.h2 = shared ? f.bold : add(bold ? bold : sans, size * 1.25f, true);
  io.FontDefault = f.regular;
  io.Fonts->Build();
  if (io.Fonts->TexHeight > max_side || io.Fonts->TexWidth > max_side) {
    // The estimate was wrong for this font: the Latin faces alone, which always fit.
    f.notes.push_back("the font atlas (" + std::to_string(io.Fonts->TexWidth) + " x " +
                      std::to_string(io.Fonts->TexHeight) + ") exceeds the largest texture (" + std::to_string(max_side) +
                      "): Chinese text shows as '?'");
    io.Fonts->Clear();
    cjk = nullptr;
    f.regular = f.italic = add(sans, size, false);
    f.bold = f.h1 = f.h2 = add(bold ? bold : sans, size, false);
    f.mono = add(mono ? mono : sans, size * 0.95f, false);
    io.FontDefault = f.regular;
    io.Fonts->Build();
  }

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
