// Shared-memory bank model for one warp instruction (sm_80 / sm_90): which lanes the hardware
// serves together (phases), which 4-byte words each phase asks of each bank, and the wavefronts
// and bank conflicts Nsight Compute counts for it. The rules, and the measurements this must
// reproduce, are in sim/tests/data/hardware_rules.md (plus the probes in bank_probe_h200.txt);
// banks.cpp explains the one rule that is not plain bank arithmetic (loads with paired lanes).
//
// This is plain host C++ (the GUI and CLI call it); no kernel needs it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "gemmlab/expected.h"

namespace gemmlab {

inline constexpr int kWarpLanes = 32;
inline constexpr int kSmemBanks = 32;
inline constexpr int kBankWordBytes = 4;
// sm_90: 228 KB of shared memory per SM, the most any address of one block can reach.
inline constexpr long long kSmemBytesMax = 232448;

enum class SmemOpKind {
  Load,      // LDS.32 / .64 / .128
  Store,     // STS.32 / .64 / .128
  Ldmatrix,  // LDSM .x1 / .x2 / .x4 [.trans]: 8x8 b16 matrices, one 16-byte row per address
  CpAsync,   // LDGSTS (cp.async) of 4 / 8 / 16 bytes: its shared-memory side, modelled as STS
};

struct SmemOp {
  SmemOpKind kind = SmemOpKind::Load;
  int bytes = 4;      // bytes per address: the lane's access, or one ldmatrix row (16)
  int matrices = 0;   // ldmatrix only: 1, 2 or 4
  bool trans = false; // ldmatrix only: .trans addresses exactly like the plain form
};

// "lds.32" ... "sts.128", "ldsm.x1" ... "ldsm.x4.trans", "ldgsts.4|8|16".
Expected<SmemOp> parse_smem_op(std::string_view name);
std::string smem_op_name(const SmemOp& op);
bool smem_op_valid(const SmemOp& op);  // one of the ops parse_smem_op returns
// The lanes whose addresses the instruction reads: 8 for ldsm.x1, 16 for ldsm.x2, else 32
// (PTX ISA, ldmatrix: threads 0-7 / 0-15 / 0-31 supply the row addresses of .x1 / .x2 / .x4).
int smem_op_address_lanes(const SmemOp& op);
bool smem_op_is_load(const SmemOp& op);  // LDS and ldmatrix: equal words broadcast

struct WarpRequest {
  SmemOp op;
  std::array<long long, kWarpLanes> addresses{};  // byte addresses in shared memory
  // How many entries of `addresses` the caller gave: 32, or for ldsm.x1 / .x2 also 8 / 16.
  // Entries at or past smem_op_address_lanes(op) are ignored (the hardware ignores them too).
  int address_count = kWarpLanes;
  std::uint32_t mask = 0xffffffffu;  // active lanes; ldmatrix needs all 32 (.sync.aligned)
};

struct LaneAccess {
  bool active = false;   // in the mask and its address is one the instruction uses
  long long address = 0;
  int phase = -1;        // index into BankAnalysis::phases, -1 when not active
  int bank() const { return static_cast<int>((address / kBankWordBytes) % kSmemBanks); }
  long long word() const { return address / kBankWordBytes; }  // first 4-byte word
};

// One distinct 4-byte word a phase reads or writes, and how many lanes want it (> 1: broadcast
// on a load; on a store one lane wins and which one is undefined).
struct BankWord {
  std::int32_t word = 0;   // byte address / 4
  std::int16_t bank = 0;   // word % 32
  std::int16_t lanes = 0;
};

struct BankPhase {
  std::uint32_t lanes = 0;  // bit i set: lane i is served in this phase (active lanes only)
  // Entries of `words` in use: by bank, then in the order lanes first ask. At most 32: a phase
  // has 32 lanes x 1 word, 16 x 2, 8 x 4, or, paired, 16 distinct addresses x 2 (LDS.64) or
  // 8 x 4 (LDS.128).
  int word_count = 0;
  std::array<BankWord, 32> words{};
  std::array<int, kSmemBanks> words_in_bank{};  // distinct words asked of each bank
  int wavefronts = 0;       // max of words_in_bank; 0 if no lane of the phase is active
  int conflicts() const { return wavefronts > 0 ? wavefronts - 1 : 0; }
};

struct BankAnalysis {
  SmemOp op;
  std::array<LaneAccess, kWarpLanes> lanes{};
  std::array<BankPhase, 4> phases{};
  int phase_count = 0;
  int wavefronts = 0;  // summed over phases: ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*
  int conflicts = 0;   // sum of (wavefronts - 1): ncu's l1tex__data_bank_conflicts_pipe_lsu_*
  int words_per_lane = 1;     // 4-byte words each address covers (1, 2 or 4)
  const char* phase_rule = "";  // how the lanes were split, in words, e.g. "four quarter-warps"
  // A load whose lanes pair up (T and T^1, or T and T^2): LDS.64 then has one phase of 32 lanes,
  // LDS.128 two half-warp phases.
  bool paired_lanes = false;
  const char* note = nullptr;   // what ncu cannot confirm (cp.async), or nullptr
};

// Fails with a message naming the lane and what to change: a misaligned address (a multiple of
// the access width; ldmatrix rows 16 bytes), an address outside 0 .. 228 KB, a wrong address
// count, or a partial mask on ldmatrix.
Expected<BankAnalysis> analyze_banks(const WarpRequest& request);

}  // namespace gemmlab
