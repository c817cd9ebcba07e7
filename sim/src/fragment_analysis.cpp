#include "gemmlab/fragment_analysis.h"

#include <string>

#include "gemmlab/gmma_analysis.h"
#include "gemmlab/gmma_layout.h"

namespace gemmlab {

namespace {

int ldsm_num(FragmentOp op) {
  return op == FragmentOp::LdsmX1 ? 1 : op == FragmentOp::LdsmX2 ? 2 : 4;
}

// Where lane's ldmatrix row address must start in the mma.m16n8k16 operand tile (fragments.h).
FragCoord operand_row_start(FragmentOperand operand, int num, bool trans, int lane) {
  if (operand == FragmentOperand::A)
    return trans ? ldsm_x4_trans_a_row_start(lane) : ldsm_x4_a_row_start(lane);
  if (num == 2) return trans ? ldsm_x2_trans_b_row_start(lane) : ldsm_x2_b_row_start(lane);
  return trans ? ldsm_x4_trans_b_row_start(lane) : ldsm_x4_b_row_start(lane);
}

Expected<FragmentMap> analyze_ldsm(const FragmentRequest& r) {
  const int num = ldsm_num(r.op);
  FragmentMap m;
  m.request = r;
  m.registers_per_lane = num;
  m.elements_per_register = 2;
  m.element_bits = 16;
  const bool with_operand = r.operand != FragmentOperand::None;
  if (r.operand == FragmentOperand::C)
    return Error{"ldmatrix loads the A and B operands; the C/D accumulators of mma never pass "
                 "through ldmatrix (drop --operand, or use a or b)"};
  if (r.operand == FragmentOperand::A && num != 4)
    return Error{"an mma.m16n8k16 A fragment (16x16) is four 8x8 matrices: use ldsm.x4 or "
                 "ldsm.x4.trans with --operand a"};
  if (r.operand == FragmentOperand::B && num == 1)
    return Error{"an mma.m16n8k16 B fragment (16x8) is two 8x8 matrices: use ldsm.x2 (one n8 "
                 "fragment) or ldsm.x4 (two) with --operand b"};
  if (with_operand) {
    m.tile_rows = 16;
    m.tile_cols = r.operand == FragmentOperand::A || num == 4 ? 16 : 8;
    // The stored row runs along m for A.trans and along k for plain B: down a tile column.
    m.row_runs_down = (r.operand == FragmentOperand::A) == r.trans;
  } else {
    m.tile_rows = 8 * num;
    m.tile_cols = 8;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    RowAddress a;
    a.lane = lane;
    a.used = ldsm_address_used(num, lane);
    // Unused lanes repeat the lower lanes' addresses, as the PTX ISA suggests for sm_75.
    const int source = lane % (8 * num);
    a.matrix = ldsm_address_matrix(source);
    a.row = ldsm_address_row(source);
    a.start = with_operand ? operand_row_start(r.operand, num, r.trans, source)
                           : FragCoord{8 * a.matrix + a.row, 0};
    m.addresses.push_back(a);
  }
  for (int lane = 0; lane < kWarpSize; ++lane)
    for (int reg = 0; reg < num; ++reg)
      for (int j = 0; j < 2; ++j) {
        const FragCoord in_matrix = ldsm_dest(lane, j, r.trans);  // (stored row, position in it)
        const RowAddress& src = m.addresses[8 * reg + in_matrix.row];
        FragmentElement e;
        e.lane = lane;
        e.reg = reg;
        e.element = j;
        e.index = 2 * reg + j;
        e.matrix = reg;
        e.at = m.row_runs_down ? FragCoord{src.start.row + in_matrix.col, src.start.col}
                               : FragCoord{src.start.row, src.start.col + in_matrix.col};
        m.elements.push_back(e);
      }
  m.note = num == 4 ? "lanes 8m..8m+7 supply the row addresses of matrix m; register m receives it"
                    : "lanes 0.." + std::to_string(8 * num - 1) +
                          " supply row addresses; the others are ignored (on sm_75 they must "
                          "still be valid: repeat the lower lanes' addresses)";
  return m;
}

// Every (thread, i) of an mma / wgmma fragment: register i / elements_per_register, at(thread, i).
void add_register_elements(FragmentMap& m, int threads, int count, FragCoord (*at)(int, int)) {
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < count; ++i) {
      FragmentElement e;
      e.lane = t;
      e.index = i;
      e.reg = i / m.elements_per_register;
      e.element = i % m.elements_per_register;
      e.at = at(t, i);
      m.elements.push_back(e);
    }
}

Expected<FragmentMap> analyze_mma(const FragmentRequest& r) {
  if (r.operand == FragmentOperand::None)
    return Error{"mma fragments need --operand a, b or c"};
  if (r.trans) return Error{".trans is an ldmatrix qualifier; mma has no .trans"};
  const bool k32 = r.op == FragmentOp::MmaM8n8k32S4;
  if (r.op == FragmentOp::MmaM16n8k16Bf16 && r.operand == FragmentOperand::C &&
      r.accumulator == Accumulator::F16)
    return Error{"mma.m16n8k16 with .bf16 inputs accumulates in .f32 only (PTX ISA mma: "
                 ".bf16 requires .f32 C/D)"};
  if (k32 && r.accumulator == Accumulator::F16)
    return Error{"mma.m8n8k32 .s4 accumulates in .s32: --accumulator does not apply"};

  FragmentMap m;
  m.request = r;
  int count = 0;
  FragCoord (*at)(int, int) = nullptr;
  switch (r.operand) {
    case FragmentOperand::A:
      m.tile_rows = k32 ? 8 : 16;
      m.tile_cols = k32 ? 32 : 16;
      count = k32 ? kM8n8k32ElementsA : kM16n8k16ElementsA;
      m.element_bits = k32 ? 4 : 16;
      at = k32 ? mma_m8n8k32_a : mma_m16n8k16_a;
      break;
    case FragmentOperand::B:
      m.tile_rows = k32 ? 32 : 16;
      m.tile_cols = 8;
      count = k32 ? kM8n8k32ElementsB : kM16n8k16ElementsB;
      m.element_bits = k32 ? 4 : 16;
      at = k32 ? mma_m8n8k32_b : mma_m16n8k16_b;
      break;
    default:
      m.tile_rows = k32 ? 8 : 16;
      m.tile_cols = 8;
      count = k32 ? kM8n8k32ElementsC : kM16n8k16ElementsC;
      m.element_bits = !k32 && r.accumulator == Accumulator::F16 ? 16 : 32;
      at = k32 ? mma_m8n8k32_c : mma_m16n8k16_c;
      break;
  }
  m.elements_per_register = 32 / m.element_bits;
  m.registers_per_lane = count / m.elements_per_register;
  add_register_elements(m, kWarpSize, count, at);
  m.note = "groupID = lane >> 2, threadID_in_group = lane % 4 (PTX ISA mma fragment tables)";
  return m;
}

// wgmma.mma_async.m64nNk16 f16: four warps, each holding what mma.sync m16n8k16 holds for its 16
// rows (gmma_layout.h); B never leaves shared memory.
Expected<FragmentMap> analyze_wgmma(const FragmentRequest& r) {
  if (r.trans) return Error{".trans is an ldmatrix qualifier; wgmma has no .trans"};
  if (!gmma::wgmma_n_valid(r.wgmma_n))
    return Error{"wgmma m64nNk16: N " + std::to_string(r.wgmma_n) + " must be 8..256, a multiple of 8"};
  if (r.operand == FragmentOperand::None) return Error{"wgmma fragments need operand a or c (the accumulator d)"};
  if (r.operand == FragmentOperand::B)
    return Error{"wgmma reads B from shared memory through a matrix descriptor, never from registers "
                 "(see `gemmlab sim gmma-layout`); registers hold A (optionally) and D"};
  if (r.accumulator == Accumulator::F16 && r.operand == FragmentOperand::C)
    return Error{"this lab's wgmma accumulates in f32 (the Hopper stages); --accumulator f16 is not modelled"};
  FragmentMap m;
  m.request = r;
  const bool a = r.operand == FragmentOperand::A;
  m.tile_rows = 64;
  m.tile_cols = a ? 16 : r.wgmma_n;
  m.element_bits = a ? 16 : 32;
  m.elements_per_register = a ? 2 : 1;
  const int count = a ? 8 : r.wgmma_n / 2;
  m.registers_per_lane = count / m.elements_per_register;
  add_register_elements(m, 4 * kWarpSize, count, a ? gmma::a_fragment : gmma::accumulator);
  m.note = "thread t of the warpgroup is lane t % 32 of warp t / 32; warp w owns rows 16w..16w+15 and holds "
           "there what mma.sync m16n8k16 holds (d[i]: n8 block i / 4, c[i % 4])";
  return m;
}

}  // namespace

