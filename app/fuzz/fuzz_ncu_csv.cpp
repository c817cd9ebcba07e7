// libFuzzer target: an ncu --csv export as the Measured view reads it. Seeds: assets/results/*.csv.
#include <string>

#include "model/ncu_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)gemmlab::app::parse_ncu_csv(text, "fuzz.csv");
  (void)gemmlab::app::parse_ncu_number(text.substr(0, 64));
  return 0;
}
