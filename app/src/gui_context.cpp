#include "gui_context.h"

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // GImGui->LogEnabled: whether a window's End() already ended the log
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "app.h"
#include "app_log.h"
#include "fonts.h"
#include "gl_util.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace {
std::string last_glfw_error;
void on_glfw_error(int code, const char* text) {
  last_glfw_error = "GLFW error " + std::to_string(code) + ": " + text;
}
}  // namespace

GuiContext create_gui_context(int width, int height, bool visible, const char* title,
                              bool install_input_callbacks,
                              void (*key_callback)(GLFWwindow*, int, int, int, int)) {
  GuiContext ctx;
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    ctx.error = "cannot start GLFW (" + last_glfw_error +
                "). The app needs a display: on a machine without one, run it under Xvfb, "
                "e.g. xvfb-run -a gemmlab shot ...";
    return ctx;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  ctx.window = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!ctx.window) {
    ctx.error = "cannot open an OpenGL 3.3 core window (" + last_glfw_error +
                "). Update the graphics driver, or use Mesa's software renderer: "
                "LIBGL_ALWAYS_SOFTWARE=1 gemmlab";
    glfwTerminate();
    return ctx;
  }
  glfwMakeContextCurrent(ctx.window);
  // Installed first: the ImGui backend chains to callbacks that were there before it.
  if (key_callback) glfwSetKeyCallback(ctx.window, key_callback);
  glfwSwapInterval(1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout lives in GEMM Lab's own config file
  // No keyboard navigation: the arrows and Space belong to the lesson (steps, play/pause).
  ImGui_ImplGlfw_InitForOpenGL(ctx.window, install_input_callbacks);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  return ctx;
}

void destroy_gui_context(GuiContext& ctx) {
  if (!ctx.window) return;
  release_image_textures();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(ctx.window);
  glfwTerminate();
  ctx.window = nullptr;
}

void build_fonts(const App& app, float size) {
  std::vector<unsigned> points = course_code_points(app.course());
  for (unsigned cp : ui_code_points(app.paths().assets)) points.push_back(cp);  // the Chinese UI's glyphs
  load_fonts(size, points, CellTexture::max_size());
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  static bool noted = false;
  if (!noted) {
    for (const auto& n : fonts().notes) app_log("warning", n);
    for (const auto& m : fonts().missing) app_log("error", m);
  }
  noted = true;
}

void apply_style(float scale) {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.FrameRounding = 3;
  style.TabRounding = 3;
  style.ScrollbarRounding = 4;
  style.ChildRounding = 3;
  style.WindowPadding = {8, 8};
  style.ItemSpacing = {8, 5};
  style.ScaleAllSizes(scale);
}

namespace {
std::string* g_captured = nullptr;
void (*g_clipboard)(void*, const char*) = nullptr;
}  // namespace

// ImGui's log hands what it captured to the clipboard function when it finishes (at our
// LogFinish, or at the End() of the top window it began in): borrow that function meanwhile.
void begin_text_capture(std::string* out) {
  ImGuiIO& io = ImGui::GetIO();
  out->clear();
  g_captured = out;
  g_clipboard = io.SetClipboardTextFn;
  io.SetClipboardTextFn = [](void*, const char* text) { *g_captured = text; };
  ImGui::LogToClipboard();
}

void end_text_capture() {
  if (GImGui->LogEnabled) ImGui::LogFinish();
  ImGui::GetIO().SetClipboardTextFn = g_clipboard;
  g_captured = nullptr;
}

}  // namespace gemmlab::app
