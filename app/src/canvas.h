// A zoomable, pannable drawing area for the grid views. Content is laid out in "units" (one
// cell = one unit, or whatever the view chooses); the canvas fits it to the area, then the wheel
// zooms around the mouse, dragging pans, double-click fits again. A unit along x may be drawn
// wider than along y (x_stretch): a cell per 128 x 256 tile is drawn twice as wide as tall, so
// the picture keeps the problem's shape.
#pragma once
#include <imgui.h>

#include <algorithm>
#include <optional>

#include "gl_util.h"
#include "label_placer.h"

namespace gemmlab::app {

struct CanvasState {
  float zoom = 1.f;   // over the fitted scale
  ImVec2 pan{0, 0};   // pixels, added after centring
  void reset() { zoom = 1.f, pan = {0, 0}; }
};

class Canvas {
 public:
  // size.x/y <= 0 take the remaining space of the window (minus -size).
  Canvas(const char* id, CanvasState& state, float content_w, float content_h,
         ImVec2 size = {0, 0}, float margin = 8.f, float x_stretch = 1.f);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  ImVec2 to_screen(float x, float y) const { return {origin_.x + x * scale_x(), origin_.y + y * scale_}; }
  ImVec2 to_content(ImVec2 screen) const {
    return {(screen.x - origin_.x) / scale_x(), (screen.y - origin_.y) / scale_};
  }
  // Pixels per unit: the smaller of the two directions (what fits in a cell), and along x.
  float scale() const { return std::min(scale_, scale_x()); }
  float scale_x() const { return scale_ * x_stretch_; }
  ImDrawList* draw_list() const { return dl_; }
  ImVec2 min() const { return min_; }
  ImVec2 max() const { return max_; }
  bool hovered() const { return hovered_; }
  // The mouse in content units, while it is over the canvas.
  std::optional<ImVec2> mouse() const;
  // A click (press and release without dragging) over the canvas, this frame.
  bool clicked() const { return clicked_; }

  // One texel per cell: the texture drawn over cols x rows units at (x, y).
  void draw_cells(const CellTexture& tex, float x, float y, float cols, float rows) const;
  // Lines between cells, only where they are at least min_px apart (else they would be noise).
  void draw_grid_lines(float x, float y, int cols, int rows, float min_px = 6.f) const;
  // Ticks and their values along the content's bottom edge (axis_x, below row y_at) or left edge
  // (axis_y, left of column x_at), for units 0..extent: a tick every 1, 2 or 5 x 10^k units, as
  // dense as the labels allow at this zoom; a label reads origin + units * per_unit, and `unit` names what
  // they count after the last one ("elements", "k iterations").
  void axis_x(float y_at, float extent, double per_unit, const char* unit, double origin = 0);
  void axis_y(float x_at, float extent, double per_unit, const char* unit, double origin = 0);
  // Text centred in the box (content units). Not drawn where the box is scrolled out of sight;
  // recorded as dropped (label_placer.h) where it does not fit the box: a view that cannot label
  // every cell at this scale labels none (cell_fits) and says how to zoom in.
  bool label(float x0, float y0, float x1, float y1, const char* text, ImU32 color);
  // Whether text as wide as `widest` fits a cell of w x h units at this scale.
  bool cell_fits(const char* widest, float w = 1, float h = 1) const;
  // Free labels (axis names, headers) inside the canvas's area, placed so none is cut or covers
  // another (label_placer.h).
  LabelPlacer& labels() { return labels_; }
  // The learner has not zoomed or panned: the whole content is in view.
  bool fitted() const { return fitted_; }

 private:
  ImDrawList* dl_ = nullptr;
  ImVec2 min_, max_, origin_;
  float scale_ = 1.f;  // pixels per unit along y
  float x_stretch_ = 1.f;
  bool hovered_ = false, clicked_ = false, fitted_ = true;
  LabelPlacer labels_;
};

}  // namespace gemmlab::app
