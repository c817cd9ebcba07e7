// View 10, "Code": the CUDA source of a stage from kernels/stages (model/stage_source.h), the
// lines new against the previous stage marked; a lesson step can point at lines (`lines`).
// Works without a GPU: the sources ship with the project.
#include <string>
#include <vector>

#include "fonts.h"
#include "gemmlab/stage_desc.h"
#include "model/stage_source.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct CodeUiState {
  std::string stage = "double-buffer";
  int first = 0, last = 0;  // 1-based lines of the first file a step points at (0: none)
  bool only_new = false;
};

class CodeView final : public View {
 public:
  const char* id() const override { return "code"; }
  const char* title() const override { return "Code"; }

  void apply(const Json& s) override {
    ui_ = CodeUiState{};
    if (s.contains("stage")) ui_.stage = s["stage"];
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
    ImGui::Text(tr("%d of %d lines new against %s"), source_->added, source_->total,
                source_->previous.empty() ? "nothing (the first stage)" : source_->previous.c_str());
    legend_swatches(tr("lines"), {{rgba(40, 90, 50), tr("new in this stage")}, {rgba(110, 100, 30), tr("the step points here")}});
    ImGui::BeginChild("##code", {0, 0}, true, ImGuiWindowFlags_HorizontalScrollbar);
    if (fonts().mono) ImGui::PushFont(fonts().mono);
    const float h = ImGui::GetTextLineHeightWithSpacing();
    for (size_t fi = 0; fi < source_->files.size(); ++fi) {
      const SourceFile& f = source_->files[fi];
      ImGui::TextDisabled("// ---- %s", f.path.c_str());
      for (size_t i = 0; i < f.lines.size(); ++i) {
        const SourceLine& l = f.lines[i];
        const int number = static_cast<int>(i) + 1;
        const bool pointed = fi == 0 && ui_.first > 0 && number >= ui_.first && number <= ui_.last;
        if (ui_.only_new && !l.added && !pointed) continue;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        if (l.added || pointed)
          ImGui::GetWindowDrawList()->AddRectFilled(
              p, {p.x + std::max(ImGui::GetContentRegionAvail().x, 2000.f), p.y + h},
              pointed ? rgba(110, 100, 30) : rgba(40, 90, 50));
        if (pointed && number == ui_.first && scroll_pending_) {
          ImGui::SetScrollHereY(0.2f);
          scroll_pending_ = false;
        }
        ImGui::TextDisabled("%4d", number);
        ImGui::SameLine();
        ImGui::TextUnformatted(l.text.c_str());
      }
    }
    if (fonts().mono) ImGui::PopFont();
    ImGui::EndChild();
  }

 private:
  void load(const std::string& root) {
    if (loaded_for_ == ui_.stage) return;
    loaded_for_ = ui_.stage;
    auto s = load_stage_source(root, ui_.stage);
    if (s) {
      source_ = std::move(*s);
      error_.clear();
    } else {
      source_.reset();
      error_ = s.error();
    }
  }

  CodeUiState ui_;
  std::optional<StageSource> source_;
  std::string error_, loaded_for_;
  bool scroll_pending_ = false;
};

}  // namespace

std::unique_ptr<View> make_code_view() { return std::make_unique<CodeView>(); }

}  // namespace gemmlab::app
