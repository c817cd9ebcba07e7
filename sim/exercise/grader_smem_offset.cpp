// Exercise 09-swizzle/smem-offset: int smem_offset(int row, int k), the half offset of element
// (row, k) of stage 9's (smem-swizzle) 128 x 32-half operand tile. The rules, in order: every
// offset inside the 8 KB tile, no two elements on one offset, each 16-byte vector (8 k from a
// multiple of 8) contiguous, in order and 16-byte aligned, then the stage's own accesses through
// the bank model: its 16-byte stores (OperandThreadMap: 256 threads, warp-raked 4 x 8) and its
// ldmatrix.x4 reads of A and B (fp16_smem_tile.h), each at the fewest wavefronts possible.
#include <sstream>

#include "bank_words.h"
#include "gemmlab/banks.h"
#include "gemmlab/fp16_smem_tile.h"
#include "gemmlab/fragments.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace {

constexpr int kRows = 128, kTileK = 32, kThreads = 256, kHalves = kRows * kTileK;  // 4096 = 8 KB
using ThreadMap = fp16_tile::OperandThreadMap<kRows, kTileK, kThreads>;

struct Element {
  int row, k;
};
std::string words(Element e) { return "(row " + std::to_string(e.row) + ", k " + std::to_string(e.k) + ")"; }

// "0 and 2", "0, 2, 4 and 6"
std::string list_words(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + std::to_string(v[i]);
  return s;
}

// One warp instruction of the stage, with the element each lane addresses.
struct Access {
  SmemOp op;
  std::array<Element, kWarpLanes> element{};
  std::string what;  // "the 16-byte stores of warp 2, access 1"
};

std::vector<Access> stage_accesses() {
  std::vector<Access> out;
  const SmemOp sts{SmemOpKind::Store, 16, 0, false};
  for (int warp = 0; warp < kThreads / kWarpLanes; ++warp)
    for (int i = 0; i < ThreadMap::kAccesses; ++i) {
      Access a{sts, {}, "the 16-byte stores (STS.128) of warp " + std::to_string(warp) + ", access " + std::to_string(i)};
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        const PitchCoord start = ThreadMap::Map::initial_offset(warp * kWarpLanes + lane);
        a.element[static_cast<size_t>(lane)] = {start.s + i * ThreadMap::kRowStep, start.c};
      }
      out.push_back(a);
    }
  const SmemOp ldsm{SmemOpKind::Ldmatrix, 16, 4, false};
  for (int operand = 0; operand < 2; ++operand)
    for (int block = 0; block < kRows / 16; ++block)
      for (int kk = 0; kk < kTileK; kk += 16) {
        Access a{ldsm, {}, std::string("the ldmatrix.x4 of ") + (operand == 0 ? "A" : "B") + " rows " +
                               std::to_string(16 * block) + "-" + std::to_string(16 * block + 15) + " at k " + std::to_string(kk)};
        for (int lane = 0; lane < kWarpLanes; ++lane) {
          if (operand == 0) {
            const FragCoord r = ldsm_x4_a_row_start(lane);  // (m, k)
            a.element[static_cast<size_t>(lane)] = {16 * block + r.row, kk + r.col};
          } else {
            const FragCoord r = ldsm_x4_b_row_start(lane);  // (k, n)
            a.element[static_cast<size_t>(lane)] = {16 * block + r.col, kk + r.row};
          }
        }
        out.push_back(a);
      }
  return out;
}

