// `gemmlab shot`: render lesson steps offscreen (hidden window + framebuffer object) to PNG, for
// the README, the GUI tests and the frame-time benchmark. The frame is App::frame(), the same
// code the window runs.
#include "shot.h"

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app.h"
#include "app_log.h"
#include "gl_util.h"
#include "gui_context.h"
#include "label_placer.h"
#include "model/files.h"
#include "model/json_text.h"
#include "model/predict_rules.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
namespace {

// Writes a report file; false (the problem on stderr) when it could not be written.
bool write_or_report(const std::string& path, const std::string& text) {
  const std::string problem = write_text_file(path, text);
  if (!problem.empty()) std::cerr << "gemmlab shot: " << problem << "\n";
  return problem.empty();
}


// One frame at the offscreen size; returns its wall time in ms (CPU + GL, glFinish included).
// *build_ms (optional): the part spent building the UI (App::frame and ImGui::Render).
// *text (optional): every string ImGui rendered in the frame (its log), for the GUI walk's search
// for English left in the Chinese UI.
double render_frame(App& app, const OffscreenTarget& target, float dt, double* build_ms = nullptr,
                    std::string* text = nullptr) {
  const auto t0 = std::chrono::steady_clock::now();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(target.width()), float(target.height()));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = dt > 0 ? dt : 1.f / 60;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  if (text) begin_text_capture(text);
  app.frame(dt);
  if (text) end_text_capture();
  ImGui::Render();
  if (build_ms)
    *build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  target.bind();
  glClearColor(0.09f, 0.09f, 0.11f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glFinish();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Enough frames for ImGui to settle: tab switches and auto-sized children take a frame each.
void settle(App& app, const OffscreenTarget& target) {
  for (int i = 0; i < 4; ++i) render_frame(app, target, 0);
}

std::string save(App& app, const OffscreenTarget& target, const std::string& path, bool view_only) {
  int x = 0, y = 0, w = target.width(), h = target.height();
  if (view_only) {
    const ImVec4 r = app.view_rect();
    x = int(r.x), y = int(r.y), w = std::min(int(r.z), w - x), h = std::min(int(r.w), h - y);
  }
  target.bind();
  return write_png(path, w, h, read_pixels(x, y, w, h, target.height()));
}

nlohmann::json step_meta(const App& app) {
  const ImVec4 r = app.view_rect();
  nlohmann::json m;
  m["lesson"] = app.lesson() ? app.lesson()->id : "";
  m["step"] = app.step_index() + 1;
  m["view"] = app.active_view() ? app.active_view()->id() : "";
  m["view_rect"] = {int(r.x), int(r.y), int(r.z), int(r.w)};
  m["lesson_ok"] = app.lesson() ? app.lesson()->ok() : false;
  // Labels the view wanted to draw in the last frame and could not fit (the GUI walk wants none).
  m["dropped_labels"] = nlohmann::json::array();
  for (const DroppedLabel& d : dropped_labels()) m["dropped_labels"].push_back(d.text + " (" + d.why + ")");
  return m;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  return v[i];
}

}  // namespace

int run_shot(const AppPaths& paths, const ShotOptions& o) {
  GuiContext ctx = create_gui_context(o.width, o.height, false, "GEMM Lab (offscreen)", false);
  if (!ctx.ok()) {
    std::cerr << "gemmlab shot: " << ctx.error << "\n";
    return 1;
  }
  int rc = 0;
  {
    Config config;  // a shot never reads or writes the user's settings
    config.lang = o.lang;
    App app(paths, config, !o.frametime);
    apply_style(1.f);
    build_fonts(app, o.font_size);
    OffscreenTarget target;
    if (!target.create(o.width, o.height)) {
      std::cerr << "gemmlab shot: the OpenGL driver refused a " << o.width << "x" << o.height
                << " framebuffer; try a smaller --size\n";
      destroy_gui_context(ctx);
      return 1;
    }
    const Course& course = app.course();

    if (o.frametime) {
      nlohmann::json report;
      report["size"] = {o.width, o.height};
      report["frames_per_step"] = o.frames;
      report["renderer"] = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      nlohmann::json steps = nlohmann::json::array();
      double worst = 0;
      for (int li = 0; li < static_cast<int>(course.lessons.size()); ++li) {
        const int n = std::max<int>(1, static_cast<int>(course.lessons[li].steps.size()));
        for (int si = 0; si < n; ++si) {
          app.open(li, si);
          settle(app, target);
          for (const auto& v : app.views()) v->wait_idle();
          settle(app, target);
          // Animate what can animate: that is the frame the learner waits on.
          if (View* v = app.active_view(); v && v->has_animation()) v->set_playing(true);
          std::vector<double> ms, build;
          for (int f = 0; f < o.frames; ++f) {
            double b = 0;
            ms.push_back(render_frame(app, target, 1.f / 60, &b));
            build.push_back(b);
          }
          const double p50 = percentile(ms, 0.5), p99 = percentile(ms, 0.99);
          const double vertices = ImGui::GetDrawData() ? ImGui::GetDrawData()->TotalVtxCount : 0;
          worst = std::max(worst, p99);
          steps.push_back({{"lesson", course.lessons[li].id}, {"step", si + 1},
                           {"view", app.active_view() ? app.active_view()->id() : ""},
                           {"p50_ms", p50}, {"p99_ms", p99}, {"build_p50_ms", percentile(build, 0.5)},
                           {"vertices", vertices},
                           {"max_ms", *std::max_element(ms.begin(), ms.end())}});
          std::fprintf(stderr, "%-28s step %2d  %-10s p50 %6.2f ms  p99 %6.2f ms  (UI build p50 %5.2f ms, %6.0f vertices)\n",
                       course.lessons[li].id.c_str(), si + 1,
                       app.active_view() ? app.active_view()->id() : "", p50, p99,
                       percentile(build, 0.5), vertices);
        }
      }
      report["steps"] = steps;
      report["worst_p99_ms"] = worst;
      report["target_ms"] = 16.7;
      std::cout << json_text(report, 2) << "\n";
      if (!o.out.empty() && !write_or_report(o.out, json_text(report, 2) + "\n")) rc = 1;
    } else if (o.all) {
      std::error_code ec;
      fs::create_directories(o.out_dir, ec);
      nlohmann::json manifest = nlohmann::json::array();
      for (int li = 0; li < static_cast<int>(course.lessons.size()); ++li) {
        const int n = std::max<int>(1, static_cast<int>(course.lessons[li].steps.size()));
        for (int si = 0; si < n; ++si) {
          app.open(li, si);
          settle(app, target);
          const std::string file = course.lessons[li].id + "-step" + std::to_string(si + 1) + ".png";
          const std::string problem = save(app, target, (fs::path(o.out_dir) / file).string(), false);
          if (!problem.empty()) {
            std::cerr << "gemmlab shot: " << problem << "\n";
            rc = 1;
          }
          auto m = step_meta(app);
          m["file"] = file;
          if (o.lang != "en") {
            std::string text;
            render_frame(app, target, 0, nullptr, &text);
            m["text"] = text;
          }
          const Lesson& L = course.lessons[li];
          if (L.ok() && si + 1 < static_cast<int>(L.steps.size()) && L.steps[si + 1].predict) {
            // The next step's question as this step shows it: its answer here, and the views' text
            // (the GUI walk: no answer one step early, issue 47).
            const PredictSpec& next = *L.steps[si + 1].predict;
            m["next_predict"] = {{"quantity", next.quantity}};
            for (const auto& v : app.views()) v->wait_idle();
            if (auto here = app.predict_answer(next)) m["next_predict"]["answer_here"] = *here;
            std::string views_text;
            app.set_views_text_sink(&views_text);
            render_frame(app, target, 0);
            app.set_views_text_sink(nullptr);
            m["next_predict"]["views_text"] = views_text;
          }
          if (L.ok() && si < static_cast<int>(L.steps.size()) && L.steps[si].predict) {
            const PredictSpec& spec = *L.steps[si].predict;
            auto answer = app.predict_answer(spec);
            m["predict"] = {{"quantity", spec.quantity}};
            if (answer) m["predict"]["answer"] = *answer;
            else m["predict"]["error"] = answer.error();
            // What the views drew with the question open and after Reveal (the GUI walk checks
            // that none of the step's hidden facts was drawn before, and its answer facts after).
            auto drawn = [&] {
              for (const auto& v : app.views()) v->wait_idle();
              settle(app, target);
              nlohmann::json facts = nlohmann::json::array();
              for (const auto& v : app.views())
                for (const auto& f : v->facts_drawn()) facts.push_back(f);
              return facts;
            };
            m["predict"]["hidden"] = hidden_facts(spec);
            m["predict"]["drawn"] = drawn();
            std::string views_text;  // and every string the views wrote, for the answer's number
            app.set_views_text_sink(&views_text);
            render_frame(app, target, 0);
            app.set_views_text_sink(nullptr);
            m["predict"]["views_text"] = views_text;
            app.reveal_predict(true);
            m["predict"]["drawn_revealed"] = drawn();
            if (const PredictRule* rule = predict_rule(spec.quantity)) m["predict"]["answer_facts"] = rule->answer_facts;
            app.reveal_predict(false);
          }
          manifest.push_back(m);
        }
      }
      if (!write_or_report((fs::path(o.out_dir) / "manifest.json").string(), json_text(manifest, 2) + "\n")) rc = 1;
      // English the views asked tr() for and the catalogue lacks (the walk in Chinese wants none).
      nlohmann::json missing = nlohmann::json::array();
      for (const auto& s : untranslated()) missing.push_back(s);
      if (!write_or_report((fs::path(o.out_dir) / "untranslated.json").string(), json_text(missing, 2) + "\n")) rc = 1;
      std::cerr << "gemmlab shot: wrote " << manifest.size() << " screenshots to " << o.out_dir
                << "\n";
    } else {
      const int li = course.index_of(o.lesson);
      if (li < 0) {
        std::cerr << "gemmlab shot: no lesson \"" << o.lesson << "\" in " << paths.course
                  << "; `gemmlab lessons --json` lists them\n";
        rc = 2;
      } else {
        const int n = static_cast<int>(course.lessons[li].steps.size());
        const Lesson& L = course.lessons[li];
        if (o.step < 1 || (n > 0 && o.step > n)) {
          std::cerr << "gemmlab shot: lesson " << o.lesson << " has steps 1.." << n
                    << "; --step " << o.step << " is not one of them\n";
          rc = 2;
        } else if (o.reveal && !(L.ok() && L.steps[o.step - 1].predict)) {
          std::cerr << "gemmlab shot: --reveal: step " << o.step << " of " << o.lesson
                    << (L.ok() ? " asks no predict question; `gemmlab lessons --answers` lists the steps that do\n"
                               : " cannot be shown: its lesson has problems (`gemmlab lessons --check`)\n");
          rc = 2;
        } else if (!o.exercise_solution.empty() && !(L.ok() && !L.steps[o.step - 1].exercise.empty())) {
          std::cerr << "gemmlab shot: --exercise-solution: step " << o.step << " of " << o.lesson
                    << (L.ok() ? " is no exercise step; `gemmlab exercise --list` lists the exercises\n"
                               : " cannot be shown: its lesson has problems (`gemmlab lessons --check`)\n");
          rc = 2;
        } else {
          app.set_exercise_solution(o.exercise_solution);
          app.open(li, o.step - 1);
          if (!o.view.empty()) app.select_view(o.view);
          if (o.reveal) app.reveal_predict(true);
          settle(app, target);
          for (const auto& v : app.views()) v->wait_idle();
          settle(app, target);
          const std::string problem = save(app, target, o.out, o.view_only);
          for (const DroppedLabel& d : dropped_labels())  // for lesson writers: what did not fit
            std::cerr << "gemmlab shot: the view could not fit the label \"" << d.text << "\" (" << d.why << ")\n";
          if (!problem.empty()) {
            std::cerr << "gemmlab shot: " << problem << "\n";
            rc = 1;
          } else {
            std::string written;
            if (o.meta) {
              nlohmann::json m = step_meta(app);
              m["revealed"] = app.predict_state().revealed;
              m["facts_drawn"] = nlohmann::json::array();
              for (const auto& v : app.views())
                for (const auto& f : v->facts_drawn()) m["facts_drawn"].push_back(f);
              written = write_text_file(o.out + ".json", json_text(m, 2) + "\n");
            }
            if (written.empty() && !o.data.empty() && app.active_view())
              written = write_text_file(o.data, json_text(app.active_view()->export_data(), 2) + "\n");
            if (!written.empty()) {
              std::cerr << "gemmlab shot: " << written << "\n";
              rc = 1;
            }
          }
        }
      }
    }
  }
  destroy_gui_context(ctx);
  return rc;
}

}  // namespace gemmlab::app
