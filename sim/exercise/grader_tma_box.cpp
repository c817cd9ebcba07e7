// Exercise 15-tma/box-coords: void tma_box(int operand, int m_block, int n_block, int k_tile,
// int* inner, int* outer), the global coordinates where stage 15 (`tma`) starts the TMA box of
// operand 0 (A, M x K row-major) or 1 (B, K x N column-major) for k-tile k_tile of block
// (m_block, n_block), on a 512 x 512 x 512 problem. Both operands are K-contiguous, so the inner
// coordinate is along K. The stage's tile is 128 x 256 x 64 (hopper_shapes.h TmaStage); each box
// is checked with the simulator's TMA model (gemmlab/tma_map.h): which elements it copies.
#include <utility>

#include "exercise_pictures.h"
#include "gemmlab/hopper_shapes.h"
#include "gemmlab/tma_map.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace {

using Shape = kernels::hopper::TmaStage::Shape;
constexpr int kM = 512, kN = 512, kK = 512;
constexpr int kMBlocks = kM / Shape::kTileM, kNBlocks = kN / Shape::kTileN, kKTiles = kK / Shape::kTileK;
static_assert(kMBlocks == 4 && kNBlocks == 2 && kKTiles == 8);
constexpr long long kPoints = 2ll * kMBlocks * kNBlocks * kKTiles;
constexpr long long kUnset = -2147483647;  // the driver's value when the function leaves *inner / *outer

struct Point {
  int operand, m_block, n_block, k_tile;
};
Point point_of(long long p) {
  Point q;
  q.k_tile = static_cast<int>(p % kKTiles);
  p /= kKTiles;
  q.n_block = static_cast<int>(p % kNBlocks);
  p /= kNBlocks;
  q.m_block = static_cast<int>(p % kMBlocks);
  q.operand = static_cast<int>(p / kMBlocks);
  return q;
}

tma::TensorMap2D map_of(int operand) {
  tma::TensorMap2D m;
  const int rows = operand == 0 ? kM : kN;
  m.dims[0] = kK;
  m.dims[1] = rows;
  m.row_stride_bytes = 2ll * kK;
  m.box[0] = tma::kBoxK;
  m.box[1] = operand == 0 ? Shape::kTileM : Shape::kTileN;
  return m;
}

// Where stage 15 starts the box (tma_mainloop.cuh: tile * kTileK along K, the block's first row).
std::pair<long long, long long> stage_start(const Point& q) {
  return {static_cast<long long>(q.k_tile) * Shape::kTileK,
          static_cast<long long>(q.operand == 0 ? q.m_block : q.n_block) * map_of(q.operand).box[1]};
}

std::string span(long long first, long long count) {
  return std::to_string(first) + "-" + std::to_string(first + count - 1);
}

// "k 64-127 of rows (m) 0-127"
Words cover_words(int operand, const tma::TensorMap2D& map, long long x, long long y) {
  if (operand == 0) return words("k %s of rows (m) %s", span(x, map.box[0]), span(y, map.box[1]));
  return words("k %s of columns (n) %s", span(x, map.box[0]), span(y, map.box[1]));
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  for (long long p = 0; p < kPoints; ++p) {
    const Point q = point_of(p);
    const long long x = t.at(p, 0), y = t.at(p, 1);
    const Words which = words("the %s box of k-tile %s of block (m %s, n %s)", q.operand == 0 ? "A" : "B", q.k_tile,
                              q.m_block, q.n_block);
    if (x == kUnset || y == kUnset) {
      v.say(words("%s: your function did not set *%s", which, x == kUnset ? "inner" : "outer"));
      return v;
    }
    const tma::TensorMap2D map = map_of(q.operand);
    const auto [want_x, want_y] = stage_start(q);
    if (x == want_x && y == want_y) continue;
    const auto box = tma::copy_box(map, x, y);
    Words got = words("starts at (inner %s, outer %s)", x, y);
    if (box) {
      const long long outside = static_cast<long long>(box->elements.size()) - box->in_bounds;
      const Words cover = cover_words(q.operand, map, x, y);
      got = outside > 0 ? words("starts at (inner %s, outer %s): %s, %s of its elements past the tensor (the TMA "
                                "writes zeros)", x, y, cover, outside)
                        : words("starts at (inner %s, outer %s): %s", x, y, cover);
    }
    v.say(words("%s %s; the stage's box starts at (inner %s, outer %s): %s", which, got, want_x, want_y,
                cover_words(q.operand, map, want_x, want_y)));
    return v;
  }
  v.pass = true;
  v.hold(words("all 128 boxes start where the stage's do"));
  v.say(words("every A and B box of every k-tile starts where stage 15's does: inner = k_tile * 64 along K, "
              "outer = the block's first row of A (m) or column of B (n)"));
  return v;
}

}  // namespace

