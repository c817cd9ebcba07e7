// Exercise 15-tma/box-coords: void tma_box(int operand, int m_block, int n_block, int k_tile,
// int* inner, int* outer), the global coordinates where stage 15 (`tma`) starts the TMA box of
// operand 0 (A, M x K row-major) or 1 (B, K x N column-major) for k-tile k_tile of block
// (m_block, n_block), on a 512 x 512 x 512 problem. Both operands are K-contiguous, so the inner
// coordinate is along K. The stage's tile is 128 x 256 x 64 (hopper_shapes.h TmaStage); each box
// is checked with the simulator's TMA model (gemmlab/tma_map.h): which elements it copies.
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

std::string span(long long first, long long count) {
  return std::to_string(first) + "-" + std::to_string(first + count - 1);
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  for (long long p = 0; p < kPoints; ++p) {
    const Point q = point_of(p);
    const long long x = t.at(p, 0), y = t.at(p, 1);
    const char* name = q.operand == 0 ? "A" : "B";
    const std::string which = std::string("the ") + name + " box of k-tile " + std::to_string(q.k_tile) +
                              " of block (m " + std::to_string(q.m_block) + ", n " + std::to_string(q.n_block) + ")";
    if (x == kUnset || y == kUnset) {
      v.reason = which + ": your function did not set *" + (x == kUnset ? "inner" : "outer");
      return v;
    }
    const tma::TensorMap2D map = map_of(q.operand);
    const long long want_x = static_cast<long long>(q.k_tile) * Shape::kTileK;
    const long long want_y = static_cast<long long>(q.operand == 0 ? q.m_block : q.n_block) * map.box[1];
    if (x == want_x && y == want_y) continue;
    const auto box = tma::copy_box(map, x, y);
    const std::string rows = q.operand == 0 ? "rows (m) " : "columns (n) ";
    std::string got = "starts at (inner " + std::to_string(x) + ", outer " + std::to_string(y) + ")";
    if (box) {
      got += ": k " + span(x, map.box[0]) + " of " + rows + span(y, map.box[1]);
      const long long outside = static_cast<long long>(box->elements.size()) - box->in_bounds;
      if (outside > 0) got += ", " + std::to_string(outside) + " of its elements past the tensor (the TMA writes zeros)";
    }
    v.reason = which + " " + got + "; the stage's box starts at (inner " + std::to_string(want_x) + ", outer " +
               std::to_string(want_y) + "): k " + span(want_x, map.box[0]) + " of " + rows + span(want_y, map.box[1]);
    return v;
  }
  v.pass = true;
  v.passed.push_back("all 128 boxes start where the stage's do");
  v.reason = "every A and B box of every k-tile starts where stage 15's does: inner = k_tile * 64 along K, "
             "outer = the block's first row of A (m) or column of B (n)";
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
