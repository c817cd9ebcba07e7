// A minimal "open file" dialog in ImGui (no native dialogs in GLFW): a path field, the folder's
// entries filtered by extension, double-click to enter folders or pick a file.
#pragma once
#include <functional>
#include <string>

namespace gemmlab::app {

void file_dialog_open(const std::string& title, const std::string& start_dir,
                      const std::string& extension, std::function<void(const std::string&)> on_pick);
void file_dialog_draw();  // once per frame, after the main window

}  // namespace gemmlab::app