bool fragment_op_is_ldsm(FragmentOp op) {
  return op == FragmentOp::LdsmX1 || op == FragmentOp::LdsmX2 || op == FragmentOp::LdsmX4;
}

Expected<FragmentMap> analyze_fragment(const FragmentRequest& r) {
  if (r.op == FragmentOp::WgmmaM64nNk16F16) return analyze_wgmma(r);
  return fragment_op_is_ldsm(r.op) ? analyze_ldsm(r) : analyze_mma(r);
}

Expected<FragmentElement> fragment_owner(const FragmentMap& m, int row, int col) {
  if (row < 0 || row >= m.tile_rows || col < 0 || col >= m.tile_cols)
    return Error{"element (" + std::to_string(row) + "," + std::to_string(col) +
                 ") is outside the " + std::to_string(m.tile_rows) + "x" +
                 std::to_string(m.tile_cols) + " tile"};
  for (const auto& e : m.elements)
    if (e.at.row == row && e.at.col == col) return e;
  return Error{"no lane holds element (" + std::to_string(row) + "," + std::to_string(col) + ")"};
}

Expected<FragmentRequest> parse_fragment_op(const std::string& name) {
  FragmentRequest r;
  std::string base = name;
  const std::string trans = ".trans";
  if (base.size() > trans.size() && base.compare(base.size() - trans.size(), trans.size(), trans) == 0) {
    r.trans = true;
    base.resize(base.size() - trans.size());
  }
  if (base == "ldsm.x1") r.op = FragmentOp::LdsmX1;
  else if (base == "ldsm.x2") r.op = FragmentOp::LdsmX2;
  else if (base == "ldsm.x4") r.op = FragmentOp::LdsmX4;
  else if (base == "mma.m16n8k16.f16") r.op = FragmentOp::MmaM16n8k16F16;
  else if (base == "mma.m16n8k16.bf16") r.op = FragmentOp::MmaM16n8k16Bf16;
  else if (base == "mma.m8n8k32.s4") r.op = FragmentOp::MmaM8n8k32S4;
  else if (base.rfind("wgmma.", 0) == 0 && base.size() > 10 && base.compare(base.size() - 4, 4, ".f16") == 0) {
    auto n = parse_wgmma_shape(base.substr(6, base.size() - 10));
    if (!n) return Error{"'" + name + "': " + n.error()};
    r.op = FragmentOp::WgmmaM64nNk16F16;
    r.wgmma_n = *n;
  } else
    return Error{"unknown op '" + name + "': use ldsm.x1, ldsm.x2, ldsm.x4 (each optionally "
                 ".trans), mma.m16n8k16.f16, mma.m16n8k16.bf16, mma.m8n8k32.s4 or "
                 "wgmma.m64nNk16.f16 (N = 8..256)"};
  if (r.trans && !fragment_op_is_ldsm(r.op))
    return Error{"'" + name + "': .trans is an ldmatrix qualifier; mma has no .trans"};
  return r;
}

