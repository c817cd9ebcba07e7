#include "app.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <filesystem>
#include <limits>

#include "app_log.h"
#include "file_dialog.h"
#include "gui_context.h"
#include "model/files.h"
#include "model/json_text.h"
#include "fonts.h"
#include "model/result_placeholders.h"
#include "model/settings_schema.h"
#include "model/ui_text.h"
#include "view_lesson.h"

namespace gemmlab::app {
namespace fs = std::filesystem;

App::App(AppPaths paths, Config config, bool headless)
    : paths_(std::move(paths)), config_(std::move(config)), headless_(headless) {
  set_lang(config_.lang);
  views_ = make_views();
  std::vector<std::string> problems;
  shipped_results_ = load_results_dir(paths_.assets + "/results", &problems);
  for (const auto& p : problems) app_log("warning", "results for the lessons' numbers: " + p);
  course_key_ = course_key(paths_.course, (fs::path(paths_.root) / "lessons").string());
  course_ = load_course(paths_.course, paths_.assets);
  for (const auto& d : course_.all_errors()) app_log("warning", "lesson problem: " + d.text());
  // The saved position is of the course last shown; another course starts at its beginning.
  const bool same_course = config_.last_course == course_key_;
  const int lesson = same_course ? std::max(0, course_.index_of(config_.last_lesson)) : 0;
  open(lesson, same_course && !config_.last_lesson.empty() ? config_.last_step : 0);
  watched_stamp_ = course_files_stamp();
}

void App::reload_course() {
  const std::string id = lesson() ? lesson()->id : "";
  course_ = load_course(paths_.course, paths_.assets);
  for (const auto& d : course_.all_errors()) app_log("warning", "lesson problem: " + d.text());
  open(std::max(0, course_.index_of(id)), step_);
  watched_stamp_ = course_files_stamp();
  const Lesson* l = lesson();
  status(l && !l->ok() ? trf("reloaded %s: this lesson has problems (shown in the lesson panel)", paths_.course.c_str())
                       : trf("course reloaded from %s", paths_.course.c_str()));
}

void App::open_course(const std::string& dir) {
  paths_.course = dir;
  course_key_ = course_key(paths_.course, (fs::path(paths_.root) / "lessons").string());
  course_ = load_course(paths_.course, paths_.assets);
  for (const auto& d : course_.all_errors()) app_log("warning", "lesson problem: " + d.text());
  lesson_ = step_ = -1;
  open(0, 0);
  watched_stamp_ = course_files_stamp();
  status(course_.lessons.empty() ? trf("no lessons in %s", dir.c_str()) : trf("opened the course in %s", dir.c_str()));
}

int App::steps_seen(const std::string& id) const {
  const auto it = config_.progress.find(progress_key(course_key_, id));
  return it == config_.progress.end() ? 0 : it->second;
}

// The newest modification time of course.toml and of the open lesson's folder (its lesson.toml,
// texts and images): what an author edits while the app shows the lesson.
std::int64_t App::course_files_stamp() const {
  // libstdc++'s file clock counts from 2174: today's times are negative.
  std::int64_t newest = std::numeric_limits<std::int64_t>::min();
  auto consider = [&](const fs::path& p) {
    std::error_code ec;
    const auto t = fs::last_write_time(p, ec);
    if (!ec) newest = std::max<std::int64_t>(newest, t.time_since_epoch().count());
  };
  consider(fs::path(paths_.course) / "course.toml");
  if (const Lesson* l = lesson()) {
    const fs::path dir = fs::path(paths_.course) / l->id;
    std::error_code ec;
    int files = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && files < 256; it.increment(ec), ++files)
      if (it->is_regular_file(ec)) consider(it->path());
  }
  return newest;
}

// Once a second (not in `gemmlab shot`): reload when the course's files changed on disk.
void App::watch_course(float dt) {
  if (headless_) return;
  watch_age_ += dt;
  if (watch_age_ < 1.f) return;
  watch_age_ = 0;
  if (course_files_stamp() != watched_stamp_) reload_course();
}

const Lesson* App::lesson() const {
  if (lesson_ < 0 || lesson_ >= static_cast<int>(course_.lessons.size())) return nullptr;
  return &course_.lessons[lesson_];
}

int App::step_count() const {
  const Lesson* l = lesson();
  return l ? static_cast<int>(l->steps.size()) : 0;
}

View* App::view(const std::string& id) const {
  for (const auto& v : views_)
    if (id == v->id()) return v.get();
  return nullptr;
}

View* App::active_view() const { return view(active_view_); }

