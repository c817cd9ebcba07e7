// libFuzzer target: ~/.config/gemmlab/config.json as a learner may have edited it, through the
// save/load cycle the window runs. What load_config keeps must save and load back to the same
// values; a file it cannot use must be kept aside byte for byte (config.json.bad-1), never
// written over; saving merges progress, so nothing read is lost. Seeds: app/fuzz/seeds/config*.json.
#include <sstream>

#include "fuzz_support.h"
#include "model/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  const fs::path dir = gemmlab::fuzz::scratch() / "config";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  const auto path = (dir / "config.json").string();
  gemmlab::fuzz::write_file(path, data, size);
  std::string problem;
  gemmlab::app::Config c = gemmlab::app::load_config(path, &problem);
  if (c.progress.size() + 1 < gemmlab::app::kMaxProgressEntries) c.progress["fuzz-lesson"] = 1;  // this session's progress, which must survive the merge
  std::string note;
  if (!gemmlab::app::save_config(c, path, &note).empty()) __builtin_trap();  // the folder is writable
  if (!note.empty()) {  // kept aside: the bytes must be the input's
    std::ifstream in(path + ".bad-1", std::ios::binary);
    std::ostringstream kept;
    kept << in.rdbuf();
    if (kept.str() != std::string(reinterpret_cast<const char*>(data), size)) __builtin_trap();
  }
  std::string again;
  const gemmlab::app::Config d = gemmlab::app::load_config(path, &again);
  if (!again.empty() || d.last_lesson != c.last_lesson || d.last_step != c.last_step || d.lang != c.lang ||
      d.progress != c.progress || d.font_size != c.font_size)
    __builtin_trap();  // a saved config must load back unchanged and without complaint
  return 0;
}
