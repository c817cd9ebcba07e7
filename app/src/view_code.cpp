// View 10, "Code": the CUDA source of a stage from kernels/stages (model/stage_source.h), the
// lines new against the previous stage marked; a lesson step can point at lines (`lines`); a line
// that moves something another view draws opens that view on it (model/code_links.h).
// Works without a GPU: the sources ship with the project.
#include <cmath>
#include <string>
#include <vector>

#include "fonts.h"
#include "gemmlab/stage_desc.h"
#include "model/code_links.h"
#include "model/json_text.h"
#include "model/stage_source.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct CodeUiState {
  std::string stage = "double-buffer";
  std::string file;         // which of the stage's files `first`..`last` are in ("": the first, its .cu)
  int first = 0, last = 0;  // 1-based lines the step points at (0: none)
  bool only_new = false;
};

class CodeView final : public View {
 public:
  const char* id() const override { return "code"; }
  const char* title() const override { return "Code"; }

  void apply(const Json& s) override {
    ui_ = CodeUiState{};
    shown_.reset();
    if (s.contains("stage")) ui_.stage = s["stage"];
    if (s.contains("file")) ui_.file = s["file"];
    if (s.contains("lines")) ui_.first = s["lines"][0], ui_.last = s["lines"][1];
    scroll_pending_ = ui_.first > 0;
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    out["stage"] = ui_.stage;
    if (source_) {
      out["previous"] = source_->previous;
      out["added_lines"] = source_->added;
      out["lines"] = source_->total;
      for (const auto& f : source_->files) out["files"].push_back(f.path);
      if (ui_.first > 0 && pointed_file() >= 0)
        out["pointed"] = {{"file", source_->files[size_t(pointed_file())].path}, {"lines", {ui_.first, ui_.last}}};
      if (pointed_file() < 0) out["error"] = "stage " + ui_.stage + " has no file " + ui_.file + "; its files are " + json_text(out["files"]);
      int linked = 0;
      for (const auto& f : links_)
        for (const auto& l : f) linked += l.has_value();
      out["lines_that_move_data"] = linked;
      if (const CodeLink* l = shown_ ? &*shown_ : first_link())
        out["preview"] = {{"view", l->view}, {"settings", l->settings}, {"what", l->what}};
    }
    return out;
  }

  void prepare(const AppPaths& paths) override { load(paths.root); }

  void draw(ViewContext& ctx) override {
    std::vector<std::string> ids;
    for (const StageDesc& s : stage_table()) ids.push_back(s.id);
    combo_string(tr("stage"), &ui_.stage, ids, 14);
    ImGui::SameLine();
    ImGui::Checkbox(tr("new lines only"), &ui_.only_new);
    load(ctx.paths.root);
    if (!source_) {
      error_box(error_);
      return;
    }
    if (pointed_file() < 0)
      error_box(trf("Stage %s has no file %s: the step's lines point nowhere.", ui_.stage.c_str(), ui_.file.c_str()));
    ImGui::Text(tr("%d of %d lines new against %s"), source_->added, source_->total,
                source_->previous.empty() ? tr("nothing (the first stage)") : source_->previous.c_str());
    legend_swatches(tr("lines"), {{rgba(40, 90, 50), tr("new in this stage")}, {rgba(110, 100, 30), tr("the step points here")}});
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextDisabled("%s", tr("\xE2\x96\xB8 a line that moves data: hover it for what, click it to open the view that draws it"));
    // With lines that move data, the right part shows what the hovered one moves.
    const bool has_links = first_link() != nullptr;
    const float code_w = has_links ? std::floor(ImGui::GetContentRegionAvail().x * 0.55f) : 0.f;
    draw_lines(ctx, code_w);
    if (has_links) {
      ImGui::SameLine();
      ImGui::BeginChild("##moves", {0, 0}, true, ImGuiWindowFlags_NoScrollWithMouse);
      const CodeLink& link = shown_ ? *shown_ : *first_link();
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(tr(link.what.c_str()));
      ImGui::PopTextWrapPos();
      ImGui::TextDisabled("%s", trf("the %s view, as this line uses it", tr(view_title(link.view))).c_str());
      if (ctx.draw_preview) ctx.draw_preview(link.view, link.settings);
      ImGui::EndChild();
    }
  }

 private:
  // The shown lines: (file, line) with line -1 for a file's header, the filter applied.
  struct Row {
    int file, line;
  };
  std::vector<Row> rows() const {
    std::vector<Row> out;
    for (size_t fi = 0; fi < source_->files.size(); ++fi) {
      out.push_back({int(fi), -1});
      const SourceFile& f = source_->files[fi];
      for (size_t i = 0; i < f.lines.size(); ++i)
        if (!ui_.only_new || f.lines[i].added || pointed(int(fi), int(i) + 1)) out.push_back({int(fi), int(i)});
    }
    return out;
  }
  bool pointed(int file, int number) const {
    return file == pointed_file() && ui_.first > 0 && number >= ui_.first && number <= ui_.last;
  }
  // The index of the file the step's lines are in: the one whose name is `file`, else the first;
  // -1 when the stage has no such file (export_data says so, and the checker with it).
  int pointed_file() const {
    if (ui_.file.empty() || !source_) return 0;
    for (size_t i = 0; i < source_->files.size(); ++i) {
      const std::string& p = source_->files[i].path;
      if (p.size() >= ui_.file.size() && p.compare(p.size() - ui_.file.size(), ui_.file.size(), ui_.file) == 0 &&
          (p.size() == ui_.file.size() || p[p.size() - ui_.file.size() - 1] == '/'))
        return int(i);
    }
    return -1;
  }

