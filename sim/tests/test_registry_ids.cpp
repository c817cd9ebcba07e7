// Nothing outside the registry, a stage's own folder and the tests names a stage or reference id:
// a stage is one folder plus one row of sim/device/gemmlab/stages.def, and no code branches on
// its id or parses its name. This test reads every C++ / CUDA source of sim/, app/ and kernels/
// (comments dropped) and fails on any string literal equal to a registered id.
//
// Some ids are also words of other vocabularies ("tma" the --load value, "ldmatrix" a bank
// pattern, "epilogue" a timeline phase, "split-k" a view's label): those uses are listed below by
// the code around them, each with what it names instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gemmlab/stage_desc.h"

using namespace gemmlab;
namespace fs = std::filesystem;

namespace {

struct OtherVocabulary {
  const char* code;  // a piece of the line, the literal included
  const char* what;  // what the literal names there
};
const OtherVocabulary kOtherVocabularies[] = {
    {"load != \"tma\"", "the --load option's value (ldg, cp.async, tma)"},
    {"load == \"tma\"", "the --load option's value"},
    {"GlobalLoad::Tma ? \"tma\"", "a global-load kind's name in JSON"},
    {"{\"cp.async\", \"tma\"}", "the Conv view's copy setting"},
    {"copy == \"tma\"", "the Conv view's copy setting"},
    {"{\"tma\",", "the `gemmlab sim tma` command"},
    {"{\"wgmma\",", "the `gemmlab sim wgmma` command"},
    {"rfind(\"wgmma\", 0)", "the Fragments view's wgmma operations"},
    {"name == \"ldmatrix\"", "a bank pattern's name"},
    {"return \"ldmatrix\"", "a bank pattern's name"},
    {"? \"ldmatrix\" : \"rows\"", "a bank pattern's name"},
    {"{\"pattern\", \"ldmatrix\"}", "a bank pattern setting"},
    {"pattern = \"ldmatrix\"", "a bank pattern setting"},
    {"{\"ldmatrix\", \"rows\", \"linear\"}", "the bank patterns"},
    {"return \"epilogue\"", "a timeline phase's name"},
    {"tr(\"split-k\")", "a Grid view field's label"},
    {"tr(\"stream-k\")", "a Grid view field's label"},
    {"return \"stream-k\"", "a partition's name"},
    {"? \"stream-k\" :", "a block order's name"},
    {"rfind(\"warp-specialized\", 0)", "the Pipeline view's pipeline kinds"},
    {"KSplit::SplitK ? \"split-k\"", "the dispatch rule's name of a K split"},
    {"out[\"cluster\"]", "a JSON key of `gemmlab sim dispatch`"},
};

// The registry and what may name ids: the rows, the kernels' registry, the stage folders, tests,
// fuzz targets, maintainers' lab tools.
bool exempt(const std::string& rel) {
  for (const char* p : {"sim/device/gemmlab/stages.def", "sim/include/gemmlab/stage_desc.h", "kernels/registry.",
                        "kernels/stages/", "kernels/lab/", "kernels/tools/"})
    if (rel.rfind(p, 0) == 0) return true;
  return rel.find("/tests/") != std::string::npos || rel.find("/fuzz/") != std::string::npos;
}

// The line without its // comment (a "//" inside a string literal is kept).
std::string code_of(const std::string& line) {
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') {
      ++i;
      continue;
    }
    if (line[i] == '"') in_string = !in_string;
    if (!in_string && line.compare(i, 2, "//") == 0) return line.substr(0, i);
  }
  return line;
}

std::vector<std::string> registered_ids() {
  std::vector<std::string> ids;
  for (const StageDesc& s : stage_table()) ids.push_back(s.id);
  for (const ReferenceDesc& r : kReferenceTable) ids.push_back(r.id);
  return ids;
}

// "file:line: code" for every literal equal to an id outside the registry.
std::vector<std::string> id_literals(const fs::path& root) {
  const std::vector<std::string> ids = registered_ids();
  const std::set<std::string> extensions = {".cpp", ".h", ".hpp", ".cu", ".cuh", ".def", ".inc"};
  std::vector<std::string> hits;
  for (const char* top : {"sim", "app", "kernels"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      if (!e.is_regular_file() || !extensions.count(e.path().extension().string())) continue;
      const std::string rel = fs::relative(e.path(), root).generic_string();
      if (exempt(rel)) continue;
      std::ifstream in(e.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        const std::string code = code_of(line);
        for (const std::string& id : ids) {
          if (code.find('"' + id + '"') == std::string::npos) continue;
          bool other = false;
          for (const OtherVocabulary& v : kOtherVocabularies)
            other |= code.find(v.code) != std::string::npos && std::string(v.code).find('"' + id + '"') != std::string::npos;
          if (!other) hits.push_back(rel + ":" + std::to_string(number) + ": " + line);
        }
      }
    }
  }
  return hits;
}

TEST(RegistryIds, NoSourceOutsideTheRegistryNamesAnId) {
  const fs::path root = fs::path(GEMMLAB_TEST_DATA) / ".." / ".." / "..";
  ASSERT_TRUE(fs::is_regular_file(root / "sim/device/gemmlab/stages.def"));
  std::ostringstream all;
  const std::vector<std::string> hits = id_literals(root);
  for (const std::string& h : hits) all << "\n  " << h;
  EXPECT_TRUE(hits.empty()) << "stage or reference ids named outside the registry (use the row's fields, "
                               "find_stage_desc / find_reference with data, or the track table):"
                            << all.str();
}

// The scan finds what it looks for: a literal id in code, not in a comment, not another vocabulary.
TEST(RegistryIds, TheScanSeesCodeNotComments) {
  EXPECT_EQ(code_of("if (id == \"tma\") return x;  // the TMA stage"), "if (id == \"tma\") return x;  ");
  EXPECT_EQ(code_of("s = \"a//b\"; // c"), "s = \"a//b\"; ");
  EXPECT_EQ(code_of("// if (id == \"cluster\")"), "");
  EXPECT_TRUE(exempt("kernels/stages/fp32/13b_stream_k/stream_k.cu"));
  EXPECT_TRUE(exempt("app/tests/test_stage_source.cpp"));
  EXPECT_FALSE(exempt("sim/src/kernel_smem_mix.cpp"));
  const std::vector<std::string> ids = registered_ids();
  EXPECT_EQ(ids.size(), stage_table().size() + std::size(kReferenceTable));
  EXPECT_NE(std::find(ids.begin(), ids.end(), "cudnn"), ids.end());
}

}  // namespace
