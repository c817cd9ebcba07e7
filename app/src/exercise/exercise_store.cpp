#include "exercise/exercise_store.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/config.h"
#include "model/files.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
namespace {

#ifndef GEMMLAB_DEFAULT_ROOT
#define GEMMLAB_DEFAULT_ROOT ""
#endif

std::string course_folder_name(const std::string& course_dir) {
  std::error_code ec;
  const fs::path shipped = fs::weakly_canonical(fs::path(GEMMLAB_DEFAULT_ROOT) / "lessons", ec);
  const fs::path mine = fs::weakly_canonical(course_dir, ec);
  if (!ec && mine == shipped) return "shipped";
  std::string s = mine.empty() ? course_dir : mine.string();
  for (char& c : s)
    if (c == '/' || c == '\\' || c == ':') c = '_';
  return s;
}

}  // namespace

std::string exercise_code_path(const std::string& course_dir, const std::string& exercise_id) {
  return (fs::path(config_path()).parent_path() / "exercises" / course_folder_name(course_dir) /
          (exercise_id + ".cpp")).string();
}

std::optional<std::string> load_exercise_code(const std::string& course_dir, const std::string& exercise_id) {
  const std::string path = exercise_code_path(course_dir, exercise_id);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > (256u << 10)) return std::nullopt;
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string save_exercise_code(const std::string& course_dir, const std::string& exercise_id, const std::string& code) {
  const fs::path path = exercise_code_path(course_dir, exercise_id);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return "cannot create " + path.parent_path().string() + ": " + ec.message();
  return write_text_file(path.string(), code);  // the last good copy stays if the write fails
}

}  // namespace gemmlab::app