void App::select_view(const std::string& id) {
  if (!view(id)) return;
  active_view_ = id;
  select_pending_ = true;
}

void App::apply_step_settings(int lesson_index, int step, bool whole_step) {
  const Lesson& l = course_.lessons[lesson_index];
  if (step < 0 || step >= static_cast<int>(l.steps.size())) return;
  const LessonStep& s = l.steps[step];
  // s.settings already holds what the step inherits (model/lesson_format.h). Walking on applies
  // only the views the step writes, so what the learner changed elsewhere stays; opening a step
  // directly or "Reset step" applies all of it: the same picture either way.
  for (const auto& [id, settings] : s.settings.items())
    if (whole_step || s.written.contains(id))
      if (View* v = view(id)) v->apply(settings);
  if (!s.view.empty() && (whole_step || s.names_view)) select_view(s.view);
}

void App::open(int lesson_index, int step) {
  if (course_.lessons.empty()) {
    lesson_ = step_ = 0;
    rebuild_text();
    return;
  }
  lesson_index = std::clamp(lesson_index, 0, static_cast<int>(course_.lessons.size()) - 1);
  const Lesson& l = course_.lessons[lesson_index];
  const int n = static_cast<int>(l.steps.size());
  step = n ? std::clamp(step, 0, n - 1) : 0;
  const bool walking = lesson_index == lesson_ && step == step_ + 1;
  lesson_ = lesson_index;
  step_ = step;
  for (const auto& v : views_) v->set_playing(false);
  if (n && l.ok()) apply_step_settings(lesson_, step_, !walking);
  predict_ = PredictState{};
  mask_predicted_quantity(true);
  config_.last_course = course_key_;
  config_.last_lesson = l.id;
  config_.last_step = step_;
  int& seen = config_.progress[progress_key(course_key_, l.id)];
  seen = std::max(seen, std::min(step_ + 1, n));
  rebuild_text();
}

void App::rebuild_text() {
  step_blocks_.clear();
  intro_blocks_.clear();
  notes_blocks_.clear();
  text_missing_.clear();
  notes_missing_.clear();
  const Lesson* l = lesson();
  if (!l) return;
  std::vector<const BenchResults*> own;
  for (const auto& v : views_)
    for (const BenchResults* r : v->own_results()) own.push_back(r);
  own_results_seen_ = own.size();
  const std::vector<ResultsSource> sources = results_sources(own, shipped_results_);
  auto fill = [&](const std::string& markdown, std::vector<std::string>& missing) {
    FilledText f = fill_placeholders(markdown, sources);
    missing.insert(missing.end(), f.missing.begin(), f.missing.end());
    return parse_markdown(f.markdown);
  };
  if (const StepText* t = l->step_text(config_.lang, step_)) step_blocks_ = fill(t->markdown, text_missing_);
  if (step_ == 0)
    if (const LessonText* t = l->text_in(config_.lang); t && !t->intro.empty())
      intro_blocks_ = fill(t->intro, text_missing_);
  if (const std::string* n = l->notes_in(config_.lang, step_)) notes_blocks_ = fill(*n, notes_missing_);
}

void App::refresh_results() {
  size_t own = 0;
  for (const auto& v : views_) own += v->own_results().size();
  if (own != own_results_seen_) rebuild_text();
}

void App::next() {
  if (step_ + 1 < step_count())
    open(lesson_, step_ + 1);
  else if (lesson_ + 1 < static_cast<int>(course_.lessons.size()))
    open(lesson_ + 1, 0);
}

void App::prev() {
  if (step_ > 0)
    open(lesson_, step_ - 1);
  else if (lesson_ > 0)
    open(lesson_ - 1, static_cast<int>(course_.lessons[lesson_ - 1].steps.size()) - 1);
}

void App::reset_step() {
  if (const Lesson* l = lesson(); l && l->ok()) apply_step_settings(lesson_, step_, true);
  predict_ = PredictState{};
  mask_predicted_quantity(true);
  status(tr("step settings restored"));
}

void App::set_lang(const std::string& lang) {
  config_.lang = lang;
  if (const std::string problem = set_ui_language(lang, paths_.assets); !problem.empty()) app_log("warning", problem);
  rebuild_text();
}

void App::mask_predicted_quantity(bool masked) {
  const Lesson* l = lesson();
  const PredictSpec* spec = nullptr;
  if (masked && l && l->ok() && step_ < static_cast<int>(l->steps.size()) && l->steps[step_].predict)
    spec = &*l->steps[step_].predict;
  for (const auto& v : views_) {
    const bool mine = spec && spec->quantity.rfind(std::string(v->id()) + ".", 0) == 0;
    v->set_masked(mine ? spec : nullptr);
  }
}

