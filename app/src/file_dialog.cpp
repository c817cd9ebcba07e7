#include "file_dialog.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "model/ui_text.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
namespace {

struct DialogState {
  bool open_requested = false;
  std::string title, extension;
  char path[1024] = {};
  std::string dir;
  std::function<void(const std::string&)> on_pick;
  std::vector<std::pair<std::string, bool>> entries;  // name, is folder
  std::string listed_dir, problem;
};

DialogState& state() {
  static DialogState s;
  return s;
}

void list(DialogState& s) {
  s.entries.clear();
  s.problem.clear();
  s.listed_dir = s.dir;
  std::error_code ec;
  for (fs::directory_iterator it(s.dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    const bool folder = it->is_directory(ec);
    if (!folder && it->path().extension() != s.extension) continue;
    s.entries.emplace_back(name, folder);
  }
  if (ec) s.problem = "cannot list " + s.dir + ": " + ec.message();
  std::sort(s.entries.begin(), s.entries.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second : a.first < b.first;
  });
}

}  // namespace

void file_dialog_open(const std::string& title, const std::string& start_dir,
                      const std::string& extension, std::function<void(const std::string&)> on_pick) {
  DialogState& s = state();
  s.title = title;
  s.extension = extension;
  std::error_code ec;
  s.dir = fs::is_directory(start_dir, ec) ? start_dir : fs::current_path().string();
  s.path[0] = 0;
  s.on_pick = std::move(on_pick);
  s.open_requested = true;
  s.listed_dir.clear();
}

void file_dialog_draw() {
  DialogState& s = state();
  const std::string id = s.title + "###file_dialog";
  if (s.open_requested) {
    ImGui::OpenPopup(id.c_str());
    s.open_requested = false;
  }
  ImGui::SetNextWindowSize({ImGui::GetFontSize() * 40, ImGui::GetFontSize() * 26}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id.c_str())) return;
  if (s.listed_dir != s.dir) list(s);
  ImGui::TextDisabled("%s", s.dir.c_str());
  bool pick = false;
  std::string picked;
  ImGui::BeginChild("##entries", {0, -ImGui::GetFrameHeightWithSpacing() * 2}, true);
  if (ImGui::Selectable("..", false, ImGuiSelectableFlags_AllowDoubleClick) &&
      ImGui::IsMouseDoubleClicked(0))
    s.dir = fs::path(s.dir).parent_path().string();
  for (const auto& [name, folder] : s.entries) {
    const std::string label = folder ? name + "/" : name;
    if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
      const std::string full = (fs::path(s.dir) / name).string();
      if (folder && ImGui::IsMouseDoubleClicked(0)) {
        s.dir = full;
      } else if (!folder) {
        std::snprintf(s.path, sizeof s.path, "%s", full.c_str());
        if (ImGui::IsMouseDoubleClicked(0)) pick = true, picked = full;
      }
    }
  }
  if (!s.problem.empty()) ImGui::TextColored({1, 0.5f, 0.5f, 1}, "%s", s.problem.c_str());
  ImGui::EndChild();
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 10);
  if (ImGui::InputText("##path", s.path, sizeof s.path, ImGuiInputTextFlags_EnterReturnsTrue))
    pick = true, picked = s.path;
  ImGui::SameLine();
  if (ImGui::Button(tr("Open"))) pick = true, picked = s.path;
  ImGui::SameLine();
  if (ImGui::Button(tr("Cancel"))) ImGui::CloseCurrentPopup();
  if (pick && !picked.empty()) {
    std::error_code ec;
    if (fs::is_directory(picked, ec)) {
      s.dir = picked;
    } else {
      if (s.on_pick) s.on_pick(picked);
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::EndPopup();
}

}  // namespace gemmlab::app
