// The bank model. Plain arithmetic first (hardware_rules.md, "Shared-memory banks"):
//   bank = (byte address / 4) mod 32; a wavefront serves one distinct 4-byte word per bank;
//   lanes sharing a word cost nothing extra; lanes are split into fixed phases that the
//   hardware never regroups; a phase costs max over banks of its distinct words; ncu's
//   conflicts = sum over phases of (wavefronts - 1).
//
// Then the one rule that is not bank arithmetic: paired lanes on LDS.64 and LDS.128.
//   hardware_rules.md: LDS.128 where lane T shares its address with T^1 costs 2/0, and LDS.128
//   with all lanes on one address costs 2/0; quarter-warp arithmetic says 4/0 for both.
//   Explanation: shared memory returns 128 bytes of registers per cycle, so an LDS.128 normally
//   needs one cycle per quarter warp (8 lanes x 16 B). When lanes T and T^1 (or T and T^2) ask
//   for the same address, the hardware packs the returns and serves twice the lanes per phase.
//   NVIDIA states this for Volta/Turing ("Unexpected shared memory bank conflict", NVIDIA
//   developer forum, 2019: T==T^1 or T==T^2 "for all active threads" takes LDS.128 from 4
//   requests to 2).
//   Model: a load whose lanes pair up, with pairs at distance 1 or at distance 2 throughout the
//   warp, gets phases twice as wide: LDS.128 two half warps (lanes 0-15, 16-31), LDS.64 one phase
//   of 32 lanes; bank arithmetic as usual inside each phase. Lanes pair up when every pair
//   (T, T^d) whose lanes are both active asks for the same address; an inactive partner does not
//   break it. Stores, LDS.32 and ldmatrix never pack.
//   Evidence beyond the two rows: sim/bench/bank_probe.cu measured 33 cases on an H200 with ncu
//   2025.3.1 (sim/tests/data/bank_probe_h200.txt, every one checked by test_banks.cpp), e.g.
//   LDS.128 T^2 pairs 2/0; T^4, T^8 or T^16 pairs 4/0; T^1 pairs only in lanes 0-15 4/0 (the
//   choice is per warp); T^1 pairs 128 B apart 16/14 (two half-warp phases of 8 each); only lanes
//   0 and 8 active, same bank 2/1 (one merged phase); LDS.64 T^1 or T^2 pairs 1/0, T^4 2/0,
//   T^1 pairs 128 B apart 16/15; STS.128 and STS.64 with T^1 pairs 4/0 and 2/0 (no packing);
//   ldmatrix .x4 with one address or T^1 pairs 4/0.
#include "gemmlab/banks.h"

#include <algorithm>
#include <bit>