void App::reveal_predict(bool on) {
  predict_.revealed = on;
  if (on) {
    if (const Lesson* l = lesson(); l && l->steps[step_].predict)
      predict_.answer = predict_answer(*l->steps[step_].predict);
  }
  mask_predicted_quantity(!on);
}

Expected<double> App::predict_answer(const PredictSpec& spec) const {
  const std::string view_id = spec.quantity.substr(0, spec.quantity.find('.'));
  const View* v = view(view_id);
  if (!v) return Error{"no view " + view_id + " in this build"};
  return v->predict(spec);
}

std::string App::window_title() const {
  std::string t = "GEMM Lab";
  if (const Lesson* l = lesson())
    t += " - " + l->id + " - step " + std::to_string(step_ + 1) + "/" +
         std::to_string(std::max(1, step_count()));
  if (const View* v = active_view(); v && v->playing()) t += " [playing]";
  return t;
}

std::string App::export_path(const std::string& what, const std::string& ext) const {
  std::string name = "gemmlab";
  if (const Lesson* l = lesson()) name += "-" + l->id + "-step" + std::to_string(step_ + 1);
  name += "-" + what + "." + ext;
  const fs::path dir = config_.export_dir.empty() ? fs::current_path() : fs::path(config_.export_dir);
  return (dir / name).string();
}

void App::status(const std::string& message) {
  status_ = message;
  status_age_ = 0;
  app_log("info", message);
}

void App::on_key(int key, int mods) {
  // Typing a number into a field must not turn the page.
  if (ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput) return;
  const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  if (key == GLFW_KEY_RIGHT && !ctrl) next();
  if (key == GLFW_KEY_LEFT && !ctrl) prev();
  if (key == GLFW_KEY_SPACE)
    if (View* v = active_view(); v && v->has_animation()) v->set_playing(!v->playing());
  if (ctrl && key == GLFW_KEY_S) request_capture({export_path("window", "png"), false});
  if (ctrl && key == GLFW_KEY_O) {
    select_view("kernels");
    open_results_dialog();
  }
  if (ctrl && key == GLFW_KEY_Q) quit_ = true;
}

