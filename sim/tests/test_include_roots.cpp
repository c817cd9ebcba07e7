// The sim's two include roots: sim/device/gemmlab holds what the CUDA kernels include, sim/include/gemmlab
// the host-only model and analyses. Every file under kernels/stages, followed through the headers it
// includes (the kernels' own and the sim's), reaches device headers only; a device header includes
// device headers only; no name is in both roots. The build checks the same for the files it compiles
// (gemmlab_sim_headers exposes sim/device alone); this test also covers the files no target builds
// here (the FP8 track, probes) and says which include chain reached the host header.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::path(GEMMLAB_TEST_DATA) / ".." / ".." / "..";

struct Roots {
  fs::path device;   // sim/device/gemmlab
  fs::path host;     // sim/include/gemmlab
  fs::path kernels;  // kernels/ (the stages' include folder: "stages/fp16/sync_tile.cuh")
};

Roots repo_roots() {
  return {kRoot / "sim/device/gemmlab", kRoot / "sim/include/gemmlab", kRoot / "kernels"};
}

// The names of a file's `#include "..."` lines, in order.
std::vector<std::string> quoted_includes(const fs::path& file) {
  std::vector<std::string> names;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string::npos || line.compare(hash, 1, "#") != 0) continue;
    const size_t inc = line.find_first_not_of(" \t", hash + 1);
    if (inc == std::string::npos || line.compare(inc, 7, "include") != 0) continue;
    const size_t open = line.find('"', inc + 7);
    const size_t close = open == std::string::npos ? open : line.find('"', open + 1);
    if (close != std::string::npos) names.push_back(line.substr(open + 1, close - open - 1));
  }
  return names;
}

// Follows `file`'s includes: "gemmlab/x" in the device root (and on into it), the kernels' own
// headers (relative to kernels/ or to the including file). Returns one line per include of a
// gemmlab header that is not in the device root, with the chain that reached it.
std::vector<std::string> host_reaches(const Roots& roots, const fs::path& file) {
  std::vector<std::string> found;
  std::set<fs::path> seen;
  struct Item {
    fs::path path;
    std::string chain;
  };
  std::vector<Item> todo{{file, file.filename().string()}};
  while (!todo.empty()) {
    const Item item = todo.back();
    todo.pop_back();
    if (!seen.insert(item.path.lexically_normal()).second) continue;
    for (const std::string& name : quoted_includes(item.path)) {
      const std::string chain = item.chain + " -> " + name;
      if (name.rfind("gemmlab/", 0) == 0) {
        const std::string leaf = name.substr(8);
        if (fs::is_regular_file(roots.device / leaf)) todo.push_back({roots.device / leaf, chain});
        else if (fs::is_regular_file(roots.host / leaf)) found.push_back(chain + " (host root only)");
        else found.push_back(chain + " (in neither root)");
        continue;
      }
      for (const fs::path& p : {roots.kernels / name, item.path.parent_path() / name})
        if (fs::is_regular_file(p)) {
          todo.push_back({p, chain});
          break;
        }
    }
  }
  return found;
}

bool source_file(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".cu" || ext == ".cuh" || ext == ".h" || ext == ".hpp" || ext == ".def";
}

std::string joined(const std::vector<std::string>& lines) {
  std::ostringstream all;
  for (const std::string& l : lines) all << "\n  " << l;
  return all.str();
}

}  // namespace

TEST(IncludeRoots, KernelStagesReachDeviceHeadersOnly) {
  const Roots roots = repo_roots();
  ASSERT_TRUE(fs::is_directory(roots.device));
  std::vector<std::string> found;
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(roots.kernels / "stages")) {
    if (!e.is_regular_file() || !source_file(e.path())) continue;
    ++files;
    for (const std::string& f : host_reaches(roots, e.path()))
      found.push_back(fs::relative(e.path(), kRoot).string() + ": " + f);
  }
  EXPECT_GT(files, 40);  // every stage folder and the tracks' shared headers were read
  EXPECT_TRUE(found.empty()) << "a kernel includes a header that is not in sim/device/gemmlab (move the "
                                "header there if kernels need it, or include less):"
                             << joined(found);
}

TEST(IncludeRoots, DeviceHeadersIncludeDeviceHeadersOnly) {
  const Roots roots = repo_roots();
  std::vector<std::string> found;
  int headers = 0;
  for (const auto& e : fs::directory_iterator(roots.device)) {
    ++headers;
    for (const std::string& f : host_reaches(roots, e.path())) found.push_back(f);
  }
  EXPECT_GE(headers, 16);  // hd.h ... tma_box.h, stages.def
  EXPECT_TRUE(found.empty()) << joined(found);
}

TEST(IncludeRoots, NoHeaderIsInBothRoots) {
  const Roots roots = repo_roots();
  std::vector<std::string> both;
  for (const auto& e : fs::directory_iterator(roots.device))
    if (fs::exists(roots.host / e.path().filename())) both.push_back(e.path().filename().string());
  EXPECT_TRUE(both.empty()) << "\"gemmlab/x.h\" would name two files:" << joined(both);
}

// The scan finds what it looks for: a scratch stage that reaches a host header through a local one.
TEST(IncludeRoots, TheScanSeesAHostHeaderThroughAChain) {
  const fs::path dir = fs::temp_directory_path() / ("gemmlab_include_roots_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "helper.cuh") << "#pragma once\n  #  include \"gemmlab/l2_model.h\"  // analysis\n";
  std::ofstream(dir / "stage.cu") << "#include \"gemmlab/raster.h\"\n#include \"helper.cuh\"\n#include <cstdio>\n";
  std::ofstream(dir / "clean.cu") << "#include \"gemmlab/tma_box.h\"\n// #include gemmlab/l2_model.h\n";
  const Roots roots = repo_roots();
  const std::vector<std::string> bad = host_reaches(roots, dir / "stage.cu");
  ASSERT_EQ(bad.size(), 1u) << joined(bad);
  EXPECT_EQ(bad[0], "stage.cu -> helper.cuh -> gemmlab/l2_model.h (host root only)");
  EXPECT_TRUE(host_reaches(roots, dir / "clean.cu").empty());
  std::ofstream(dir / "typo.cu") << "#include \"gemmlab/no_such_header.h\"\n";
  EXPECT_EQ(host_reaches(roots, dir / "typo.cu"),
            std::vector<std::string>{"typo.cu -> gemmlab/no_such_header.h (in neither root)"});
  fs::remove_all(dir);
}
