// The lesson panel: lesson list, title, step k of n, the step's Markdown, the predict question,
// Prev / Next / Reset step. A broken lesson shows its problems (file:line) instead of its text.
#pragma once

namespace gemmlab::app {

class App;
void draw_lesson_panel(App& app);

// Where a named widget was drawn last (for the GUI tests: the xdotool test clicks real buttons,
// gui_legends.sh finds every colour-coded view's legend):
// written as JSON lines to the file named by $GEMMLAB_UI_TRACE, only when it moves.
void ui_trace(const char* name);

}  // namespace gemmlab::app