void App::draw_menu() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu(tr("File"))) {
    if (ImGui::MenuItem(tr("Open results JSON..."), "Ctrl+O")) {
      select_view("kernels");
      open_results_dialog();
    }
    if (ImGui::MenuItem(tr("Open ncu CSV..."))) {
      select_view("measured");
      if (View* m = view("measured"))
        file_dialog_open(tr("Open an Nsight Compute CSV"), paths_.assets, ".csv",
                         [m](const std::string& path) { m->load_file(path); });
    }
    if (ImGui::MenuItem(tr("Screenshot window"), "Ctrl+S"))
      request_capture({export_path("window", "png"), false});
    if (ImGui::MenuItem(tr("Export view as PNG")))
      request_capture({export_path(active_view_, "png"), true});
    if (ImGui::MenuItem(tr("Export view data as JSON"))) export_view_json();
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Open course..."))) {
      file_dialog_open(tr("Open a course: its course.toml, or any lesson.toml in it"), paths_.course, ".toml",
                       [this](const std::string& path) {
                         const fs::path p(path);
                         // course.toml sits in the course folder, lesson.toml one folder down.
                         open_course((p.filename() == "lesson.toml" ? p.parent_path().parent_path() : p.parent_path()).string());
                       });
    }
    if (ImGui::MenuItem(tr("Reload lessons"))) reload_course();
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Quit"), "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("View"))) {
    for (const auto& v : views_)
      if (ImGui::MenuItem(tr(v->title()), nullptr, active_view_ == v->id())) select_view(v->id());
    ImGui::Separator();
    const float size = fonts().size;
    if (ImGui::MenuItem(tr("Larger text"))) request_font_size(std::min(size + 2, 40.f));
    if (ImGui::MenuItem(tr("Smaller text"))) request_font_size(std::max(size - 2, 10.f));
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("Language"))) {
    if (ImGui::MenuItem(tr("English"), nullptr, config_.lang == "en")) set_lang("en");
    if (ImGui::MenuItem("中文", nullptr, config_.lang == "zh")) set_lang("zh");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("Help"))) {
    ImGui::TextUnformatted(tr("Left / Right: previous / next step\nSpace: play / pause the view\n"
                           "Ctrl+S: screenshot   Ctrl+O: open results\n"
                           "Mouse wheel: zoom a grid, drag: pan, double-click: fit"));
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void App::export_view_json() {
  View* v = active_view();
  if (!v) return;
  const std::string path = export_path(v->id(), "json");
  const std::string problem = write_text_file(path, json_text(v->export_data(), 2) + "\n");
  if (problem.empty())
    status(trf("saved %s", path.c_str()));
  else
    app_log("error", problem);
}

void App::draw_views(float dt) {
  ViewContext ctx{paths_, dt, headless_, config_.lang, &app_log, {}, {}, {}};
  ctx.ask = [this](const std::string& quantity) {
    PredictSpec spec;
    spec.quantity = quantity;
    return predict_answer(spec);
  };
  ctx.open_view = [this](const std::string& id, const Json& settings) {
    if (View* v = view(id)) {
      v->apply(settings);
      select_view(id);
    }
  };
  ctx.draw_preview = [this, &ctx](const std::string& id, const Json& settings) {
    if (previews_.empty()) previews_ = make_views();
    for (const auto& v : previews_) {
      if (v->id() != id || id == "code") continue;
      // Applied once per change: apply() resets zoom and animation, which the learner may be using.
      if (auto it = preview_settings_.find(id); it == preview_settings_.end() || it->second != settings) {
        v->apply(settings);
        preview_settings_[id] = settings;
      }
      ImGui::PushID("preview");
      v->draw(ctx);
      ImGui::PopID();
    }
  };
  for (const auto& v : views_) v->begin_frame();  // only the view in front draws (and notes facts)
  if (ImGui::BeginTabBar("##views")) {
    for (const auto& v : views_) {
      ImGuiTabItemFlags flags = 0;
      if (select_pending_ && active_view_ == v->id()) flags |= ImGuiTabItemFlags_SetSelected;
      // "###id": the tab keeps its identity when the language changes its label.
      const std::string tab = std::string(tr(v->title())) + "###" + v->id();
      if (ImGui::BeginTabItem(tab.c_str(), nullptr, flags)) {
        if (!select_pending_) active_view_ = v->id();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        view_rect_ = {p.x, p.y, avail.x, avail.y};
        ImGui::BeginChild(v->id(), {0, 0}, false, ImGuiWindowFlags_NoScrollWithMouse);
        ImGui::PushID(v->id());
        v->draw(ctx);
        ImGui::PopID();
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
    }
    select_pending_ = false;
    ImGui::EndTabBar();
  }
}

void App::draw_status_bar() {
  status_age_ += ImGui::GetIO().DeltaTime;
  if (!status_.empty() && status_age_ < 8) ImGui::TextUnformatted(status_.c_str());
  else ImGui::TextDisabled(tr("Left/Right: steps   Space: play   Ctrl+S: screenshot   wheel: zoom"));
}

void App::frame(float dt) {
  watch_course(dt);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  // The host window paints no background: the framebuffer is cleared to the same colour, and on a
  // software renderer (llvmpipe) every full-screen layer costs milliseconds per frame.
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
  ImGui::Begin("GEMM Lab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
  draw_menu();

  const float status_h = ImGui::GetFrameHeightWithSpacing();
  const float total_w = ImGui::GetContentRegionAvail().x;
  float& panel_w = config_.lesson_panel_width;
  if (panel_w <= 0) panel_w = std::round(total_w * 0.36f);
  panel_w = std::clamp(panel_w, 220.f, std::max(220.f, total_w - 320.f));
  const float h = ImGui::GetContentRegionAvail().y - status_h;

  ImGui::BeginChild("##lesson", {panel_w, h}, true);
  draw_lesson_panel(*this);
  ImGui::EndChild();
  ImGui::SameLine(0, 0);
  // The splitter between the panel and the views.
  ImGui::InvisibleButton("##splitter", {6, h});
  if (ImGui::IsItemHovered() || ImGui::IsItemActive())
    ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  if (ImGui::IsItemActive()) panel_w += ImGui::GetIO().MouseDelta.x;
  ImGui::SameLine(0, 0);
  ImGui::BeginChild("##views_area", {0, h}, false);
  if (views_text_sink_) begin_text_capture(views_text_sink_);
  draw_views(dt);
  if (views_text_sink_) end_text_capture();
  ImGui::EndChild();
  draw_status_bar();
  ImGui::End();
  file_dialog_draw();
}

void App::open_results_dialog() {
  View* k = view("kernels");
  if (!k) return;
  file_dialog_open(tr("Open results JSON"), paths_.assets + "/results", ".json",
                   [k](const std::string& path) { k->load_file(path); });
}

}  // namespace gemmlab::app
