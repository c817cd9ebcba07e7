// libFuzzer target: ~/.config/gemmlab/config.json as a learner may have edited it; what load_config
// keeps must save and load back to the same values. Seeds: app/fuzz/seeds/config*.json.
#include "fuzz_support.h"
#include "model/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gemmlab::fuzz::scratch;
  const auto path = (scratch() / "config.json").string();
  gemmlab::fuzz::write_file(path, data, size);
  std::string problem;
  const gemmlab::app::Config c = gemmlab::app::load_config(path, &problem);
  if (!gemmlab::app::save_config(c, path).empty()) return 0;
  std::string again;
  const gemmlab::app::Config d = gemmlab::app::load_config(path, &again);
  if (!again.empty() || d.last_lesson != c.last_lesson || d.last_step != c.last_step || d.lang != c.lang ||
      d.progress != c.progress)
    __builtin_trap();  // a saved config must load back unchanged and without complaint
  return 0;
}
