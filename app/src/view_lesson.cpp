#include "view_lesson.h"

#include <imgui.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

#include "app.h"
#include "fonts.h"
#include "markdown_render.h"
#include "exercise/exercise_panel.h"
#include "model/predict_rules.h"
#include "model/stage_labels.h"
#include "model/ui_text.h"
#include "ui_util.h"

namespace gemmlab::app {

void ui_trace(const char* name) {
  static const char* path = std::getenv("GEMMLAB_UI_TRACE");
  if (!path || !*path) return;
  static std::map<std::string, ImVec4> last;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec4 r{a.x, a.y, b.x, b.y};
  auto it = last.find(name);
  if (it != last.end() && it->second.x == r.x && it->second.y == r.y && it->second.z == r.z &&
      it->second.w == r.w)
    return;
  last[name] = r;
  std::ofstream out(path, std::ios::app);
  out << "{\"widget\":\"" << name << "\",\"x0\":" << a.x << ",\"y0\":" << a.y << ",\"x1\":" << b.x
      << ",\"y1\":" << b.y << "}\n";
}

namespace {

void heading(ImFont* font, const std::string& text) {
  ImGui::PushFont(font);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
}

std::string lesson_label(const App& app, int i) {
  const Lesson& l = app.course().lessons[i];
  std::string label = l.title_in(app.lang());
  if (!l.ok()) return label + tr("  (has problems)");
  const int seen = app.steps_seen(l.id);
  const int n = static_cast<int>(l.steps.size());
  if (seen >= n && n > 0) label += "  \xE2\x9C\x93";  // check mark
  else if (seen > 0) label += "  " + std::to_string(seen) + "/" + std::to_string(n);
  return label;
}

void draw_problems(const std::vector<Diagnostic>& problems, const char* what) {
  std::string text = std::string(what) + "\n";
  for (const auto& d : problems) text += "\n" + d.text();
  text += tr("\n\nFix the file(s) and choose File > Reload lessons; `gemmlab lessons --check` lists the same problems.");
  error_box(text);
}

// A placeholder the loaded results cannot fill shows "—" in the text; this says what is missing.
void draw_missing_values(const std::vector<std::string>& missing) {
  if (missing.empty()) return;
  std::string text = tr("— marks a number the loaded results do not have:");
  for (const auto& m : missing) text += "\n" + m;
  note_text(text);
}

void draw_predict(App& app, const PredictSpec& spec) {
  PredictState& ps = app.predict_state();
  ImGui::Separator();
  ImGui::PushFont(fonts().bold);
  ImGui::TextUnformatted(tr("Predict"));
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::TextDisabled("%s", spec.quantity.c_str());
  if (const PredictRule* rule = predict_rule(spec.quantity)) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s%s", tr("Computed from: "), tr(rule->computed_from.c_str()));
    if (!ps.revealed) ImGui::TextDisabled("%s", tr("The views hide what would give it away until you press Reveal."));
    ImGui::PopTextWrapPos();
  }
  ImGui::SetNextItemWidth(field_width(10));
  ImGui::InputDouble(tr("your answer"), &ps.guess, 0, 0, "%.6g");
  ImGui::SameLine();
  if (ImGui::Button(ps.revealed ? tr("Hide") : tr("Reveal"))) app.reveal_predict(!ps.revealed);
  ui_trace("reveal");
  if (ps.revealed && ps.answer) {
    if (!*ps.answer) {
      error_box(std::string(tr("The simulator cannot answer: ")) + ps.answer->error());
    } else {
      // The guess beside the answer and how far off it was (model/predict_rules.h).
      const double a = ps.answer->value();
      const bool right = spec.accepts(ps.guess, a);
      const ImVec4 colour = right ? ImVec4(0.5f, 1, 0.5f, 1) : ImVec4(1, 0.7f, 0.4f, 1);
      ImGui::TextColored(colour, tr("You said %.6g; the simulator says %.6g: %s"), ps.guess, a,
                         guess_distance(ps.guess, a, spec.tolerance).c_str());
      if (spec.tolerance > 0) ImGui::TextDisabled(tr("(answers within %g count as right)"), spec.tolerance);
      ImGui::TextDisabled("%s", tr("The views now show the answer."));
    }
  }
}

}  // namespace

