// The OpenGL 3.3 core window and the Dear ImGui context, shared by the interactive window and
// the headless `gemmlab shot` (which renders into an offscreen framebuffer of a hidden window).
#pragma once
#include <string>

struct GLFWwindow;

namespace gemmlab::app {

class App;

struct GuiContext {
  GLFWwindow* window = nullptr;
  std::string error;  // set when no window could be made (no display, no OpenGL 3.3)
  bool ok() const { return window != nullptr; }
};

// key_callback (may be null) sees every key press before Dear ImGui does.
GuiContext create_gui_context(int width, int height, bool visible, const char* title,
                              bool install_input_callbacks,
                              void (*key_callback)(GLFWwindow*, int, int, int, int) = nullptr);
void destroy_gui_context(GuiContext& ctx);
// Fonts for the course's characters at `size` px; (re)creates the font texture.
void build_fonts(const App& app, float size);
void apply_style(float scale);
// Every string ImGui renders between the two calls, as its log writes it, into *out (not
// nested): what `gemmlab shot` records of a frame, or of the views alone, for the GUI walk's text
// checks. The End() of a window that is not a child ends the capture early, as ImGui ends its log.
void begin_text_capture(std::string* out);
void end_text_capture();

}  // namespace gemmlab::app
