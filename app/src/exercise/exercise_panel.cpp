#include "exercise/exercise_panel.h"

#include <imgui.h>

#include <chrono>
#include <future>
#include <map>
#include <memory>

#include "app.h"
#include "catalog.h"
#include "exercise/exercise_store.h"
#include "exercise/exercise_picture.h"
#include "exercise/verdict_text.h"
#include "fonts.h"
#include "grade_device.h"
#include "grade_host.h"
#include "markdown_render.h"
#include "model/markdown_doc.h"
#include "ui_util.h"

namespace gemmlab::app {
namespace {

using exercise::Exercise;
using exercise::HostGrade;

constexpr size_t kCodeCapacity = 64 << 10;  // the editor's buffer: a function of a few lines fits many times

struct Session {
  std::string course, id;
  std::optional<Exercise> exercise;
  std::string load_error;
  std::vector<char> code;  // NUL-terminated, kCodeCapacity
  std::future<HostGrade> running;
  std::optional<HostGrade> grade;
  std::string graded_code;  // what `grade` graded
  // The GPU grade (grade_device.h) of gpu_code, asked for once the host grade of that code passed.
  std::future<exercise::DeviceGrade> gpu_running;
  std::optional<exercise::DeviceGrade> gpu;
  std::string gpu_code;
  int hints_shown = 0;
  bool show_solution = false;
  bool dirty = false;
  float since_edit = 0;
  std::string save_problem;
  std::vector<MdBlock> task_blocks;
  std::string task_lang;

  std::string text() const { return std::string(code.data()); }
  void set_text(const std::string& s) {
    code.assign(kCodeCapacity, '\0');
    std::copy_n(s.data(), std::min(s.size(), kCodeCapacity - 1), code.begin());
  }
  void save() {
    save_problem = save_exercise_code(course, id, text());
    dirty = false;
  }
};

Session& session(App& app, const std::string& id) {
  static std::map<std::string, std::unique_ptr<Session>> sessions;
  const std::string key = app.paths().course + "|" + id;
  auto& s = sessions[key];
  if (!s) {
    s = std::make_unique<Session>();
    s->course = app.paths().course;
    s->id = id;
    auto ex = exercise::find_exercise(app.paths().course, id);
    if (ex) s->exercise = *ex;
    else s->load_error = ex.error();
    const std::string& which = app.exercise_solution();  // `gemmlab shot --exercise-solution`
    const auto saved = which.empty() ? load_exercise_code(s->course, id) : std::nullopt;
    if (s->exercise && which == "reference") s->set_text(s->exercise->reference);
    else s->set_text(saved ? *saved : (s->exercise ? s->exercise->stub : std::string()));
  }
  return *s;
}

// `keep`: save the code first (the window; a shot never writes the learner's files).
void start_check(Session& s, bool keep = true) {
  if (!s.exercise || s.running.valid()) return;
  const exercise::Grader* grader = exercise::find_grader(s.exercise->grader);
  if (!grader) return;
  if (keep) s.save();
  s.graded_code = s.text();
  exercise::HostGradeOptions options;
  options.display_name = "your code";
  s.running = std::async(std::launch::async, [grader, code = s.graded_code, options] {
    return exercise::grade_on_host(*grader, code, options);
  });
}

void poll(Session& s) {
  if (s.running.valid() && s.running.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    s.grade = s.running.get();
    s.gpu.reset();
  }
  if (s.gpu_running.valid() && s.gpu_running.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    s.gpu = s.gpu_running.get();
    if (s.gpu_code != s.graded_code) s.gpu.reset();  // a verdict of code checked again since
  }
}

// After a host pass: the stage's kernel built with the learner's function, checked and timed on
// the GPU (seconds: NVRTC, cuBLAS, timing in turns), on a worker thread.
void start_gpu_grade(Session& s) {
  s.gpu_code = s.graded_code;
  s.gpu.reset();
  s.gpu_running = std::async(std::launch::async, [ex = *s.exercise, code = s.gpu_code] {
    return exercise::grade_on_device(ex, code);
  });
}

// Only code whose host grade passed goes to the GPU: not while a Check of newer code runs (its
// verdict is not in yet), not once the editor holds something else.
void draw_gpu_grade(Session& s) {
  if (s.running.valid() || !s.grade || !s.grade->verdict.pass || s.graded_code != s.text()) return;
  const bool busy = s.gpu_running.valid();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button(busy ? tr("Running on the GPU...") : tr("Run on the GPU"))) start_gpu_grade(s);
  ImGui::EndDisabled();
  if (!s.gpu) return;
  if (!s.gpu->ran) note_text(ui_reason(*s.gpu));
  else ImGui::TextColored(s.gpu->pass ? ImVec4{0.35f, 0.8f, 0.4f, 1} : ImVec4{0.95f, 0.4f, 0.35f, 1}, "%s",
                          s.gpu->pass ? tr("Correct on the GPU") : tr("Wrong on the GPU"));
  if (s.gpu->ran) ImGui::TextWrapped("%s", ui_reason(*s.gpu).c_str());
}

// `scroll_to`: the verdict at the top of the lesson panel, the picture below it (a shot of a
// graded solution, `gemmlab shot --exercise-solution`).
void draw_verdict(const Session& s, bool scroll_to) {
  const HostGrade& g = *s.grade;
  const FontSet& f = fonts();
  for (size_t i = 0; i < g.verdict.passed.size(); ++i) {
    ImGui::TextColored({0.35f, 0.75f, 0.4f, 1}, "%s", "✓");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", ui_held(g.verdict, i).c_str());
  }
  if (scroll_to) ImGui::SetScrollHereY(0);
  ImGui::PushFont(f.bold);
  if (g.verdict.pass) ImGui::TextColored({0.35f, 0.8f, 0.4f, 1}, "%s", tr("Passed"));
  else ImGui::TextColored({0.95f, 0.4f, 0.35f, 1}, "%s", tr("Not yet"));
  ImGui::PopFont();
  ImGui::TextWrapped("%s", ui_reason(g.verdict).c_str());
  if (!g.verdict.pass && !g.compiler_output.empty()) {
    if (g.error_line > 0) note_text(trf("The compiler stops at line %d of your code:", g.error_line));
    ImGui::PushFont(f.mono);
    const float h = std::min(ImGui::GetTextLineHeightWithSpacing() * 10, ImGui::CalcTextSize(g.compiler_output.c_str()).y + 8);
    ImGui::InputTextMultiline("##compiler", const_cast<char*>(g.compiler_output.c_str()), g.compiler_output.size() + 1,
                              {-1, h}, ImGuiInputTextFlags_ReadOnly);
    ImGui::PopFont();
  }
  if (g.verdict.pass) note_text(tr("Graded on this computer by the simulator's models; not run on a GPU."));
}

}  // namespace

