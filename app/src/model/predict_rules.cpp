#include "model/predict_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gemmlab::app {

const std::vector<PredictFact>& predict_facts() {
  static const std::vector<PredictFact> f = {
      {"grid.tiles", "the C tile grid (tiles, their block numbers, the partial tiles)",
       "C 的 tile 网格（tile、其中的 block 编号、不完整的 tile）"},
      {"grid.blocks", "the block count and the grid's dimensions", "block 数与 grid 的维度"},
      {"grid.occupancy", "blocks per SM, what limits them, the SM slots", "每个 SM 的 block 数、限制因素、SM 槽位"},
      {"grid.waves", "the waves, the last wave's fill, the colouring by wave", "wave 数、最后一个 wave 的占满程度、按 wave 着色"},
      {"grid.timeline", "the SM slots over time, the time and the slot efficiency",
       "SM 槽位随时间的占用、时间与槽位效率"},
      {"grid.l2", "the L2 hit rate, the DRAM traffic and each tile's DRAM sectors",
       "L2 命中率、DRAM 流量与每个 tile 的 DRAM 扇区"},
      {"threadmap.iterations", "Iterations (c, s)", "Iterations (c, s)"},
      {"threadmap.delta", "Delta (c, s)", "Delta (c, s)"},
      {"threadmap.picture", "which thread copies which element, and the access stepper",
       "哪个线程复制哪个元素，以及访问步进"},
      {"fragments.owners", "which lane holds which element (labels, colours, the highlighted lane, addresses)",
       "哪个 lane 持有哪个元素（标签、颜色、高亮的 lane、地址）"},
      {"banks.counts", "wavefronts, conflicts, words per bank, the phases and their outlines",
       "wavefront 数、冲突数、每个 bank 的字数、各阶段及其轮廓"},
      {"banks.lanes", "which lane's word lands in which bank", "每个 lane 的字落在哪个 bank"},
      {"pipeline.timeline", "the timeline, the shared-memory stages and the event list",
       "时间线、共享内存的各级缓冲与事件列表"},
      {"conv.gemm_shape", "the implicit GEMM's M and K", "隐式 GEMM 的 M 与 K"},
      {"conv.blocks", "the launch's block count", "启动的 block 数"},
      {"conv.window", "where the selected row's filter window falls, and the im2col slice",
       "所选行的滤波窗口落在哪里，以及 im2col 切片"},
      {"gmma.element_place", "the asked element's 16-byte chunk and its 128-byte line",
       "所问元素的 16 字节块及其 128 字节行"},
      {"gmma.stride", "the descriptor's stride byte offset", "描述符的 stride byte offset"},
  };
  return f;
}

const std::vector<PredictRule>& predict_rules() {
  static const std::vector<PredictRule> r = {
      {"banks.wavefronts", "the instruction's lane addresses and the layout's bank of each address",
       "指令中每个 lane 的地址，以及布局给出的每个地址的 bank", {"banks.counts"}, {"banks.lanes"}},
      {"banks.conflicts", "the instruction's lane addresses and the layout's bank of each address",
       "指令中每个 lane 的地址，以及布局给出的每个地址的 bank", {"banks.counts"}, {"banks.lanes"}},
      {"threadmap.iterations_c", "the tile, the thread count and the access width",
       "tile、线程数与访问宽度", {"threadmap.iterations"}, {"threadmap.delta", "threadmap.picture"}},
      {"threadmap.iterations_s", "the tile, the thread count and the access width",
       "tile、线程数与访问宽度", {"threadmap.iterations"}, {"threadmap.delta", "threadmap.picture"}},
      {"threadmap.delta_c", "the tile, the thread count and the access width",
       "tile、线程数与访问宽度", {"threadmap.delta"}, {"threadmap.iterations", "threadmap.picture"}},
      {"threadmap.delta_s", "the tile, the thread count and the access width",
       "tile、线程数与访问宽度", {"threadmap.delta"}, {"threadmap.iterations", "threadmap.picture"}},
      {"fragments.lane_of_element", "the instruction's fragment rule (PTX ISA) and the element",
       "指令的 fragment 规则（PTX ISA）与该元素", {"fragments.owners"}, {}},
      {"grid.blocks", "the problem size, the tile and split-k",
       "问题规模、tile 与 split-k", {"grid.blocks", "grid.waves", "grid.timeline"}, {"grid.tiles"}},
      {"grid.waves", "the block count and the SM slots", "block 数与 SM 槽位", {"grid.waves", "grid.timeline"}, {}},
      {"grid.last_wave_blocks", "the block count and the SM slots", "block 数与 SM 槽位",
       {"grid.waves", "grid.timeline"}, {}},
      {"grid.blocks_per_sm", "the block's threads, registers and shared memory, and the SM's limits",
       "block 的线程、寄存器与共享内存，以及 SM 的上限", {"grid.occupancy", "grid.waves", "grid.timeline"}, {}},
      {"grid.l2_hit_rate", "the launch order, the tiles' footprint and the L2 size",
       "启动顺序、tile 的访问范围与 L2 容量", {"grid.l2"}, {}},
      {"pipeline.stages_in_flight", "the pipeline's loop (the code of the step)", "流水线的循环（本步的代码）",
       {"pipeline.timeline"}, {}},
      {"conv.gemm_m", "N, P and Q (the output size from H, W, R, S, padding and stride)",
       "N、P 与 Q（由 H、W、R、S、padding 与 stride 得到的输出尺寸）", {"conv.gemm_shape", "conv.blocks"}, {}},
      {"conv.gemm_k", "R, S and C", "R、S 与 C", {"conv.gemm_shape"}, {}},
      {"conv.blocks", "the GEMM's M and N and the tile", "GEMM 的 M、N 与 tile", {"conv.blocks"}, {}},
      {"conv.padded_taps", "the row's output pixel, the filter size, padding and stride",
       "该行的输出像素、滤波器尺寸、padding 与 stride", {"conv.window"}, {}},
      {"gmma.offset", "the element, the core-matrix layout and the swizzle", "元素、core matrix 布局与 swizzle",
       {"gmma.element_place"}, {}},
      {"gmma.stride_bytes", "the layout of the core matrices in shared memory", "core matrix 在共享内存中的布局",
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

std::string guess_distance(double guess, double answer, double tolerance, const std::string& lang) {
  const double d = guess - answer;
  const bool zh = lang == "zh";
  if (std::abs(d) <= tolerance + 1e-9) return zh ? "正确" : "right";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", std::abs(d));
  if (zh) return std::string(d < 0 ? "少了 " : "多了 ") + buf;
  return std::string(buf) + (d < 0 ? " too low" : " too high");
}

}  // namespace gemmlab::app