int fewest_wavefronts(const SmemOp& op) { return op.kind == SmemOpKind::Ldmatrix ? op.matrices : 4; }

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  auto off = [&](int row, int k) { return t.at(row * kTileK + k); };
  for (int row = 0; row < kRows; ++row)
    for (int k = 0; k < kTileK; ++k)
      if (off(row, k) < 0 || off(row, k) >= kHalves) {
        v.reason = "offset " + std::to_string(off(row, k)) + " of " + words({row, k}) +
                   " is outside the 8 KB tile: offsets are halves 0 .. 4095";
        return v;
      }
  v.passed.push_back("every offset is inside the 8 KB tile");
  std::vector<int> owner(kHalves, -1);
  for (int i = 0; i < kHalves; ++i) {
    int& o = owner[static_cast<size_t>(t.at(i))];
    if (o >= 0) {
      const Element a{o / kTileK, o % kTileK}, b{i / kTileK, i % kTileK};
      v.reason = "offsets of " + (a.row != b.row ? "rows " + std::to_string(a.row) + " and " + std::to_string(b.row)
                                                 : "row " + std::to_string(a.row)) +
                 " collide: " + words(a) + " and " + words(b) + " both go to offset " + std::to_string(t.at(i));
      return v;
    }
    o = i;
  }
  v.passed.push_back("no two elements share an offset (a bijection onto 0 .. 4095)");
  for (int row = 0; row < kRows; ++row)
    for (int k0 = 0; k0 < kTileK; k0 += 8) {
      const long long base = off(row, k0);
      if (base % 8 != 0) {
        v.reason = "the 16-byte vector of row " + std::to_string(row) + " at k " + std::to_string(k0) +
                   " starts at half " + std::to_string(base) + ", not at a multiple of 8: a 16-byte store needs 16-byte alignment";
        return v;
      }
      for (int j = 1; j < 8; ++j)
        if (off(row, k0 + j) != base + j) {
          v.reason = "the 16-byte vector of row " + std::to_string(row) + " at k " + std::to_string(k0) +
                     " is not contiguous: k " + std::to_string(k0 + j) + " is at " + std::to_string(off(row, k0 + j)) +
                     ", but one vector is 8 halves in a row, so it must be at " + std::to_string(base + j);
          return v;
        }
    }
  v.passed.push_back("each 16-byte vector (8 k from a multiple of 8) is contiguous, in order, 16-byte aligned");
  bool stores_done = false;
  for (const Access& a : stage_accesses()) {
    if (a.op.kind == SmemOpKind::Ldmatrix && !stores_done) {
      v.passed.push_back("the stage's 16-byte stores are conflict-free (4 wavefronts per STS.128)");
      stores_done = true;
    }
    WarpRequest req;
    req.op = a.op;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const Element e = a.element[static_cast<size_t>(lane)];
      req.addresses[static_cast<size_t>(lane)] = 2 * off(e.row, e.k);
    }
    const auto r = analyze_banks(req);
    if (!r) {
      v.reason = a.what + ": " + r.error();
      return v;
    }
    if (r->wavefronts <= fewest_wavefronts(a.op)) continue;
    const BankClash c = first_bank_clash(*r);
    const Element ea = a.element[static_cast<size_t>(c.lane_a)], eb = a.element[static_cast<size_t>(c.lane_b)];
    std::ostringstream s;
    if (a.op.kind == SmemOpKind::Ldmatrix) {
      std::vector<int> rows;
      for (int lane : c.lanes) rows.push_back(a.element[static_cast<size_t>(lane)].row);
      s << "rows " << list_words(rows) << " of the ldmatrix phase (matrix " << c.phase << " of " << a.what
        << ") hit bank " << c.bank << ": " << c.wavefronts << " wavefronts where 1 is possible ("
        << r->wavefronts << " for the .x4 where 4 are)";
    } else {
      s << a.what << ": lanes " << c.lane_a << " " << words(ea) << " and " << c.lane_b << " " << words(eb)
        << " hit bank " << c.bank << " in one quarter-warp phase: " << c.wavefronts << " wavefronts where 1 is possible ("
        << r->wavefronts << " for the instruction where 4 are)";
    }
    v.reason = s.str();
    return v;
  }
  v.passed.push_back("the stage's ldmatrix.x4 reads of A and B are conflict-free (1 wavefront per 8x8 matrix)");
  v.pass = true;
  v.reason = "a bijection onto the 8 KB tile with whole 16-byte vectors; the stage's stores and ldmatrix reads "
             "are conflict-free (1 wavefront per 8x8 matrix)";
  return v;
}

}  // namespace

Grader make_smem_offset_grader() {
  Grader g;
  g.kind = "smem-offset";
  g.signature = "int smem_offset(int row, int k)";
  g.declarations = "int smem_offset(int row, int k);\n";
  g.driver_body = "for (int row = 0; row < 128; ++row)\n  for (int k = 0; k < 32; ++k) emit(smem_offset(row, k));";
  g.points = kHalves;
  g.describe_point = [](long long p) {
    return "smem_offset(" + std::to_string(p / kTileK) + ", " + std::to_string(p % kTileK) + ")";
  };
  g.evaluate = evaluate;
  return g;
}

}  // namespace gemmlab::exercise