void draw_lesson_panel(App& app) {
  const Course& course = app.course();
  const FontSet& f = fonts();
  if (!course.errors.empty()) draw_problems(course.errors, tr("The course file has problems:"));
  if (course.lessons.empty()) {
    note_text(tr("No lessons to show. The course folder is ") + app.paths().course);
    return;
  }
  // Lesson list and language.
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - f.size * 6);
  const std::string current = lesson_label(app, app.lesson_index());
  if (ImGui::BeginCombo("##lesson", current.c_str())) {
    for (int i = 0; i < static_cast<int>(course.lessons.size()); ++i) {
      const std::string label = lesson_label(app, i);
      if (ImGui::Selectable(label.c_str(), i == app.lesson_index())) app.open(i, 0);
    }
    ImGui::EndCombo();
  }
  ui_trace("lesson_list");
  ImGui::SameLine();
  if (ImGui::SmallButton(app.lang() == "en" ? "EN" : "en")) app.set_lang("en");
  ImGui::SameLine();
  if (ImGui::SmallButton(app.lang() == "zh" ? "中文" : "中")) app.set_lang("zh");

  const Lesson* lesson = app.lesson();
  if (!lesson) return;
  heading(f.h1, lesson->title_in(app.lang()));
  // The stages this lesson teaches, as the Kernels view and `bench --list` number them.
  if (const auto stages = stages_taught_by(lesson->id); !stages.empty()) {
    std::string line;
    for (const auto& id : stages) line += (line.empty() ? "" : ", ") + stage_label(id);
    // Wrapped: lesson 14's four conv stages do not fit one line of a 1280-pixel window.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", trf(stages.size() > 1 ? "stages %s" : "stage %s", line.c_str()).c_str());
    ImGui::PopStyleColor();
  }
  if (app.lang() == "zh" && !lesson->text.count("zh"))
    note_text(tr("This lesson has no Chinese text yet; showing English."));

  const float bottom_h = ImGui::GetFrameHeightWithSpacing() * 1.6f;
  if (!lesson->ok()) {
    ImGui::BeginChild("##problems", {0, -bottom_h});
    draw_problems(lesson->errors, trf("Lesson \"%s\" cannot be shown:", lesson->id.c_str()).c_str());
    ImGui::EndChild();
  } else {
    const int n = app.step_count();
    const float progress = n ? float(app.step_index() + 1) / n : 0;
    const std::string label = trf("Step %d of %d", app.step_index() + 1, n);
    ImGui::ProgressBar(progress, {-1, 0}, label.c_str());
    ImGui::BeginChild("##text", {0, -bottom_h});
    if (const StepText* t = lesson->step_text(app.lang(), app.step_index()))
      heading(f.h2, t->title);
    ImGui::Spacing();
    if (!app.intro_blocks().empty()) render_markdown(app.intro_blocks(), app.paths().assets);
    app.refresh_results();
    render_markdown(app.step_blocks(), app.paths().assets);
    draw_missing_values(app.text_missing());
    const LessonStep& step = lesson->steps[app.step_index()];
    if (step.predict) draw_predict(app, *step.predict);
    if (!step.exercise.empty()) draw_exercise_step(app, step.exercise);
    if (!app.notes_blocks().empty()) {
      ImGui::Spacing();
      // Closed by default; the ###id keeps it one header in both languages.
      if (ImGui::CollapsingHeader((std::string(tr("Notes")) + "###notes").c_str())) {
        render_markdown(app.notes_blocks(), app.paths().assets);
        draw_missing_values(app.notes_missing());
      }
      ui_trace("notes");
    }
    ImGui::EndChild();
  }
  // Navigation.
  ImGui::Separator();
  const bool first = app.lesson_index() == 0 && app.step_index() == 0;
  const bool last = app.lesson_index() + 1 == static_cast<int>(course.lessons.size()) &&
                    app.step_index() + 1 >= app.step_count();
  ImGui::BeginDisabled(first);
  if (ImGui::Button(tr("< Prev"))) app.prev();
  ImGui::EndDisabled();
  ui_trace("prev");
  ImGui::SameLine();
  ImGui::BeginDisabled(last);
  if (ImGui::Button(tr("Next >"))) app.next();
  ImGui::EndDisabled();
  ui_trace("next");
  ImGui::SameLine();
  if (ImGui::Button(tr("Reset step"))) app.reset_step();
  ui_trace("reset");
}

}  // namespace gemmlab::app
