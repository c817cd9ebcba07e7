// Exercise 11-block-swizzle/block-order: void block_tile(int block, int tiles_m, int tiles_n,
// int* m_tile, int* n_tile), the C tile that block `block` (launch order) computes, for stage
// 11's (`block-swizzle`) launch of a tall problem on an H200. Rules: every block on a tile of the
// grid, every tile exactly once, then the L2 hit rate of the whole launch, replayed by the
// simulator's L2 model (launch_plan.h, l2_model.h: the Grid view's numbers) with the learner's
// order as a tile list, must close at least half of the gap between the launch order and the
// stage's own order.
#include <string_view>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "gemmlab/launch_plan.h"
#include "gemmlab/stage_desc.h"
#include "exercise_pictures.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace {

constexpr GemmCoord kProblem{32768, 1024, 1024};
constexpr int kTile = 128;
constexpr int kTilesM = kProblem.m / kTile, kTilesN = kProblem.n / kTile;  // 256 x 8
constexpr long long kBlocks = static_cast<long long>(kTilesM) * kTilesN;

// The stage this exercise reorders: the one lesson 11 teaches (its exercise.toml names the same).
const StageDesc* lesson_stage() {
  for (const StageDesc& s : stage_table())
    if (std::string_view(s.lesson) == "11-block-swizzle") return &s;
  return nullptr;
}

// The stage's launch plan at the exercise's problem, with `order` (nullptr: the stage's own).
Expected<LaunchPlan> plan_with(const OrderSpec* order) {
  const StageDesc* stage = lesson_stage();
  if (!stage) return Error{"lesson 11's stage is not in stages.def"};
  auto spec = stage_launch_spec(*stage, kProblem);
  if (!spec) return Error{spec.error()};
  if (order) spec.value().order = *order;
  const auto device = device_preset("h200");
  if (!device) return Error{device.error()};
  return plan_launch(spec.value(), *device);
}

Expected<double> hit_rate(const OrderSpec& order) {
  const auto plan = plan_with(&order);
  if (!plan) return Error{plan.error()};
  const auto report = replay_launch_l2(*plan);
  if (!report) return Error{report.error()};
  return report->hit_rate;
}

// The two orders the learner's is measured against, replayed once per process.
struct Baselines {
  double launch = 0, stage = 0;
  std::string stage_order, error;
};
const Baselines& baselines() {
  static Baselines b;
  static std::once_flag once;
  std::call_once(once, [] {
    const StageDesc* stage = lesson_stage();
    if (!stage) {
      b.error = "lesson 11's stage is not in stages.def";
      return;
    }
    const auto spec = stage_launch_spec(*stage, kProblem);
    const auto launch = hit_rate(OrderSpec{});
    const auto own = spec ? hit_rate(spec->order) : Expected<double>(Error{spec.error()});
    if (!launch || !own) {
      b.error = !launch ? launch.error() : own.error();
      return;
    }
    b.launch = *launch;
    b.stage = *own;
    b.stage_order = order_name(spec->order);
  });
  return b;
}

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * x);
  return buf;
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  std::vector<long long> owner(static_cast<size_t>(kBlocks), -1);
  OrderSpec order;
  order.kind = OrderKind::List;
  for (long long b = 0; b < kBlocks; ++b) {
    const long long m = t.at(b, 0), n = t.at(b, 1);
    if (m < 0 || m >= kTilesM || n < 0 || n >= kTilesN) {
      v.say(words("block %s goes to tile (m %s, n %s), outside the 256 x 8 grid of tiles", b, m, n));
      return v;
    }
    long long& o = owner[static_cast<size_t>(m * kTilesN + n)];
    if (o >= 0) {
      v.say(words("tile (m %s, n %s) is computed twice: by blocks %s and %s (and so some other tile never is)", m, n, o,
                  b));
      return v;
    }
    o = b;
    order.tile_list.push_back({static_cast<int>(m), static_cast<int>(n), 0});
  }
  v.hold(words("every tile of the 256 x 8 grid is computed by exactly one block"));
  const Baselines& base = baselines();
  if (!base.error.empty()) {
    v.say(words("the L2 model could not replay the stage's launch: %s", base.error));
    return v;
  }
  const auto mine = hit_rate(order);
  if (!mine) {
    v.say(words("the L2 model could not replay your order: %s", mine.error()));
    return v;
  }
  const double needed = base.launch + 0.5 * (base.stage - base.launch);
  const Words numbers = words("L2 hit rate %s (launch order %s, the stage's %s %s)", percent(*mine), percent(base.launch),
                              base.stage_order, percent(base.stage));
  if (*mine + 1e-9 < needed) {
    v.say(words("%s: needs at least %s; blocks that run at the same time should share A rows and B columns", numbers,
                percent(needed)));
    return v;
  }
  v.hold(numbers);
  v.pass = true;
  v.say(words("%s: at least halfway from the launch order to the stage's", numbers));
  return v;
}

}  // namespace

Grader make_block_order_grader() {
  Grader g;
  g.kind = "block-order";
  g.signature = "void block_tile(int block, int tiles_m, int tiles_n, int* m_tile, int* n_tile)";
  g.declarations = "void block_tile(int block, int tiles_m, int tiles_n, int* m_tile, int* n_tile);\n";
  g.driver_body =
      "for (int b = 0; b < 256 * 8; ++b) {\n"
      "  int m = -1, n = -1;\n"
      "  block_tile(b, 256, 8, &m, &n);\n"
      "  emit(m, n);\n"
      "}";
  g.points = kBlocks;
  g.values_per_point = 2;
  g.describe_point = [](long long p) { return "block_tile(" + std::to_string(p) + ", 256, 8, ...)"; };
  g.evaluate = evaluate;
  return g;
}

}  // namespace gemmlab::exercise

namespace gemmlab::exercise {
FirstWavePicture first_wave_picture(const ValueTable& t) {
  FirstWavePicture p{kTilesM, kTilesN, {}};
  if (t.values_per_point != 2 || static_cast<long long>(t.values.size()) != 2 * kBlocks) return p;
  const auto plan = plan_with(nullptr);
  if (!plan) return p;
  for (long long b = 0; b < std::min<long long>(plan->waves.slots, kBlocks); ++b) {
    const long long m = t.at(b, 0), n = t.at(b, 1);
    if (m < 0 || m >= kTilesM || n < 0 || n >= kTilesN) return {kTilesM, kTilesN, {}};
    p.tiles.push_back(m * kTilesN + n);
  }
  return p;
}

FirstWavePicture first_wave_picture_stage() {
  FirstWavePicture p{kTilesM, kTilesN, {}};
  const auto plan = plan_with(nullptr);
  if (!plan) return p;
  for (long long b = 0; b < std::min<long long>(plan->waves.slots, kBlocks); ++b) {
    const GemmCoord tile = plan->plan.blocks[static_cast<size_t>(b)].tile;
    p.tiles.push_back(static_cast<long long>(tile.m) * kTilesN + tile.n);
  }
  return p;
}

}  // namespace gemmlab::exercise
