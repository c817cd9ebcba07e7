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

namespace {

// The `count` numbers of the template argument list that follows `key` in `plain`, possibly
// written as "(int)256"; false if the list is cut short or a number is larger than any tile.
bool template_numbers(const std::string& plain, std::string_view key, int* v, int count) {
  const size_t at = plain.find(key);
  if (at == std::string::npos) return false;
  size_t i = at + key.size();
  for (int n = 0; n < count; ++n) {
    while (i < plain.size() && !std::isdigit(static_cast<unsigned char>(plain[i])) && plain[i] != '>') ++i;
    if (i >= plain.size() || plain[i] == '>') return false;
    v[n] = 0;
    while (i < plain.size() && std::isdigit(static_cast<unsigned char>(plain[i]))) {
      v[n] = v[n] * 10 + (plain[i++] - '0');
      if (v[n] > 65536) return false;  // no tile or warp is that large: not a shape this code built
    }
  }
  return true;
}

// An earlier build of a stage: its tile, threads and shared memory.
MeasuredStage earlier_build(const StageDesc& s, int tm, int tn, int tk, int threads, int smem) {
  MeasuredStage out{s, false};
  out.desc.tile_m = tm, out.desc.tile_n = tn, out.desc.tile_k = tk, out.desc.threads = threads;
  out.desc.smem = smem;
  return out;
}

}  // namespace

MeasuredStage stage_as_measured(const StageDesc& s, std::string_view ncu_kernel_name) {
  const MeasuredStage registered{s, true};
  // Only the GEMM tracks build one shape per stage: a conv stage picks its tile per layer at run
  // time (conv_mainloop.cuh), so another tile in its name is not another build.
  if (s.track != StageTrack::fp16 && s.track != StageTrack::hopper) return registered;
  const std::string plain = plain_kernel_name(ncu_kernel_name);
  // WgmmaShape<TM, TN, stages, producer> (hopper_shapes.h): TM / 64 consumer warpgroups, one
  // more with a producer; stage 16 ran 128 x 256 until 2026-11-27. Its shared memory is its
  // stages of A and B boxes (stages 16-18; stage 19, which stages C too, keeps its shape).
  if (int w[4] = {}; template_numbers(plain, "WgmmaShape<", w, 4)) {
    const auto [tm, tn, stages, producer] = w;
    if (tm <= 0 || tm % 64 || tn <= 0 || tn % 8 || tn > 256 || stages <= 0 || producer > 1) return registered;
    const int threads = kernels::hopper::wgmma_threads(tm, producer == 1);
    if (tm == s.tile_m && tn == s.tile_n && threads == s.threads) return registered;
    MeasuredStage b = earlier_build(s, tm, tn, s.tile_k, threads, int(kernels::hopper::wgmma_smem_bytes(tm, tn, stages)));
    // Which slabs it ran is not in its name: every wgmma build before the 128 x 128 one ran the
    // fp16 stages' slabs of 8, as stages 17 and 18 still do.
    b.desc.raster_param = kernels::hopper::WarpSpecializedStage::kMaxStride;
    return b;
  }
  // MultistageShape<TM, TN, TK, stages, warp m, warp n[, barrier after mma]> (fp16_shapes.h).
  int v[6] = {};
  if (!template_numbers(plain, "MultistageShape<", v, 6)) return registered;
  const auto [tm, tn, tk, stages, wm, wn] = v;
  if (tm <= 0 || tn <= 0 || tk <= 0 || wm <= 0 || wn <= 0 || tm % wm || tn % wn) return registered;
  const int threads = kernels::fp16::multistage_threads(tm, tn, wm, wn);
  if (tm == s.tile_m && tn == s.tile_n && tk == s.tile_k && threads == s.threads) return registered;
  // An earlier build: its shared memory is its stages of A and B tiles (stages 10 and 12; the TMA
  // and conv stages, whose blocks hold more, have kept their shapes).
  return earlier_build(s, tm, tn, tk, threads, int(kernels::fp16::multistage_smem_bytes(tm, tn, tk, stages)));
}

}  // namespace gemmlab
