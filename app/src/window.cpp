#include "window.h"

#include <filesystem>

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <vector>

#include "app.h"
#include "app_log.h"
#include "gl_util.h"
#include "gui_context.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace {

struct KeyPress {
  int key, mods;
};
std::vector<KeyPress> g_keys;  // filled by GLFW's callback, drained once per frame

void on_glfw_key(GLFWwindow*, int key, int, int action, int mods) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT) g_keys.push_back({key, mods});
}

void write_capture(App& app, const CaptureRequest& req, int fb_w, int fb_h) {
  const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
  int x = 0, y = 0, w = fb_w, h = fb_h;
  if (req.view_only) {
    const ImVec4 r = app.view_rect();
    x = static_cast<int>(r.x * scale.x);
    y = static_cast<int>(r.y * scale.y);
    w = std::min(static_cast<int>(r.z * scale.x), fb_w - x);
    h = std::min(static_cast<int>(r.w * scale.y), fb_h - y);
  }
  if (w <= 0 || h <= 0) {
    app_log("error", "nothing to capture: the view has no area");
    return;
  }
  const auto pixels = read_pixels(x, y, w, h, fb_h);
  const std::string problem = write_png(req.path, w, h, pixels);
  if (problem.empty())
    app.status(trf("saved %s", req.path.c_str()));
  else
    app_log("error", problem);
}

}  // namespace

int run_window(const AppPaths& paths, const WindowOptions& options) {
  std::string config_problem, where_problem;
  const std::string cfg_path = config_path(&where_problem);
  Config config = cfg_path.empty() ? Config{} : load_config(cfg_path, &config_problem);
  if (!options.lang.empty()) config.lang = options.lang;
  if (!options.lesson.empty()) {
    config.last_course = course_key(paths.course, (std::filesystem::path(paths.root) / "lessons").string());
    config.last_lesson = options.lesson;
    config.last_step = std::max(0, options.step);
  } else if (options.step >= 0) {
    config.last_step = options.step;
  }
  if (options.width > 0) config.window_w = options.width, config.window_h = options.height;

  GuiContext ctx =
      create_gui_context(config.window_w, config.window_h, true, "GEMM Lab", true, &on_glfw_key);
  if (!ctx.ok()) {
    std::cerr << "gemmlab: " << ctx.error << "\n";
    return 1;
  }
  if (!config_problem.empty()) app_log("warning", config_problem);
  if (!where_problem.empty()) app_log("warning", where_problem);
  GLFWwindow* window = ctx.window;
  if (config.window_x >= 0 && config.window_y >= 0 && options.width == 0)
    glfwSetWindowPos(window, config.window_x, config.window_y);
  if (config.window_maximized) glfwMaximizeWindow(window);

  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);
  const float ui_scale = std::max(1.f, xscale);

  App app(paths, config, false);
  if (!options.lesson.empty() && app.course().index_of(options.lesson) < 0)
    app_log("warning", "no lesson \"" + options.lesson + "\" in " + paths.course +
                           "; opened the first lesson");
  apply_style(ui_scale);
  float font_size = config.font_size > 0 ? config.font_size : 16.f * ui_scale;
  build_fonts(app, font_size);

  std::string title;
  auto last = std::chrono::steady_clock::now();
  int idle_frames = 0;
  // What escapes a frame ends the session, but the learner's progress is still saved below.
  int rc = 0;
  try {
  while (!glfwWindowShouldClose(window) && !app.quit_requested()) {
    // Sleep while nothing moves: the app should not burn a core showing a still picture.
    const bool animating = app.active_view() && app.active_view()->playing();
    if (animating || idle_frames < 4) {
      glfwPollEvents();
      ++idle_frames;
    } else {
      const auto before = std::chrono::steady_clock::now();
      glfwWaitEventsTimeout(0.5);
      // Woken early: an event arrived; draw a few frames so ImGui settles (hover, release).
      if (std::chrono::steady_clock::now() - before < std::chrono::milliseconds(490)) idle_frames = 0;
    }
    if (ImGui::IsAnyMouseDown() || ImGui::GetIO().WantTextInput) idle_frames = 0;
    if (app.font_rebuild_requested()) {
      build_fonts(app, app.config().font_size);
      app.font_rebuilt();
    }
    const auto now = std::chrono::steady_clock::now();
    const float dt = std::chrono::duration<float>(now - last).count();
    last = now;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    for (const KeyPress& k : g_keys) app.on_key(k.key, k.mods);
    if (!g_keys.empty()) idle_frames = 0;
    g_keys.clear();
    app.frame(dt);
    ImGui::Render();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.09f, 0.09f, 0.11f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (auto cap = app.take_capture()) write_capture(app, *cap, fb_w, fb_h);
    glfwSwapBuffers(window);
    const std::string t = app.window_title();
    if (t != title) {
      glfwSetWindowTitle(window, t.c_str());
      title = t;
      idle_frames = 0;
    }
  }
  } catch (const std::exception& e) {
    std::cerr << "gemmlab: internal error, the window closes (please report it): " << e.what() << "\n";
    rc = 70;
  }

  Config& c = app.config();
  c.window_maximized = glfwGetWindowAttrib(window, GLFW_MAXIMIZED) == GLFW_TRUE;
  if (!c.window_maximized) {
    glfwGetWindowPos(window, &c.window_x, &c.window_y);
    glfwGetWindowSize(window, &c.window_w, &c.window_h);
  }
  if (!cfg_path.empty()) {
    std::string note;
    const std::string problem = save_config(c, cfg_path, &note);
    if (!problem.empty()) app_log("warning", "settings not saved: " + problem);
    if (!note.empty()) app_log("warning", note);
  }
  destroy_gui_context(ctx);
  return rc;
}

}  // namespace gemmlab::app