  // Only the visible lines are laid out (a stage's files run to a thousand lines and more). A
  // line that moves something a view draws (model/code_links.h) is marked in the gutter; hover it
  // for what, click it to open that view on it.
  // The link shown before the learner hovers one: the first in the lines the step points at, else
  // the first of the files.
  const CodeLink* first_link() const {
    const CodeLink* first = nullptr;
    for (size_t fi = 0; fi < links_.size(); ++fi)
      for (size_t i = 0; i < links_[fi].size(); ++i)
        if (links_[fi][i]) {
          if (pointed(int(fi), int(i) + 1)) return &*links_[fi][i];
          if (!first) first = &*links_[fi][i];
        }
    return first;
  }

  void draw_lines(ViewContext& ctx, float width) {
    ImGui::BeginChild("##code", {width, 0}, true, ImGuiWindowFlags_HorizontalScrollbar);
    if (fonts().mono) ImGui::PushFont(fonts().mono);
    const float h = ImGui::GetTextLineHeightWithSpacing();
    const std::vector<Row> shown = rows();
    if (scroll_pending_) {
      for (size_t r = 0; r < shown.size(); ++r)
        if (pointed(shown[r].file, shown[r].line + 1)) {
          ImGui::SetScrollY(std::max(0.f, float(r) * h - ImGui::GetWindowHeight() * 0.2f));
          break;
        }
      scroll_pending_ = false;
    }
    ImGuiListClipper clipper;
    clipper.Begin(int(shown.size()), h);
    while (clipper.Step())
      for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
        const Row& row = shown[size_t(r)];
        const SourceFile& f = source_->files[size_t(row.file)];
        if (row.line < 0) {
          ImGui::TextDisabled("// ---- %s", f.path.c_str());
          continue;
        }
        const SourceLine& l = f.lines[size_t(row.line)];
        const int number = row.line + 1;
        const bool is_pointed = pointed(row.file, number);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float line_w = std::max(ImGui::GetContentRegionAvail().x, 2000.f);
        if (l.added || is_pointed)
          dl->AddRectFilled(p, {p.x + line_w, p.y + h}, is_pointed ? rgba(110, 100, 30) : rgba(40, 90, 50));
        const std::optional<CodeLink>& link = links_[size_t(row.file)][size_t(row.line)];
        ImGui::TextDisabled("%4d", number);
        ImGui::SameLine();
        ImGui::TextUnformatted(link ? "\xE2\x96\xB8" : " ");  // the gutter mark of a line that opens a view
        ImGui::SameLine();
        ImGui::TextUnformatted(l.text.c_str());
        if (link && ImGui::IsItemHovered()) {
          shown_ = *link;  // the picture beside the code follows the hovered line, and stays
          dl->AddRect(p, {p.x + line_w, p.y + h}, kHighlight, 0, 0, 1.5f);
          ImGui::BeginTooltip();
          ImGui::TextUnformatted(tr(link->what.c_str()));
          ImGui::TextDisabled("%s", trf("Click: open the %s view on it", tr(view_title(link->view))).c_str());
          ImGui::EndTooltip();
          if (ImGui::IsItemClicked() && ctx.open_view) ctx.open_view(link->view, link->settings);
        }
      }
    if (fonts().mono) ImGui::PopFont();
    ImGui::EndChild();
  }

  void load(const std::string& root) {
    if (loaded_for_ == ui_.stage) return;
    loaded_for_ = ui_.stage;
    auto s = load_stage_source(root, ui_.stage);
    links_.clear();
    shown_.reset();
    if (s) {
      source_ = std::move(*s);
      error_.clear();
      for (const SourceFile& f : source_->files) {
        links_.emplace_back();
        for (const SourceLine& l : f.lines) links_.back().push_back(code_link(l.text));
      }
    } else {
      source_.reset();
      error_ = s.error();
    }
  }

  CodeUiState ui_;
  std::optional<StageSource> source_;
  std::vector<std::vector<std::optional<CodeLink>>> links_;  // per file, per line
  std::optional<CodeLink> shown_;                            // the line last hovered
  std::string error_, loaded_for_;
  bool scroll_pending_ = false;
};

}  // namespace

std::unique_ptr<View> make_code_view() { return std::make_unique<CodeView>(); }

}  // namespace gemmlab::app
