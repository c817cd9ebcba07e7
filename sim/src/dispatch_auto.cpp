// dispatch_auto (gemmlab/dispatch.h): the `auto` stage's pick (gemmlab/auto_dispatch.h) with the
// stage it runs and the rule's sentence.
#include <cmath>
#include <cstdio>

#include "gemmlab/dispatch.h"

namespace gemmlab {

namespace {

// Indexed by AutoRule.
constexpr const char* kFormats[] = {
    "M = %s: %s tiles of %s fill the %s SMs %s times -> %s: its scheduler evens out the last round, its clusters "
    "share B",
    "M = %s: one row of tiles with %s of its %s rows used, so the work is reading B -> %s: %s tiles, K cut into "
    "as many slices as fill one wave",
    "M = %s: %s tiles of %s would not fit one wave of %s blocks (%s per SM), %s tiles of %s do -> %s: two "
    "warpgroups share each B box",
    "M = %s: one wave of %s tiles of %s fills %s of the %s SMs -> %s: one block per tile, no round to even out, no "
    "cluster partner idle",
    "M = %s: %s tiles of %s would fill %s of the %s SMs -> %s: %s tiles, twice the blocks, and K (%s k-tiles) cut "
    "into slices that fill one wave where each keeps 16 k-tiles",
    "M = %s: %s tiles of %s fit the %s SMs one block each -> %s: %s stages in flight per SM, K cut only where the "
    "tiles fill half the SMs or fewer",
    "M = %s: %s tiles of %s fit the %s SMs one block each; %s tiles of %s with K cut make at least as many blocks "
    "(%s) -> %s: two warpgroups share each B box, so each k-tile's A and B feed twice the math",
    "M = %s: %s tiles of %s would not fit the %s SMs one block each, %s tiles of %s do (%s blocks) -> %s: two "
    "warpgroups share each B box, %s stages in flight per SM",
};
static_assert(std::size(kFormats) == size_t(AutoRule::RowWave) + 1);

std::string num(long long v) { return std::to_string(v); }
std::string tile(int m, int n) { return num(m) + " x " + num(n); }
// The share of the SMs one wave of `tiles` keeps busy.
std::string share(long long tiles, int sms) {
  return num(std::lround(100.0 * double(std::min<long long>(tiles, sms)) / sms)) + "%";
}

std::vector<std::string> sentence_args(const AutoDispatch& d) {
  const AutoPick& p = d.pick;
  const std::string m = num(d.problem.m), sms = num(d.sms), stage = d.stage->name;
  const std::string big = tile(p.big_m, p.big_n), small = tile(p.small_m, p.small_n);
  switch (p.rule) {
    case AutoRule::FullWaves: {
      char times[32];
      std::snprintf(times, sizeof times, "%.1f", double(p.big_tiles) / d.sms);
      return {m, num(p.big_tiles), big, sms, times, stage};
    }
    case AutoRule::ThinRows: return {m, m, num(p.big_m), stage, small};
    case AutoRule::OneRow:
      return {m, num(p.small_tiles), small, num(1ll * kSplitKBlocksPerSm * d.sms), num(kSplitKBlocksPerSm),
              num(p.row_tiles), tile(d.stage->tile_m, d.stage->tile_n), stage};
    case AutoRule::OneWave: return {m, num(p.big_tiles), big, share(p.big_tiles, d.sms), sms, stage};
    case AutoRule::FewTiles:
      return {m, num(p.big_tiles), big, share(p.big_tiles, d.sms), sms, stage, small, num(p.k_tiles)};
    case AutoRule::SmTiles:
      return {m, num(p.small_tiles), small, sms, stage, num(kernels::hopper::DeepStage::Shape::kStages)};
    case AutoRule::SmRows:
    case AutoRule::RowWave: {  // the same facts; RowWave also names 19f's stages in flight
      std::vector<std::string> args{m,     num(p.small_tiles), small, sms, num(p.row_tiles),
                                    tile(d.stage->tile_m, d.stage->tile_n), num(p.deep_row_blocks), stage};
      if (p.rule == AutoRule::RowWave) args.push_back(num(kernels::hopper::DeepRowStage::Shape::kStages));
      return args;
    }
  }
  return {};
}

}  // namespace

std::string fill_sentence(const std::string& format, const std::vector<std::string>& args) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] == '%' && i + 1 < format.size() && format[i + 1] == '%') {
      out += '%', ++i;
    } else if (format[i] == '%' && i + 1 < format.size() && format[i + 1] == 's') {
      out += next < args.size() ? args[next] : std::string();
      ++next, ++i;
    } else {
      out += format[i];
    }
  }
  return out;
}

std::vector<const char*> auto_sentence_formats() { return {std::begin(kFormats), std::end(kFormats)}; }

Expected<AutoDispatch> dispatch_auto(GemmCoord problem, const DeviceDesc& dev) {
  if (problem.m < 1 || problem.n < 1 || problem.k < 1 || problem.m > (1 << 20) || problem.n > (1 << 20) ||
      problem.k > (1 << 20))
    return Error{"M, N and K must be 1 .. 1048576"};
  if (dev.sms < 1) return Error{"the device needs at least one SM"};
  AutoDispatch d;
  d.problem = problem;
  d.sms = dev.sms;
  d.pick = pick_auto_launch(problem.m, problem.n, problem.k, dev.sms);
  d.stage = &stage_of_auto_launch(d.pick.launch);
  d.format = kFormats[static_cast<size_t>(d.pick.rule)];
  d.args = sentence_args(d);
  d.explanation = fill_sentence(d.format, d.args);
  return d;
}

}  // namespace gemmlab
