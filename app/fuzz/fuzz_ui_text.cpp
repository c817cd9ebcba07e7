// libFuzzer target: the UI catalogue (assets/i18n/<lang>.json) as a hostile translator writes it.
// The first byte picks one of the app's real format keys, the rest is its translation: whatever
// format_problem() accepts is then formatted with the arguments the code passes for that key,
// as trf() and ImGui::Text(tr(...)) do (a %n or a positional or mismatched conversion would be
// caught by ASan here). All the bytes are also read as a whole catalogue file.
#include <cstdio>
#include <string>

#include "fuzz_support.h"
#include "model/ui_catalogue_check.h"
#include "model/ui_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gemmlab::app::format_problem;
  if (size == 0) return 0;
  const std::string translation(reinterpret_cast<const char*>(data) + 1, size - 1);
  char out[512];
  switch (data[0] % 4) {
    case 0:
      if (format_problem("%d of %d", translation).empty()) std::snprintf(out, sizeof out, translation.c_str(), 3, 4);
      break;
    case 1:
      if (format_problem("saved %s", translation).empty()) std::snprintf(out, sizeof out, translation.c_str(), "x.png");
      break;
    case 2:
      if (format_problem("You said %.6g; the simulator says %.6g: %s", translation).empty())
        std::snprintf(out, sizeof out, translation.c_str(), 1.5, 2.5, "too low");
      break;
    default:
      if (format_problem("%s: %d SMs, L2 %lld MiB, %d MHz", translation).empty())
        std::snprintf(out, sizeof out, translation.c_str(), "H100", 132, 50ll, 1980);
  }
  const auto path = gemmlab::fuzz::scratch() / "catalogue.json";
  gemmlab::fuzz::write_file(path, data, size);
  (void)gemmlab::app::ui_catalogue_problems(path.string());
  return 0;
}