void draw_exercise_step(App& app, const std::string& id) {
  Session& s = session(app, id);
  const FontSet& f = fonts();
  const std::string lang = app.lang();
  ImGui::Separator();
  if (!s.exercise) {
    error_box(s.load_error);
    return;
  }
  const Exercise& ex = *s.exercise;
  // Headless (`gemmlab shot`): grade the code in the cell at once, so a screenshot shows the
  // verdict of the code it shows (the stub, or what the learner saved).
  if (app.headless() && !s.grade && !s.running.valid()) {
    start_check(s, false);
    s.running.wait();
  }
  poll(s);
  // Code that passes goes on to the GPU at once too, so that the shot shows that verdict (on a
  // machine without a GPU: why it was not graded there).
  if (app.headless() && s.grade && s.grade->verdict.pass && !s.gpu && !s.gpu_running.valid()) {
    start_gpu_grade(s);
    s.gpu_running.wait();
    poll(s);
  }
  ImGui::PushID(id.c_str());
  ImGui::PushFont(f.bold);
  ImGui::TextUnformatted((tr("Exercise: ") + ex.text(ex.title, lang)).c_str());
  ImGui::PopFont();
  if (s.task_lang != lang) {
    s.task_blocks = parse_markdown(ex.text(ex.task, lang));
    s.task_lang = lang;
  }
  render_markdown(s.task_blocks, app.paths().assets);
  note_text(tr("Goal: ") + ex.text(ex.goal, lang));

  // The code cell.
  ImGui::PushFont(f.mono);
  const float lines = 12;
  if (ImGui::InputTextMultiline("##code", s.code.data(), s.code.size(), {-1, ImGui::GetTextLineHeight() * lines + 8},
                                ImGuiInputTextFlags_AllowTabInput)) {
    s.dirty = true;
    s.since_edit = 0;
  }
  ImGui::PopFont();
  s.since_edit += ImGui::GetIO().DeltaTime;
  if (s.dirty && s.since_edit > 1.0f) s.save();  // a second after the last keystroke
  if (!s.save_problem.empty()) error_box(s.save_problem);

  const bool busy = s.running.valid();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button(busy ? tr("Checking...") : tr("Check"))) start_check(s);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(tr("Start over"))) {
    s.set_text(ex.stub);
    s.save();
    s.grade.reset();
  }
  const auto& hints = ex.hints.count(lang) && !ex.hints.at(lang).empty() ? ex.hints.at(lang)
                      : ex.hints.count("en") ? ex.hints.at("en") : std::vector<std::string>{};
  if (!hints.empty()) {
    ImGui::SameLine();
    ImGui::BeginDisabled(s.hints_shown >= static_cast<int>(hints.size()));
    if (ImGui::Button(trf("Hint (%d of %d)", std::min(s.hints_shown + 1, static_cast<int>(hints.size())),
                          static_cast<int>(hints.size())).c_str()))
      ++s.hints_shown;
    ImGui::EndDisabled();
  }
  ImGui::SameLine();
  if (ImGui::Button(s.show_solution ? tr("Hide solution") : tr("Show solution"))) s.show_solution = !s.show_solution;

  for (int i = 0; i < s.hints_shown && i < static_cast<int>(hints.size()); ++i)
    note_text(trf("Hint %d: ", i + 1) + hints[static_cast<size_t>(i)]);
  if (s.grade) {
    if (s.graded_code != s.text()) note_text(tr("(the verdict below is for the code as it was when you pressed Check)"));
    draw_verdict(s, app.headless() && !app.exercise_solution().empty());
    draw_gpu_grade(s);
    draw_exercise_picture(ex, *s.grade);
  }
  if (s.show_solution) {
    note_text(tr("The reference solution:"));
    ImGui::PushFont(f.mono);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(ex.reference.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
  }
  ImGui::PopID();
}

}  // namespace gemmlab::app
