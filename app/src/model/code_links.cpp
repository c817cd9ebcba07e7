#include "model/code_links.h"

#include <regex>

namespace gemmlab::app {

std::optional<CodeLink> code_link(const std::string& line) {
  const size_t code_start = line.find_first_not_of(" \t");
  if (code_start == std::string::npos || line.compare(code_start, 2, "//") == 0 || line[code_start] == '*')
    return std::nullopt;
  auto has = [&](const char* s) { return line.find(s) != std::string::npos; };
  using nlohmann::json;
  std::smatch m;
  // wgmma m64nNk16: the accumulator fragment of the warpgroup's 128 threads.
  static const std::regex wgmma(R"(wgmma[._a-z]*m64n(\d+)k16)");
  if (std::regex_search(line, m, wgmma))
    return CodeLink{"fragments", {{"op", "wgmma.m64n" + m[1].str() + "k16.f16"}, {"operand", "c"}, {"highlight_lane", 0}},
                    "wgmma: which of the warpgroup's 128 threads holds which accumulator element"};
  if (has("mma_m8n8k32_s4") || has("m8n8k32.row.col.s32.s4"))
    return CodeLink{"fragments", {{"op", "mma.m8n8k32.s4"}, {"operand", "a"}, {"highlight_lane", 0}},
                    "mma.sync m8n8k32 s4: which lane holds which eight packed int4 values"};
  if (has("mma_m16n8k32_s8") || has("m16n8k32.row.col.s32.s8"))
    return CodeLink{"fragments", {{"op", "mma.m16n8k32.s8"}, {"operand", "a"}, {"highlight_lane", 0}},
                    "mma.sync m16n8k32 s8: which lane holds which A element"};
  if (has("mma_m16n8k16") || has("mma.sync.aligned.m16n8k16"))
    return CodeLink{"fragments", {{"op", "mma.m16n8k16.f16"}, {"operand", has("_c(") ? "c" : "a"}, {"highlight_lane", 0}},
                    "mma.sync m16n8k16: which lane holds which element of the fragment"};
  if (has("ldmatrix_x4") || has("ldmatrix.sync.aligned.m8n8.x4")) {
    const bool trans = has("trans");
    return CodeLink{"fragments", {{"op", trans ? "ldsm.x4.trans" : "ldsm.x4"}, {"operand", trans ? "b" : "a"}, {"highlight_lane", 0}},
                    "ldmatrix.x4: each lane gives one row address and receives one word of each 8x8 matrix"};
  }
  if (has("tma_load_2d") || has("cp.async.bulk.tensor"))
    return CodeLink{"gmma", {{"swizzle", "128B"}, {"major", "K"}, {"shape", {64, 64}}},
                    "a TMA box: rows of 128 bytes written into 128-byte-swizzled shared memory"};
  if (has("cp_async_16") || has("cp.async.cg.shared.global"))
    return CodeLink{"threadmap",
                    {{"map", "warp-raked"}, {"shape", {32, 128}}, {"threads", 128}, {"access", 8},
                     {"warp_arrangement", {4, 8}}, {"highlight_warp", 0}},
                    "cp.async of 16 bytes per thread: which thread copies which vector (a warp-raked thread map)"};
  if (has("swizzle(") || has("swizzle_byte(") || has("swizzle_apply("))
    return CodeLink{"banks",
                    {{"op", "ldsm.x4"}, {"layout", "swizzle"}, {"tile", {16, 64}}, {"element_bits", 16},
                     {"swizzle", {3, 3, 3}}, {"pattern", "ldmatrix"}},
                    "the swizzle: where each 16-byte chunk lands, and the banks an ldmatrix.x4 then reads"};
  return std::nullopt;
}

}  // namespace gemmlab::app
