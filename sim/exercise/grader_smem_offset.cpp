// Exercise 09-swizzle/smem-offset: int smem_offset(int row, int k), the half offset of element
// (row, k) of stage 9's (smem-swizzle) 128 x 32-half operand tile. The rules, in order: every
// offset inside the 8 KB tile, no two elements on one offset, each 16-byte vector (8 k from a
// multiple of 8) contiguous, in order and 16-byte aligned, then the stage's own accesses through
// the bank model: its 16-byte stores (OperandThreadMap: 256 threads, warp-raked 4 x 8) and its
// ldmatrix.x4 reads of A and B (fp16_smem_tile.h), each at the fewest wavefronts possible.
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
Words element_words(Element e) { return words("(row %s, k %s)", e.row, e.k); }

// "0 and 2", "0, 2, 4 and 6"
Words list_words(const std::vector<int>& v) {
  std::string head;
  for (size_t i = 0; i + 1 < v.size(); ++i) head += (i == 0 ? "" : ", ") + std::to_string(v[i]);
  if (v.size() < 2) return literal(head + (v.empty() ? "" : std::to_string(v.back())));
  return words("%s and %s", head, v.back());
}

// One warp instruction of the stage, with the element each lane addresses.
struct Access {
  SmemOp op;
  std::array<Element, kWarpLanes> element{};
  Words what;  // "the 16-byte stores (STS.128) of warp 2, access 1"
};

std::vector<Access> stage_accesses() {
  std::vector<Access> out;
  const SmemOp sts{SmemOpKind::Store, 16, 0, false};
  for (int warp = 0; warp < kThreads / kWarpLanes; ++warp)
    for (int i = 0; i < ThreadMap::kAccesses; ++i) {
      Access a{sts, {}, words("the 16-byte stores (STS.128) of warp %s, access %s", warp, i)};
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
        Access a{ldsm, {}, words("the ldmatrix.x4 of %s rows %s-%s at k %s", operand == 0 ? "A" : "B", 16 * block,
                                 16 * block + 15, kk)};
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
        v.say(words("offset %s of %s is outside the 8 KB tile: offsets are halves 0 .. 4095", off(row, k),
                    element_words({row, k})));
        return v;
      }
  v.hold(words("every offset is inside the 8 KB tile"));
  std::vector<int> owner(kHalves, -1);
  for (int i = 0; i < kHalves; ++i) {
    int& o = owner[static_cast<size_t>(t.at(i))];
    if (o >= 0) {
      const Element a{o / kTileK, o % kTileK}, b{i / kTileK, i % kTileK};
      if (a.row != b.row)
        v.say(words("offsets of rows %s and %s collide: %s and %s both go to offset %s", a.row, b.row,
                    element_words(a), element_words(b), t.at(i)));
      else
        v.say(words("offsets of row %s collide: %s and %s both go to offset %s", a.row, element_words(a),
                    element_words(b), t.at(i)));
      return v;
    }
    o = i;
  }
  v.hold(words("no two elements share an offset (a bijection onto 0 .. 4095)"));
  for (int row = 0; row < kRows; ++row)
    for (int k0 = 0; k0 < kTileK; k0 += 8) {
      const long long base = off(row, k0);
      if (base % 8 != 0) {
        v.say(words("the 16-byte vector of row %s at k %s starts at half %s, not at a multiple of 8: a 16-byte store "
                    "needs 16-byte alignment", row, k0, base));
        return v;
      }
      for (int j = 1; j < 8; ++j)
        if (off(row, k0 + j) != base + j) {
          v.say(words("the 16-byte vector of row %s at k %s is not contiguous: k %s is at %s, but one vector is 8 "
                      "halves in a row, so it must be at %s", row, k0, k0 + j, off(row, k0 + j), base + j));
          return v;
        }
    }
  v.hold(words("each 16-byte vector (8 k from a multiple of 8) is contiguous, in order, 16-byte aligned"));
  bool stores_done = false;
  for (const Access& a : stage_accesses()) {
    if (a.op.kind == SmemOpKind::Ldmatrix && !stores_done) {
      v.hold(words("the stage's 16-byte stores are conflict-free (4 wavefronts per STS.128)"));
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
      v.say(words("%s: %s", a.what, r.error()));
      return v;
    }
    if (r->wavefronts <= fewest_wavefronts(a.op)) continue;
    const BankClash c = first_bank_clash(*r);
    const Element ea = a.element[static_cast<size_t>(c.lane_a)], eb = a.element[static_cast<size_t>(c.lane_b)];
    if (a.op.kind == SmemOpKind::Ldmatrix) {
      std::vector<int> rows;
      for (int lane : c.lanes) rows.push_back(a.element[static_cast<size_t>(lane)].row);
      v.say(words("rows %s of the ldmatrix phase (matrix %s of %s) hit bank %s: %s wavefronts where 1 is possible (%s "
                  "for the .x4 where 4 are)", list_words(rows), c.phase, a.what, c.bank, c.wavefronts, r->wavefronts));
    } else {
      v.say(words("%s: lanes %s %s and %s %s hit bank %s in one quarter-warp phase: %s wavefronts where 1 is possible "
                  "(%s for the instruction where 4 are)", a.what, c.lane_a, element_words(ea), c.lane_b,
                  element_words(eb), c.bank, c.wavefronts, r->wavefronts));
    }
    return v;
  }
  v.hold(words("the stage's ldmatrix.x4 reads of A and B are conflict-free (1 wavefront per 8x8 matrix)"));
  v.pass = true;
  v.say(words("a bijection onto the 8 KB tile with whole 16-byte vectors; the stage's stores and ldmatrix reads "
              "are conflict-free (1 wavefront per 8x8 matrix)"));
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
