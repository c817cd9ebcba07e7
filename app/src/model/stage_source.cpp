#include "model/stage_source.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <sstream>

#include "gemmlab/stage_desc.h"
#include "model/files.h"

namespace gemmlab::app {
namespace fs = std::filesystem;

namespace {

std::string trimmed(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool trivial(const std::string& t) {
  return std::all_of(t.begin(), t.end(), [](char c) { return c == '{' || c == '}' || c == '(' || c == ')' || c == ';'; });
}

const char* track_folder(StageTrack t) {
  switch (t) {
    case StageTrack::fp32: return "fp32";
    case StageTrack::fp16: return "fp16";
    case StageTrack::hopper: return "hopper";
    default: return "conv";
  }
}

// "4 double buffer" -> "04_", "1a naive" -> "01_".
std::string file_prefix(const StageDesc& s) {
  int n = 0;
  for (const char* p = s.name; *p >= '0' && *p <= '9'; ++p) n = n * 10 + (*p - '0');
  return (n < 10 ? "0" : "") + std::to_string(n) + "_";
}

// The stage's .cu files, then its .cuh files, by name.
std::vector<fs::path> stage_files(const fs::path& folder, const std::string& prefix) {
  std::vector<fs::path> cu, cuh;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    if (it->path().extension() == ".cu") cu.push_back(it->path());
    if (it->path().extension() == ".cuh") cuh.push_back(it->path());
  }
  std::sort(cu.begin(), cu.end());
  std::sort(cuh.begin(), cuh.end());
  cu.insert(cu.end(), cuh.begin(), cuh.end());
  return cu;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

std::vector<bool> lines_added(const std::vector<std::string>& before, const std::vector<std::string>& after) {
  std::map<std::string, int> left;
  for (const auto& l : before) ++left[trimmed(l)];
  std::vector<bool> added(after.size(), false);
  for (size_t i = 0; i < after.size(); ++i) {
    const std::string t = trimmed(after[i]);
    if (trivial(t)) continue;
    auto it = left.find(t);
    if (it != left.end() && it->second > 0) --it->second;
    else added[i] = true;
  }
  return added;
}

Expected<StageSource> load_stage_source(const std::string& root, const std::string& stage_id) {
  const int index = stage_index(stage_id);
  if (index < 0) return Error{"no stage '" + stage_id + "' in the registry (sim/include/gemmlab/stages.def)"};
  const auto read_stage = [&](int i, std::vector<SourceFile>* files) -> std::string {
    const StageDesc& s = stage_table()[static_cast<size_t>(i)];
    const fs::path folder = fs::path(root) / "kernels" / "stages" / track_folder(s.track);
    auto paths = stage_files(folder, file_prefix(s));
    if (paths.empty()) return "no " + file_prefix(s) + "*.cu for stage " + s.id + " in " + folder.string();
    // Each file once; while reading the stage's own files, the folder's shared headers they
    // include join the list ("fp32_simt.cuh": the main loops of stages 3-7), one level deep.
    const size_t own = paths.size();
    for (size_t k = 0; k < paths.size(); ++k) {
      std::string why;
      const auto text = read_file_contents(paths[k].string(), &why, 1u << 20);
      if (!text) return paths[k].string() + ": " + why;
      SourceFile f;
      f.path = fs::relative(paths[k], root).string();
      for (auto& line : split_lines(*text)) {
        const size_t q = k < own ? line.find("#include \"") : std::string::npos;
        const size_t e = q == std::string::npos ? q : line.find('"', q + 10);
        if (e != std::string::npos) {
          const fs::path inc = folder / line.substr(q + 10, e - q - 10);
          std::error_code ec;
          if (fs::is_regular_file(inc, ec) && std::find(paths.begin(), paths.end(), inc) == paths.end())
            paths.push_back(inc);
        }
        f.lines.push_back({std::move(line), false});
      }
      files->push_back(std::move(f));
    }
    return "";
  };
  StageSource out;
  out.stage = stage_id;
  if (const std::string e = read_stage(index, &out.files); !e.empty()) return Error{e};
  // The previous stage with other files ("1a naive" and "1 naive" share 01_naive.cu).
  std::vector<SourceFile> before;
  const std::string prefix = file_prefix(stage_table()[static_cast<size_t>(index)]);
  for (int i = index - 1; i >= 0; --i)
    if (file_prefix(stage_table()[static_cast<size_t>(i)]) != prefix ||
        stage_table()[static_cast<size_t>(i)].track != stage_table()[static_cast<size_t>(index)].track) {
      out.previous = stage_table()[static_cast<size_t>(i)].id;
      if (const std::string e = read_stage(i, &before); !e.empty()) return Error{e};
      break;
    }
  // A file the previous stage has too (a shared header) against itself; the stage's own files
  // against the previous stage's own.
  auto texts = [](const auto& files) {
    std::vector<std::string> t;
    for (const SourceFile* f : files)
      for (const auto& l : f->lines) t.push_back(l.text);
    return t;
  };
  auto shared_with_before = [&](const SourceFile& f) -> const SourceFile* {
    for (const SourceFile& b : before)
      if (b.path == f.path) return &b;
    return nullptr;
  };
  std::vector<const SourceFile*> before_own;
  std::vector<SourceFile*> after_own;
  for (const SourceFile& b : before)
    if (std::none_of(out.files.begin(), out.files.end(), [&](const SourceFile& f) { return f.path == b.path; }))
      before_own.push_back(&b);
  for (SourceFile& f : out.files) {
    if (const SourceFile* b = shared_with_before(f)) {
      const auto added = lines_added(texts(std::vector<const SourceFile*>{b}), texts(std::vector<SourceFile*>{&f}));
      for (size_t k = 0; k < f.lines.size(); ++k) f.lines[k].added = added[k];
    } else {
      after_own.push_back(&f);
    }
  }
  const auto added = lines_added(texts(before_own), texts(after_own));
  size_t k = 0;
  for (SourceFile* f : after_own)
    for (auto& l : f->lines) l.added = added[k++];
  for (const SourceFile& f : out.files)
    for (const auto& l : f.lines) {
      out.added += l.added;
      ++out.total;
    }
  return out;
}

}  // namespace gemmlab::app