namespace gemmlab {

namespace {

struct OpName {
  const char* name;
  SmemOp op;
};

constexpr OpName kOps[] = {
    {"lds.32", {SmemOpKind::Load, 4, 0, false}},
    {"lds.64", {SmemOpKind::Load, 8, 0, false}},
    {"lds.128", {SmemOpKind::Load, 16, 0, false}},
    {"sts.32", {SmemOpKind::Store, 4, 0, false}},
    {"sts.64", {SmemOpKind::Store, 8, 0, false}},
    {"sts.128", {SmemOpKind::Store, 16, 0, false}},
    {"ldsm.x1", {SmemOpKind::Ldmatrix, 16, 1, false}},
    {"ldsm.x2", {SmemOpKind::Ldmatrix, 16, 2, false}},
    {"ldsm.x4", {SmemOpKind::Ldmatrix, 16, 4, false}},
    {"ldsm.x1.trans", {SmemOpKind::Ldmatrix, 16, 1, true}},
    {"ldsm.x2.trans", {SmemOpKind::Ldmatrix, 16, 2, true}},
    {"ldsm.x4.trans", {SmemOpKind::Ldmatrix, 16, 4, true}},
    {"ldgsts.4", {SmemOpKind::CpAsync, 4, 0, false}},
    {"ldgsts.8", {SmemOpKind::CpAsync, 8, 0, false}},
    {"ldgsts.16", {SmemOpKind::CpAsync, 16, 0, false}},
};

bool same_op(const SmemOp& a, const SmemOp& b) {
  return a.kind == b.kind && a.bytes == b.bytes && a.matrices == b.matrices && a.trans == b.trans;
}

// Every pair of active lanes (T, T^distance) asks for the same address; a pair with an inactive
// lane does not count against it (measured: see the top of this file).
bool lanes_pair_up(const WarpRequest& r, int distance) {
  if (r.mask == 0) return false;
  for (int t = 0; t < kWarpLanes; ++t) {
    const int partner = t ^ distance;
    if ((r.mask >> t & 1u) && (r.mask >> partner & 1u) && r.addresses[t] != r.addresses[partner])
      return false;
  }
  return true;
}

std::string lane_text(int lane) { return "lane " + std::to_string(lane); }

Expected<int> check_request(const WarpRequest& r) {
  const SmemOp& op = r.op;
  const int used = smem_op_address_lanes(op);
  if (op.kind == SmemOpKind::Ldmatrix) {
    const bool count_ok = r.address_count == kWarpLanes || r.address_count == used ||
                          (op.matrices == 1 && r.address_count == 16);
    if (!count_ok)
      return Error{smem_op_name(op) + " takes " +
                   std::string(op.matrices == 1   ? "8, 16 or 32"
                               : op.matrices == 2 ? "16 or 32"
                                                  : "32") +
                   " addresses (lanes 0-" + std::to_string(used - 1) + " give the row addresses), got " +
                   std::to_string(r.address_count)};
    if (r.mask != 0xffffffffu)
      return Error{"ldmatrix is .sync.aligned: all 32 lanes must execute it, so the mask must be "
                   "0xffffffff (lanes past " + std::to_string(used - 1) +
                   " take part but their addresses are ignored)"};
  } else if (r.address_count != kWarpLanes) {
    return Error{smem_op_name(op) + " takes 32 addresses, one per lane, got " +
                 std::to_string(r.address_count) + " (use the mask to switch lanes off)"};
  }
  for (int t = 0; t < used && t < r.address_count; ++t) {
    if (!(r.mask >> t & 1u)) continue;
    const long long a = r.addresses[t];
    if (a < 0)
      return Error{lane_text(t) + ": address " + std::to_string(a) +
                   " is negative; shared-memory addresses start at 0"};
    if ((a & (op.bytes - 1)) != 0)  // widths are powers of two; avoids a 64-bit divide per lane
      return Error{lane_text(t) + ": address " + std::to_string(a) + " is not a multiple of " +
                   std::to_string(op.bytes) + " bytes, which " + smem_op_name(op) +
                   (op.kind == SmemOpKind::Ldmatrix ? " needs for every 16-byte row address"
                                                    : " needs (the access width)")};
    if (a > kSmemBytesMax - op.bytes)  // not a + bytes: a may be near LLONG_MAX
      return Error{lane_text(t) + ": address " + std::to_string(a) + " + " +
                   std::to_string(op.bytes) + " bytes is past the end of shared memory (" +
                   std::to_string(kSmemBytesMax) + " bytes = 228 KB, the sm_90 maximum per SM)"};
  }
  return used;
}

// Without -mpopcnt, std::popcount is a library call; this inline form keeps the model < 1 us.
int bit_count(std::uint32_t v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return static_cast<int>((((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

// Fills a phase's distinct words. Words of one bank differ by multiples of 32, i.e. they lie in
// different 128-byte lines; an aligned access of 4, 8 or 16 bytes never crosses a line. So each
// lane touches one line, a phase at most 32 lines, and a bank's distinct words are a 32-bit set
// of line slots: wavefronts = the largest popcount over banks.
void count_phase(BankPhase& phase, const WarpRequest& r, int words_per_lane) {
  constexpr int kLineBytes = kSmemBanks * kBankWordBytes;
  std::int32_t line_of_slot[kWarpLanes];
  std::uint8_t lanes_of_word[kWarpLanes][kSmemBanks];  // [slot][bank], rows zeroed as used
  std::uint32_t slots_in_bank[kSmemBanks] = {};
  int slots = 0, last = -1;
  for (int t = 0; t < kWarpLanes; ++t) {
    if (!(phase.lanes >> t & 1u)) continue;
    const auto line = static_cast<std::int32_t>(r.addresses[t] / kLineBytes);
    int slot = last >= 0 && line_of_slot[last] == line ? last : -1;
    for (int i = 0; slot < 0 && i < slots; ++i)
      if (line_of_slot[i] == line) slot = i;
    if (slot < 0) {
      slot = slots++;
      line_of_slot[slot] = line;
      std::fill_n(lanes_of_word[slot], kSmemBanks, std::uint8_t{0});
    }
    last = slot;
    const int bank = static_cast<int>(r.addresses[t] / kBankWordBytes % kSmemBanks);
    for (int k = 0; k < words_per_lane; ++k) {
      slots_in_bank[bank + k] |= 1u << slot;
      ++lanes_of_word[slot][bank + k];
    }
  }
  phase.word_count = 0;
  phase.wavefronts = 0;
  for (int b = 0; b < kSmemBanks; ++b) {
    const int n = bit_count(slots_in_bank[b]);
    phase.words_in_bank[b] = n;
    phase.wavefronts = std::max(phase.wavefronts, n);
    for (std::uint32_t set = slots_in_bank[b]; set && phase.word_count < 32; set &= set - 1) {
      const int slot = std::countr_zero(set);
      phase.words[phase.word_count++] = {line_of_slot[slot] * kSmemBanks + b,
                                         static_cast<std::int16_t>(b),
                                         static_cast<std::int16_t>(lanes_of_word[slot][b])};
    }
  }
}

std::uint32_t lane_range(int first, int count) {
  const std::uint64_t bits = ((std::uint64_t{1} << count) - 1) << first;
  return static_cast<std::uint32_t>(bits);
}

}  // namespace

Expected<SmemOp> parse_smem_op(std::string_view name) {
  for (const auto& o : kOps)
    if (name == o.name) return o.op;
  return Error{"unknown op '" + std::string(name) +
               "'; use lds.32|lds.64|lds.128, sts.32|sts.64|sts.128, ldsm.x1|ldsm.x2|ldsm.x4 "
               "(optionally .trans), or ldgsts.4|ldgsts.8|ldgsts.16"};
}

std::string smem_op_name(const SmemOp& op) {
  for (const auto& o : kOps)
    if (same_op(op, o.op)) return o.name;
  return "invalid op";
}

bool smem_op_valid(const SmemOp& op) {
  for (const auto& o : kOps)
    if (same_op(op, o.op)) return true;
  return false;
}

int smem_op_address_lanes(const SmemOp& op) {
  return op.kind == SmemOpKind::Ldmatrix ? 8 * op.matrices : kWarpLanes;
}

bool smem_op_is_load(const SmemOp& op) {
  return op.kind == SmemOpKind::Load || op.kind == SmemOpKind::Ldmatrix;
}

Expected<BankAnalysis> analyze_banks(const WarpRequest& request) {
  if (!smem_op_valid(request.op)) return Error{"invalid op: use parse_smem_op to build one"};
  auto used = check_request(request);
  if (!used) return Error{used.error()};

  BankAnalysis out;
  out.op = request.op;
  const SmemOp& op = request.op;
  // Lanes past the used ones (ldmatrix .x1/.x2) have no address; treat them as switched off
  // for the bank arithmetic, whatever the mask says.
  WarpRequest r = request;
  r.mask &= lane_range(0, *used);

  // Phases: (first lane, lane count) each.
  int phase_lanes = kWarpLanes;
  if (op.kind == SmemOpKind::Ldmatrix) {
    phase_lanes = 8;
    out.phase_count = op.matrices;
    out.phase_rule = "one phase per 8x8 matrix: matrix i's row addresses come from lanes 8i..8i+7";
  } else if (op.bytes == 4) {
    out.phase_count = 1;
    out.phase_rule = "one phase of 32 lanes";
  } else if (op.bytes == 8) {
    if (op.kind == SmemOpKind::Load && (lanes_pair_up(r, 1) || lanes_pair_up(r, 2))) {
      out.phase_count = 1;
      out.paired_lanes = true;
      out.phase_rule =
          "one phase of 32 lanes: lanes pair up on equal addresses (T and T^1, or T and T^2), "
          "so LDS.64 packs both half warps into one phase";
    } else {
      phase_lanes = 16;
      out.phase_count = 2;
      out.phase_rule = "two half-warp phases: lanes 0-15, 16-31";
    }
  } else {
    if (op.kind == SmemOpKind::Load && (lanes_pair_up(r, 1) || lanes_pair_up(r, 2))) {
      phase_lanes = 16;
      out.phase_count = 2;
      out.paired_lanes = true;
      out.phase_rule =
          "two half-warp phases: lanes pair up on equal addresses (T and T^1, or T and T^2), "
          "so LDS.128 packs two quarter warps into one phase";
    } else {
      phase_lanes = 8;
      out.phase_count = 4;
      out.phase_rule = "four quarter-warp phases: lanes 0-7, 8-15, 16-23, 24-31";
    }
  }
  out.words_per_lane = op.bytes / kBankWordBytes;

  for (int p = 0; p < out.phase_count; ++p) {
    BankPhase& phase = out.phases[p];
    phase.lanes = r.mask & lane_range(p * phase_lanes, phase_lanes);
    count_phase(phase, r, out.words_per_lane);
    out.wavefronts += phase.wavefronts;
    out.conflicts += phase.conflicts();
    for (int t = p * phase_lanes; t < (p + 1) * phase_lanes; ++t) {
      LaneAccess& lane = out.lanes[t];
      lane.address = t < request.address_count ? request.addresses[t] : 0;
      lane.active = phase.lanes >> t & 1u;
      lane.phase = lane.active ? p : -1;
    }
  }
  for (int t = out.phase_count * phase_lanes; t < kWarpLanes; ++t)
    out.lanes[t].address = t < request.address_count ? request.addresses[t] : 0;

  if (op.kind == SmemOpKind::CpAsync) {
    out.note = op.bytes == 16
                   ? "modelled as STS.128; ncu cannot verify: cp.async.cg of 16 bytes shows 0 "
                     "shared wavefronts and 0 conflicts whatever the layout"
               : op.bytes == 8
                   ? "modelled as STS.64; ncu cannot verify: cp.async.ca of 8 bytes reports "
                     "conflicts even on conflict-free layouts"
                   : "modelled as STS.32; ncu cannot verify: cp.async.ca of 4 bytes reports "
                     "conflicts even on conflict-free layouts";
  }
  return out;
}

}  // namespace gemmlab
