#include "exercise_pictures.h"

#include <functional>

#include "gemmlab/banks.h"
#include "gemmlab/fp16_smem_tile.h"
#include "gemmlab/fragments.h"

namespace gemmlab::exercise {
namespace {

LdsmMatrixBanks banks_of(const std::function<long long(int row, int k)>& offset) {
  LdsmMatrixBanks out;
  WarpRequest req;
  req.op = {SmemOpKind::Ldmatrix, 16, 4, false};
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const FragCoord r = ldsm_x4_a_row_start(lane);  // (m, k)
    req.addresses[static_cast<size_t>(lane)] = 2 * offset(r.row, r.col);
  }
  const auto a = analyze_banks(req);
  if (!a) return out;
  for (int lane = 0; lane < 8; ++lane) out.first_bank[static_cast<size_t>(lane)] = a->lanes[static_cast<size_t>(lane)].bank();
  out.matrix_wavefronts = a->phases[0].wavefronts;
  out.x4_wavefronts = a->wavefronts;
  out.ok = true;
  return out;
}

}  // namespace

LdsmMatrixBanks ldsm_matrix_banks(const ValueTable& t) {
  if (t.values_per_point != 1 || t.points != 128 * 32 || static_cast<long long>(t.values.size()) != t.points) return {};
  return banks_of([&](int row, int k) { return t.at(row * 32 + k); });
}

LdsmMatrixBanks ldsm_matrix_banks_stage() {
  return banks_of([](int row, int k) { return fp16_tile::SmemOperandLayout<32, true>::offset(row, k); });
}

}  // namespace gemmlab::exercise
