#include "gemmlab/stage_desc.h"

#include <cctype>
#include <string>

namespace gemmlab {

namespace {

// ncu's name without "void ", namespaces and "(anonymous namespace)", bools as 0 / 1:
// "void unnamed>::block_swizzle_kernel<4>(int, ...)" -> "block_swizzle_kernel<4>(int, ...)".
std::string plain_kernel_name(std::string_view name) {
  std::string s(name);
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);
  for (const char* drop : {"(anonymous namespace)::", "<unnamed>::", "unnamed>::"})
    for (size_t at; (at = s.find(drop)) != std::string::npos;) s.erase(at, std::string_view(drop).size());
  // "gemmlab::kernels::fp16::x" -> "x": drop identifier:: prefixes.
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t j = i;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
    if (j > i && s.compare(j, 2, "::") == 0) {
      i = j + 2;
      continue;
    }
    if (j > i) {
      const std::string word = s.substr(i, j - i);
      out += word == "true" ? "1" : word == "false" ? "0" : word;
      i = j;
    } else {
      out += s[i++];
    }
  }
  return out;
}

}  // namespace

const StageDesc* stage_of_kernel(std::string_view ncu_kernel_name) {
  const std::string plain = plain_kernel_name(ncu_kernel_name);
  const StageDesc* best = nullptr;
  for (const StageDesc& s : kStageTable) {
    const std::string_view k = s.kernel;
    if (plain.compare(0, k.size(), k) != 0) continue;
    // The name must end where the pattern ends or go on with its template or parameter list.
    const char next = plain.size() > k.size() ? plain[k.size()] : '\0';
    if (k.back() != '<' && k.back() != ',' && next != '\0' && next != '<' && next != '(' && next != ',' && next != '>')
      continue;
    if (!best || k.size() > std::string_view(best->kernel).size()) best = &s;
  }
  return best;
}

MeasuredStage stage_as_measured(const StageDesc& s, std::string_view ncu_kernel_name) {
  MeasuredStage out{s, true};
  // Only the GEMM tracks build one shape per stage: a conv stage picks its tile per layer at run
  // time (conv_mainloop.cuh), so another tile in its name is not another build.
  if (s.track != StageTrack::fp16 && s.track != StageTrack::hopper) return out;
  const std::string plain = plain_kernel_name(ncu_kernel_name);
  const std::string_view key = "MultistageShape<";
  const size_t at = plain.find(key);
  if (at == std::string::npos) return out;
  // MultistageShape<TM, TN, TK, stages, warp m, warp n[, barrier after mma]> (fp16_shapes.h), the
  // numbers possibly written as "(int)256".
  int v[6] = {};
  size_t i = at + key.size();
  for (int& x : v) {
    while (i < plain.size() && !std::isdigit(static_cast<unsigned char>(plain[i])) && plain[i] != '>') ++i;
    if (i >= plain.size() || plain[i] == '>') return out;
    x = 0;
    while (i < plain.size() && std::isdigit(static_cast<unsigned char>(plain[i]))) {
      x = x * 10 + (plain[i++] - '0');
      if (x > 65536) return out;  // no tile or warp is that large: not a shape this code built
    }
  }
  const auto [tm, tn, tk, stages, wm, wn] = v;
  if (tm <= 0 || tn <= 0 || tk <= 0 || wm <= 0 || wn <= 0 || tm % wm || tn % wn) return out;
  const int threads = (tm / wm) * (tn / wn) * 32;
  if (tm == s.tile_m && tn == s.tile_n && tk == s.tile_k && threads == s.threads) return out;
  // An earlier build: its shared memory is its stages of A and B tiles (stages 11 and 12; the TMA
  // and conv stages, whose blocks hold more, have kept their shapes).
  out.current = false;
  out.desc.tile_m = tm, out.desc.tile_n = tn, out.desc.tile_k = tk, out.desc.threads = threads;
  out.desc.smem = stages * (tm + tn) * tk * 2;
  return out;
}

}  // namespace gemmlab
