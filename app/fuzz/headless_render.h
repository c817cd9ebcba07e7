// Draws a course the way the window does, with Dear ImGui but no renderer and no OpenGL: ImGui
// builds its draw lists on the CPU, and without ImGuiBackendFlags_RendererHasVtxOffset it asserts
// when a draw list passes 65,536 vertices (16-bit indices), as a renderer without that support
// would fail. Used by the render fuzz target and the render-limits test.
#pragma once
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app.h"
#include "fonts.h"
#include "gl_util.h"

namespace gemmlab::fuzz {

inline void start_headless_imgui() {
  static const bool ready = [] {
    app::set_gl_available(false);
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = {1280, 800};
    io.DeltaTime = 1.f / 60;
    app::load_fonts(16, {}, 4096);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);  // builds the atlas
    return true;
  }();
  (void)ready;
}

// The largest vertex count of any draw list of the last frame.
inline int largest_draw_list() {
  int most = 0;
  if (const ImDrawData* d = ImGui::GetDrawData())
    for (int i = 0; i < d->CmdListsCount; ++i) most = std::max(most, d->CmdLists[i]->VtxBuffer.Size);
  return most;
}

// One frame as the window draws it; aborts (a finding) when a draw list passes 16-bit indices.
// Returns that frame's largest draw list.
inline int draw_frame(app::App& a) {
  ImGui::NewFrame();
  a.frame(1.f / 60);
  ImGui::Render();
  const int n = largest_draw_list();
  if (n > 65535) {
    std::fprintf(stderr, "a draw list of %d vertices: past ImGui's 16-bit indices\n", n);
    std::abort();
  }
  return n;
}

// Which views a walk draws at each step: all of them, or its own view and those it writes settings
// of (the fuzz target's walk after its first input): the other views show what they showed
// before, the same code with the same state, and drawing them again cost three quarters of an
// input's time.
enum class ViewsPerStep { All, Changed };

// Every step of every lesson, a few frames each, through the views `which` names. Returns the
// largest draw list seen.
inline int draw_every_step(app::App& a, int frames_per_step = 2, ViewsPerStep which = ViewsPerStep::All) {
  int most = 0;
  const auto& lessons = a.course().lessons;
  for (int li = 0; li < static_cast<int>(lessons.size()); ++li) {
    const int steps = std::max<int>(1, static_cast<int>(lessons[li].steps.size()));
    for (int si = 0; si < steps; ++si) {
      a.open(li, si);
      for (int f = 0; f < frames_per_step; ++f) most = std::max(most, draw_frame(a));
      const bool all = which == ViewsPerStep::All;
      const app::LessonStep* step = si < static_cast<int>(lessons[li].steps.size()) ? &lessons[li].steps[si] : nullptr;
      for (const auto& v : a.views()) {
        // The step's own view was just drawn by the frames above (open() put it in front).
        if (!all && !(step && step->view != v->id() && step->written.contains(v->id()))) continue;
        a.select_view(v->id());
        most = std::max(most, draw_frame(a));
      }
    }
  }
  return most;
}

}  // namespace gemmlab::fuzz
