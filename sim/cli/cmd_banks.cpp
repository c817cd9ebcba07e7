// gemmlab sim banks: one warp instruction's phases, wavefronts and bank conflicts.
//   --op lds.128 --addresses a0,...,a31 [--mask 0xHEX]      32 byte addresses, one per lane
//   --op ldsm.x1 --addresses a0,...,a7                       .x1 reads lanes 0-7 (8, 16 or 32
//                                                            given), .x2 lanes 0-15 (16 or 32)
//   --op ldsm.x4 --layout swizzle --swizzle 3,3,3 --tile 16,64 --element-bits 16
//       [--pattern ldmatrix|rows|linear] [--origin R,C] [--pad-bytes P] [--crosswise X] [--cells 1]
//                                                            addresses from a tile (bank_scenario.h)
#include "commands.h"
#include "gemmlab/bank_scenario.h"
#include "gemmlab/banks.h"

namespace gemmlab::cli {

namespace {

Json phase_json(const BankAnalysis& r, const BankPhase& p) {
  Json lanes = Json::array(), banks = Json::array(), words = Json::array(),
       addresses = Json::array();
  for (int t = 0; t < kWarpLanes; ++t) {
    if (!(p.lanes >> t & 1u)) continue;
    lanes.push_back(t);
    addresses.push_back(r.lanes[t].address);
    banks.push_back(r.lanes[t].bank());
    words.push_back(r.lanes[t].word());
  }
  Json per_bank = Json::array();
  for (int b = 0; b < kSmemBanks; ++b) per_bank.push_back(Json::array());
  Json shared = Json::array();
  for (int i = 0; i < p.word_count; ++i) {
    per_bank[p.words[i].bank].push_back(p.words[i].word);
    if (p.words[i].lanes > 1) shared.push_back({p.words[i].word, p.words[i].lanes});
  }
  Json j;
  j["lanes"] = std::move(lanes);
  j["addresses"] = std::move(addresses);
  j["banks"] = std::move(banks);  // bank of each lane's first word
  j["words"] = std::move(words);  // each lane's first word (address / 4)
  j["words_per_bank"] = std::move(per_bank);
  j["shared_words"] = std::move(shared);  // [word, lanes] asked for by more than one lane
  j["wavefronts"] = p.wavefronts;
  j["conflicts"] = p.conflicts();
  return j;
}

Json analysis_json(const BankAnalysis& r) {
  Json out;
  out["op"] = smem_op_name(r.op);
  out["wavefronts"] = r.wavefronts;
  out["conflicts"] = r.conflicts;
  out["phase_rule"] = r.phase_rule;
  out["paired_lanes"] = r.paired_lanes;
  out["words_per_lane"] = r.words_per_lane;  // a lane's access covers this many words from "words"
  out["address_lanes"] = smem_op_address_lanes(r.op);  // lanes whose address is used
  out["store"] = !smem_op_is_load(r.op);  // equal words: broadcast on loads, one lane wins on stores
  Json phases = Json::array();
  for (int i = 0; i < r.phase_count; ++i) phases.push_back(phase_json(r, r.phases[i]));
  out["phases"] = std::move(phases);
  if (r.note) out["note"] = r.note;
  return out;
}

SmemOp op_from(const Args& a) {
  auto op = parse_smem_op(a.str("--op"));
  if (!op) throw CliError(op.error());
  return *op;
}

Json from_addresses(const Args& a) {
  a.reject_unknown({"--op", "--addresses", "--mask", "--json"});
  WarpRequest req;
  req.op = op_from(a);
  const auto list = a.int_list("--addresses");
  if (list.size() > static_cast<size_t>(kWarpLanes))
    throw CliError("--addresses takes at most 32 addresses (one per lane), got " +
                   std::to_string(list.size()));
  for (size_t i = 0; i < list.size(); ++i) req.addresses[i] = list[i];
  req.address_count = static_cast<int>(list.size());
  const std::uint64_t mask = a.hex_or_int("--mask", 0xffffffffu);
  if (mask > 0xffffffffu)
    throw CliError("--mask has 32 bits, one per lane; " + a.str("--mask") + " is wider");
  req.mask = static_cast<std::uint32_t>(mask);
  auto r = analyze_banks(req);
  if (!r) throw CliError(r.error());
  return analysis_json(*r);
}

int small_int(long long v, const std::string& what) {
  if (v < -(1LL << 30) || v > (1LL << 30)) throw CliError(what + ": " + std::to_string(v) + " is out of range");
  return static_cast<int>(v);
}

Json from_scenario(const Args& a) {
  a.reject_unknown({"--op", "--layout", "--tile", "--element-bits", "--pad-bytes", "--swizzle",
                    "--crosswise", "--pattern", "--origin", "--cells", "--json"});
  BankScenarioParams p;
  p.op = op_from(a);
  auto layout = parse_smem_layout(a.str("--layout"));
  if (!layout) throw CliError(layout.error());
  p.layout = *layout;
  const auto tile = a.int_tuple("--tile", 2);
  p.rows = small_int(tile[0], "--tile");
  p.cols = small_int(tile[1], "--tile");
  p.element_bits = small_int(a.integer("--element-bits", 16), "--element-bits");
  if (p.layout == SmemLayoutKind::Padded) p.pad_bytes = small_int(a.integer("--pad-bytes"), "--pad-bytes");
  else if (a.has("--pad-bytes")) throw CliError("--pad-bytes applies to --layout padded only");
  if (p.layout == SmemLayoutKind::Swizzle) {
    const auto s = a.int_tuple("--swizzle", 3);
    p.swizzle = {small_int(s[0], "--swizzle"), small_int(s[1], "--swizzle"),
                 small_int(s[2], "--swizzle")};
  } else if (a.has("--swizzle")) {
    throw CliError("--swizzle applies to --layout swizzle only");
  }
  if (p.layout == SmemLayoutKind::TensorOp) p.crosswise = small_int(a.integer("--crosswise", 0), "--crosswise");
  else if (a.has("--crosswise")) throw CliError("--crosswise applies to --layout tensorop only");
  const std::string default_pattern = p.op.kind == SmemOpKind::Ldmatrix ? "ldmatrix" : "rows";
  auto pattern = parse_bank_pattern(a.str("--pattern", default_pattern));
  if (!pattern) throw CliError(pattern.error());
  p.pattern = *pattern;
  const auto origin = a.has("--origin") ? a.int_tuple("--origin", 2) : std::vector<long long>{0, 0};
  p.origin_row = small_int(origin[0], "--origin");
  p.origin_col = small_int(origin[1], "--origin");

  auto s = build_bank_scenario(p);
  if (!s) throw CliError(s.error());
  Json out = analysis_json(s->analysis);
  out["layout"] = smem_layout_name(p.layout);
  out["pattern"] = bank_pattern_name(p.pattern);
  out["tile_bytes"] = s->tile_bytes;
  if (p.layout == SmemLayoutKind::TensorOp) out["crosswise"] = s->crosswise;
  Json addresses = Json::array();
  for (int t = 0; t < smem_op_address_lanes(p.op); ++t) addresses.push_back(s->request.addresses[t]);
  out["addresses"] = std::move(addresses);
  // --cells 1 adds every element's byte address, bank and lane (-1: not touched), row by row.
  if (a.integer("--cells", 0)) {
    Json cells = Json::array();
    for (const auto& c : s->cells) cells.push_back({c.byte, c.bank, c.lane});
    out["cells_columns"] = {"byte", "bank", "lane"};
    out["cells"] = std::move(cells);
  }
  return out;
}

}  // namespace

Json cmd_banks(const Args& a) {
  if (a.has("--addresses") && a.has("--layout"))
    throw CliError("give either --addresses or --layout (a tile to take addresses from), not both");
  if (a.has("--layout")) return from_scenario(a);
  if (!a.has("--addresses"))
    throw CliError("missing --addresses a0,...,a31 (or --layout with --tile to take them from a tile)");
  return from_addresses(a);
}

}  // namespace gemmlab::cli
