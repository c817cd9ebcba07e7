// The launch the grid view draws (gemmlab::plan_launch, milliseconds) and its L2 replay (seconds,
// on a worker thread).
#include "views/grid/grid_view.h"

#include "replay_limit.h"

namespace gemmlab::app::grid {

std::string GridView::key() const {
  std::string k;
  for (int v : ui_.problem) k += std::to_string(v) + ",";
  k += ui_.stage + "|" + ui_.stage_order + "|" + ui_.device;
  if (!ui_.stage.empty()) return k;  // the stage fixes the rest (launch_spec), and the fields show it
  k += "|";
  for (int v : ui_.tile) k += std::to_string(v) + ",";
  k += ui_.order + "|" + std::to_string(ui_.split_k) + ui_.split_k_mode + (ui_.stream_k ? "sk" : "") +
       "|" + std::to_string(ui_.threads) + "," + std::to_string(ui_.regs) + "," + std::to_string(ui_.smem) + "|" +
       ui_.dtype;
  return k;
}

void GridView::recompute() {
  const std::string k = key();
  if (k == computed_key_) return;
  computed_key_ = k;
  model_.reset();
  facts_.reset();
  l2_.reset();
  l2_error_.clear();
  l2_too_large_ = false;
  l2_key_.clear();
  tiles_key_.clear();
  slots_key_.clear();
  auto r = build_model();
  if (!r) {
    error_ = r.error();
    return;
  }
  model_ = std::make_shared<const GridModel>(std::move(r.value()));
  if (const StageDesc* st = find_stage_desc(ui_.stage)) {
    facts_ = launch_facts(*st, *model_);
    adopt_launch_values(*facts_);
  }
  start_l2();
}

void GridView::show_stage_values() {
  const StageDesc* st = find_stage_desc(ui_.stage);
  if (!st || !st->has_tile()) return;
  auto dev = device_preset(ui_.device);
  if (!dev) return;
  // The launch at this problem: the dispatcher's facts are those of the stage it picks here.
  if (auto f = launch_facts(*st, {ui_.problem[0], ui_.problem[1], ui_.problem[2]}, *dev)) adopt_launch_values(*f);
}

void GridView::adopt_launch_values(const LaunchFacts& f) {
  ui_.tile[0] = f.tile.m, ui_.tile[1] = f.tile.n, ui_.tile[2] = f.tile.k;
  ui_.threads = f.resources.threads, ui_.regs = f.resources.regs_per_thread, ui_.smem = f.resources.smem_per_block;
  ui_.dtype = f.launched->element_bytes() == 4 ? "f32" : "f16";
  ui_.split_k = f.split_k;
  if (f.split_k > 1) ui_.split_k_mode = f.partition == Partition::SplitKParallel ? "parallel" : "serial";
  ui_.stream_k = f.partition == Partition::StreamK;
}

Expected<LaunchSpec> GridView::launch_spec() const {
  const GemmCoord problem{ui_.problem[0], ui_.problem[1], ui_.problem[2]};
  LaunchSpec spec;
  if (!ui_.stage.empty()) {
    const StageDesc* st = find_stage_desc(ui_.stage);
    if (!st) return Error{"no stage '" + ui_.stage + "' in stages.def"};
    auto dev = device_preset(ui_.device);
    if (!dev) return Error{dev.error()};
    auto s = stage_launch_spec(*st, problem, *dev);  // `auto`: the launch its rule picks there
    if (!s) return Error{s.error()};
    spec = *s;
    if (!ui_.stage_order.empty()) {
      auto order = parse_order(ui_.stage_order);
      if (!order) return Error{order.error()};
      spec.order = *order;
    }
  } else {
    spec.problem = problem;
    spec.tile = {ui_.tile[0], ui_.tile[1], ui_.tile[2]};
    spec.resources = {ui_.threads, ui_.regs, ui_.smem};
    auto order = parse_order(ui_.order);
    if (!order) return Error{order.error()};
    spec.order = *order;
    if (ui_.stream_k && ui_.split_k > 1)
      return Error{"choose split-k or stream-k, not both (split_k is " + std::to_string(ui_.split_k) + ")"};
    if (ui_.stream_k) {
      spec.partition = Partition::StreamK;
    } else if (ui_.split_k > 1) {
      spec.partition = ui_.split_k_mode == "parallel" ? Partition::SplitKParallel : Partition::SplitKSerial;
      spec.split_k = ui_.split_k;
    }
    // The course's tracks (stages.def): f32 is BLAS NN, f16 is TN; C is f32, column-major.
    StageDesc like{};
    like.track = ui_.dtype == "f32" ? StageTrack::fp32 : StageTrack::fp16;
    spec.l2.element_bytes = like.element_bytes();
    spec.l2.a_order = like.a_order();
    spec.l2.b_order = like.b_order();
    spec.l2.c_element_bytes = like.c_element_bytes();
    spec.l2.c_order = like.c_order();
  }
  spec.l2.buckets = 60;
  return spec;
}

Expected<GridModel> GridView::build_model() const {
  auto dev = device_preset(ui_.device);
  if (!dev) return Error{dev.error()};
  auto spec = launch_spec();
  if (!spec) return Error{spec.error()};
  return plan_launch(*spec, *dev);
}

void GridView::start_l2() {
  if (!model_) return;
  if (model_->l2_lookups > l2_replay_limit()) {
    // A limit of the simulator, not a fault of the settings: said as a note, not an error.
    l2_too_large_ = true;
    l2_error_ = trf("L2 not replayed: it would take %s look-ups, more than the simulator's %s. A smaller problem "
                    "or larger tiles show it.",
                    fmt_int(static_cast<long long>(model_->l2_lookups)).c_str(),
                    fmt_int(static_cast<long long>(l2_replay_limit())).c_str());
    return;
  }
  if (l2_job_.valid()) l2_job_.wait();  // the old one holds its own copy of the model
  auto model = model_;
  l2_key_ = computed_key_;
  l2_started_ = std::chrono::steady_clock::now();
  l2_job_ = std::async(std::launch::async, [model]() { return replay_launch_l2(*model); });
}

void GridView::poll_l2(bool block) {
  if (!l2_job_.valid()) return;
  if (!block && l2_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  auto r = l2_job_.get();
  if (l2_key_ != computed_key_) return;  // settings changed meanwhile
  if (r) {
    l2_ = std::make_shared<const L2Report>(std::move(r.value()));
    tiles_key_.clear();
  } else {
    l2_error_ = r.error();
  }
}

}  // namespace gemmlab::app::grid
