#include "model/predict_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/ui_text.h"

namespace gemmlab::app {

const std::vector<PredictFact>& predict_facts() {
  static const std::vector<PredictFact> f = {
      {"grid.tiles", "the C tile grid (tiles, their block numbers, the partial tiles)"},
      {"grid.blocks", "the block count and the grid's dimensions"},
      {"grid.occupancy", "blocks per SM, what limits them, the SM slots"},
      {"grid.waves", "the waves, the last wave's fill, the colouring by wave"},
      {"grid.timeline", "the SM slots over time, the time and the slot efficiency"},
      {"grid.l2", "the L2 hit rate, the DRAM traffic and each tile's DRAM sectors"},
      {"threadmap.iterations", "Iterations (c, s)"},
      {"threadmap.delta", "Delta (c, s)"},
      {"threadmap.picture", "which thread copies which element, and the access stepper"},
      {"fragments.owners", "which lane holds which element (labels, colours, the highlighted lane, addresses)"},
      {"banks.counts", "wavefronts, conflicts, words per bank, the phases and their outlines"},
      {"banks.lanes", "which lane's word lands in which bank"},
      {"pipeline.timeline", "the timeline, the shared-memory stages and the event list"},
      {"conv.gemm_shape", "the implicit GEMM's M and K"},
      {"conv.blocks", "the launch's block count"},
      {"conv.window", "where the selected row's filter window falls, and the im2col slice"},
      {"gmma.element_place", "the asked element's 16-byte chunk and its 128-byte line"},
      {"gmma.stride", "the descriptor's stride byte offset"},
  };
  return f;
}

const std::vector<PredictRule>& predict_rules() {
  static const std::vector<PredictRule> r = {
      {"banks.wavefronts", "the instruction's lane addresses and the layout's bank of each address",
       {"banks.counts"}, {"banks.lanes"}},
      {"banks.conflicts", "the instruction's lane addresses and the layout's bank of each address",
       {"banks.counts"}, {"banks.lanes"}},
      {"threadmap.iterations_c", "the tile, the thread count and the access width",
       {"threadmap.iterations"}, {"threadmap.delta", "threadmap.picture"}},
      {"threadmap.iterations_s", "the tile, the thread count and the access width",
       {"threadmap.iterations"}, {"threadmap.delta", "threadmap.picture"}},
      {"threadmap.delta_c", "the tile, the thread count and the access width",
       {"threadmap.delta"}, {"threadmap.iterations", "threadmap.picture"}},
      {"threadmap.delta_s", "the tile, the thread count and the access width",
       {"threadmap.delta"}, {"threadmap.iterations", "threadmap.picture"}},
      {"fragments.lane_of_element", "the instruction's fragment rule (PTX ISA) and the element",
       {"fragments.owners"}, {}},
      {"grid.blocks", "the problem size, the tile and split-k",
       {"grid.blocks", "grid.waves", "grid.timeline"}, {"grid.tiles"}},
      {"grid.waves", "the block count and the SM slots", {"grid.waves", "grid.timeline"}, {}},
      {"grid.last_wave_blocks", "the block count and the SM slots",
       {"grid.waves", "grid.timeline"}, {}},
      {"grid.blocks_per_sm", "the block's threads, registers and shared memory, and the SM's limits",
       {"grid.occupancy", "grid.waves", "grid.timeline"}, {}},
      {"grid.l2_hit_rate", "the launch order, the tiles' footprint and the L2 size", {"grid.l2"}, {}},
      {"pipeline.stages_in_flight", "the pipeline's loop (the code of the step)",
       {"pipeline.timeline"}, {}},
      {"conv.gemm_m", "N, P and Q (the output size from H, W, R, S, padding and stride)",
       {"conv.gemm_shape", "conv.blocks"}, {}},
      {"conv.gemm_k", "R, S and C", {"conv.gemm_shape"}, {}},
      {"conv.blocks", "the GEMM's M and N and the tile", {"conv.blocks"}, {}},
      {"conv.padded_taps", "the row's output pixel, the filter size, padding and stride", {"conv.window"}, {}},
      {"gmma.offset", "the element, the core-matrix layout and the swizzle",
       {"gmma.element_place"}, {}},
      {"gmma.stride_bytes", "the layout of the core matrices in shared memory",
       {"gmma.stride"}, {}},
  };
  return r;
}

const PredictRule* predict_rule(const std::string& quantity) {
  for (const auto& r : predict_rules())
    if (r.quantity == quantity) return &r;
  return nullptr;
}

const PredictFact* predict_fact(const std::string& id) {
  for (const auto& f : predict_facts())
    if (f.id == id) return &f;
  return nullptr;
}

std::vector<std::string> hidden_facts(const PredictSpec& spec) {
  const PredictRule* r = predict_rule(spec.quantity);
  if (!r) return {};
  std::vector<std::string> out = r->answer_facts;
  for (const auto& f : r->clue_facts)
    if (std::find(spec.shows.begin(), spec.shows.end(), f) == spec.shows.end()) out.push_back(f);
  return out;
}

std::optional<std::string> check_shown_fact(const std::string& quantity, const std::string& fact) {
  const PredictRule* r = predict_rule(quantity);
  if (!r) return "no predict quantity " + quantity;
  auto has = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  if (!predict_fact(fact)) {
    std::string all;
    for (const auto& f : predict_facts()) all += (all.empty() ? "" : ", ") + f.id;
    return "predict.shows: no fact " + fact + "; the facts are " + all;
  }
  if (has(r->clue_facts, fact)) return std::nullopt;
  if (has(r->answer_facts, fact))
    return "predict.shows names " + fact + ", from which " + quantity +
           " can be read: the answer would be on screen before Reveal";
  std::string clues;
  for (const auto& c : r->clue_facts) clues += (clues.empty() ? "" : ", ") + c;
  return "predict.shows: " + fact + " is not something a " + quantity + " step hides" +
         (clues.empty() ? std::string(" (it hides no clues, only its answer)") : "; it may show " + clues);
}

std::string guess_distance(double guess, double answer, double tolerance) {
  const double d = guess - answer;
  if (std::abs(d) <= tolerance + 1e-9) return tr("right");
  char amount[32];
  std::snprintf(amount, sizeof amount, "%.6g", std::abs(d));
  return trf(d < 0 ? "%s too low" : "%s too high", amount);
}

}  // namespace gemmlab::app