Grader make_tma_box_grader() {
  Grader g;
  g.kind = "tma-box";
  g.signature = "void tma_box(int operand, int m_block, int n_block, int k_tile, int* inner, int* outer)";
  g.declarations = "void tma_box(int operand, int m_block, int n_block, int k_tile, int* inner, int* outer);\n";
  g.driver_body =
      "for (int op = 0; op < 2; ++op) for (int m = 0; m < 4; ++m) for (int n = 0; n < 2; ++n)\n"
      "  for (int k = 0; k < 8; ++k) {\n"
      "    int x = -2147483647, y = -2147483647;\n"
      "    tma_box(op, m, n, k, &x, &y);\n"
      "    emit(x, y);\n"
      "  }";
  g.points = kPoints;
  g.values_per_point = 2;
  g.describe_point = [](long long p) {
    const Point q = point_of(p);
    return "tma_box(" + std::to_string(q.operand) + ", " + std::to_string(q.m_block) + ", " + std::to_string(q.n_block) +
           ", " + std::to_string(q.k_tile) + ", ...)";
  };
  g.evaluate = evaluate;
  return g;
}

}  // namespace gemmlab::exercise

namespace gemmlab::exercise {
namespace {

long long point_index(const Point& q) {
  return ((static_cast<long long>(q.operand) * kMBlocks + q.m_block) * kNBlocks + q.n_block) * kKTiles + q.k_tile;
}

TmaBox box_at(int operand, long long inner, long long outer, bool right) {
  TmaBox b{inner, outer, 0, right};
  if (const auto copy = tma::copy_box(map_of(operand), inner, outer)) b.in_bounds = copy->in_bounds;
  return b;
}

TmaBoxPicture frame_of(int m_block, int n_block) {
  TmaBoxPicture p;
  p.m_block = m_block;
  p.n_block = n_block;
  for (int operand = 0; operand < 2; ++operand) {
    const tma::TensorMap2D map = map_of(operand);
    TmaOperandPicture& o = operand == 0 ? p.a : p.b;
    o.dims[0] = map.dims[0], o.dims[1] = map.dims[1];
    o.box[0] = map.box[0], o.box[1] = map.box[1];
  }
  return p;
}

}  // namespace

TmaBoxPicture tma_box_picture_stage(int m_block, int n_block) {
  TmaBoxPicture p = frame_of(m_block, n_block);
  for (int operand = 0; operand < 2; ++operand)
    for (int k = 0; k < kKTiles; ++k) {
      const auto [x, y] = stage_start({operand, m_block, n_block, k});
      (operand == 0 ? p.a : p.b).boxes.push_back(box_at(operand, x, y, true));
    }
  return p;
}

TmaBoxPicture tma_box_picture(const ValueTable& t) {
  if (t.values_per_point != 2 || static_cast<long long>(t.values.size()) != 2 * kPoints) return frame_of(1, 1);
  Point first{0, 1, 1, 0};  // a block in the middle when every box is right
  for (long long i = 0; i < kPoints; ++i) {
    const Point q = point_of(i);
    if (std::make_pair(t.at(i, 0), t.at(i, 1)) != stage_start(q)) {
      first = q;
      break;
    }
  }
  TmaBoxPicture p = frame_of(first.m_block, first.n_block);
  for (int operand = 0; operand < 2; ++operand)
    for (int k = 0; k < kKTiles; ++k) {
      const Point q{operand, first.m_block, first.n_block, k};
      const long long i = point_index(q), x = t.at(i, 0), y = t.at(i, 1);
      (operand == 0 ? p.a : p.b).boxes.push_back(box_at(operand, x, y, std::make_pair(x, y) == stage_start(q)));
    }
  return p;
}

}  // namespace gemmlab::exercise
