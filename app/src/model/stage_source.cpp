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

// The stage's own files: the .cu files of its folder (the registry row's `folder`), then its .cuh
// files, by name.
std::vector<fs::path> stage_files(const fs::path& folder) {
  std::vector<fs::path> cu, cuh;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".cu") cu.push_back(it->path());
    if (it->path().extension() == ".cuh") cuh.push_back(it->path());
  }
  std::sort(cu.begin(), cu.end());
  std::sort(cuh.begin(), cuh.end());
  cu.insert(cu.end(), cuh.begin(), cuh.end());
  return cu;
}

// The file an `#include "name"` line of `from` names: relative to kernels/ (the kernels' include
// folder, "stages/fp16/sync_tile.cuh") or to the including file's folder; empty when neither
// exists (a sim header, a system one).
fs::path included_file(const fs::path& kernels, const fs::path& from, const std::string& name) {
  std::error_code ec;
  for (const fs::path& p : {kernels / name, from.parent_path() / name})
    if (fs::is_regular_file(p, ec)) return p.lexically_normal();
  return {};
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
  if (index < 0) return Error{"no stage '" + stage_id + "' in the registry (sim/device/gemmlab/stages.def)"};
  const fs::path kernels = (fs::path(root) / "kernels").lexically_normal();
  const auto read_stage = [&](int i, std::vector<SourceFile>* files) -> std::string {
    const StageDesc& s = stage_table()[static_cast<size_t>(i)];
    const fs::path folder = (kernels / "stages" / s.folder).lexically_normal();
    auto paths = stage_files(folder);
    if (paths.empty()) return std::string("no .cu file for stage ") + s.id + " in " + folder.string();
    // Each file once; while reading the stage's own files, the shared headers they include join
    // the list ("fp32_simt.cuh": the main loops of the SIMT stages), one level deep.
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
          const fs::path inc = included_file(kernels, paths[k], line.substr(q + 10, e - q - 10));
          if (!inc.empty() && std::find(paths.begin(), paths.end(), inc) == paths.end()) paths.push_back(inc);
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
  // The previous stage of the track with another folder (stages 2a and 2b share fp32/02_naive).
  std::vector<SourceFile> before;
  const StageDesc& self = stage_table()[static_cast<size_t>(index)];
  for (int i = index - 1; i >= 0; --i)
    if (stage_table()[static_cast<size_t>(i)].track == self.track &&
        std::string_view(stage_table()[static_cast<size_t>(i)].folder) != self.folder) {
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