Expected<FragmentOperand> parse_fragment_operand(const std::string& name) {
  if (name == "a") return FragmentOperand::A;
  if (name == "b") return FragmentOperand::B;
  if (name == "c") return FragmentOperand::C;  // wgmma's PTX calls it d; `sim wgmma` says d
  return Error{"unknown operand '" + name + "': use a, b or c"};
}

std::string fragment_op_name(const FragmentRequest& r) {
  std::string s;
  switch (r.op) {
    case FragmentOp::LdsmX1: s = "ldsm.x1"; break;
    case FragmentOp::LdsmX2: s = "ldsm.x2"; break;
    case FragmentOp::LdsmX4: s = "ldsm.x4"; break;
    case FragmentOp::MmaM16n8k16F16: s = "mma.m16n8k16.f16"; break;
    case FragmentOp::MmaM16n8k16Bf16: s = "mma.m16n8k16.bf16"; break;
    case FragmentOp::MmaM8n8k32S4: s = "mma.m8n8k32.s4"; break;
    case FragmentOp::WgmmaM64nNk16F16: s = "wgmma.m64n" + std::to_string(r.wgmma_n) + "k16.f16"; break;
  }
  return r.trans ? s + ".trans" : s;
}

const char* fragment_operand_name(FragmentOperand o) {
  switch (o) {
    case FragmentOperand::A: return "a";
    case FragmentOperand::B: return "b";
    case FragmentOperand::C: return "c";
    case FragmentOperand::None: return "none";
  }
  return "?";
}

std::vector<int> fragment_element_grid(const FragmentMap& m) {
  std::vector<int> owner(static_cast<size_t>(m.tile_rows) * static_cast<size_t>(m.tile_cols), -1);
  for (size_t i = 0; i < m.elements.size(); ++i) {
    const FragCoord at = m.elements[i].at;
    if (at.row >= 0 && at.row < m.tile_rows && at.col >= 0 && at.col < m.tile_cols)
      owner[static_cast<size_t>(at.row) * m.tile_cols + at.col] = static_cast<int>(i);
  }
  return owner;
}

}  // namespace gemmlab
