// Widgets the views share: labelled integer pairs, string combos, the error box that names a
// broken rule, a tooltip helper.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/ui_text.h"  // tr(): every view's words in the learner's language

namespace gemmlab::app {

// Width of one compact input field, scaled with the font.
float field_width(float chars = 6);

bool input_int(const char* label, int* v, int lo, int hi, float width_chars = 5);
bool input_int2(const char* label, int v[2], int lo, int hi, float width_chars = 5);
bool input_int3(const char* label, int v[3], int lo, int hi, float width_chars = 6);
// A combo over string values; returns true when `value` changed.
bool combo_string(const char* label, std::string* value, const std::vector<std::string>& items,
                  float width_chars = 12);
// A red box with the rule a setting breaks; the view draws nothing else for the broken part.
void error_box(const std::string& message);
void note_text(const std::string& message);  // dim, wrapped
// Where a predict step hides a picture or a number (model/predict_rules.h): a framed box naming
// what is left out until Reveal, `height` pixels tall (0: one line).
void hidden_until_reveal(const char* fact, float height = 0);
// "(?)" with a tooltip.
void help_marker(const char* text);
// Tooltip lines "key: value", aligned.
void tooltip_row(const char* key, const std::string& value);

// SameLine() when an item `next_width` wide still fits on this line, else start a new line.
void same_line_if_fits(float next_width);

// Bytes as decimal MB, to the precision a small number needs: 0.75 MB, 12.6 MB, 1,376 MB.
std::string fmt_mb(double bytes);

// Legends, one line each, for the colour-coded views (palette.h):
// "title: [0][1][2] ... [n-1]" with id_color(first + i) swatches, at most `shown` of them.
void legend_ids(const char* title, int count, int first = 0, int shown = 12);
// "title: low [gradient] high" with heat_color(0..1).
void legend_heat(const char* title, const std::string& low, const std::string& high);
// Named colours: "title: [colour] name  [colour] name ...".
void legend_swatches(const char* title, const std::vector<std::pair<std::uint32_t, std::string>>& entries);

}  // namespace gemmlab::app
