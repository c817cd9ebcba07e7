// Where a view's labels go. A LabelPlacer knows the space it has (a canvas, a panel) and the labels
// placed in it this frame: it draws a label only where the whole label fits that space and covers
// no label placed before; a label it cannot place is not drawn and is recorded, with why, in the
// frame's list of dropped labels (`gemmlab shot` writes it to the manifest; the GUI walk fails on
// any). A view that cannot label every cell of a dense grid labels none and says how to zoom in,
// rather than drop some (issue 47: lane numbers >= 10 missing at 1600x1000).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace gemmlab::app {

struct DroppedLabel {
  std::string text;
  std::string why;  // "cut by its space", "does not fit its box", "overlaps \"16 m0\""
};

// The frame's dropped labels; App::frame clears them when it starts.
void begin_label_frame();
const std::vector<DroppedLabel>& dropped_labels();
// For views that lay labels out themselves (a widget's text in a fixed width): records one.
void record_dropped_label(const std::string& text, const std::string& why);
// Records every window inside the current one (a view's area) whose widgets run past its right
// edge without a horizontal scroll bar: a control label or a line of text that is cut there
// ("Swiz" of "Swizzle<B,M,S>", "warp (-1" of "warp (-1: all)"). Call before the area's EndChild.
void record_cut_windows();

class LabelPlacer {
 public:
  LabelPlacer() = default;
  // `record`: false while the learner has zoomed or panned, when labels past the edge are theirs.
  LabelPlacer(ImDrawList* dl, ImVec2 min, ImVec2 max, bool record = true)
      : dl_(dl), min_(min), max_(max), record_(record) {}

  // Text with its top-left corner at `at`; false (not drawn, recorded) if it would leave the
  // space or cover a label placed before.
  bool text(ImVec2 at, const char* text, ImU32 color);
  // Right-aligned: the text ends at x.
  bool text_right(float x, float y, const char* text, ImU32 color);
  // Centred on `centre` horizontally, its top at y.
  bool text_centred(float centre_x, float y, const char* text, ImU32 color);
  // Text centred in a box (a cell); false (not drawn, recorded) if it does not fit the box. Boxes
  // do not overlap each other, so a boxed label is checked against its box only.
  bool in_box(ImVec2 p0, ImVec2 p1, const char* text, ImU32 color);
  // Whether text of this size fits at `at` (for a view choosing between two placements).
  bool free(ImVec2 at, ImVec2 size) const;

  ImVec2 min() const { return min_; }
  ImVec2 max() const { return max_; }

 private:
  bool refuse(const char* text, const std::string& why) const;

  ImDrawList* dl_ = nullptr;
  ImVec2 min_{0, 0}, max_{0, 0};
  bool record_ = true;
  struct Box {
    ImVec2 a, b;
    std::string text;
  };
  std::vector<Box> placed_;
};

}  // namespace gemmlab::app
