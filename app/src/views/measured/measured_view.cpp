// View 7, "Measured vs predicted": an Nsight Compute CSV (`ncu --csv --metrics ...`) beside the
// simulator. Per kernel: shared-memory wavefronts per shared load instruction (measured) next to
// the stage's own shared-memory instruction mix (gemmlab/kernel_smem_mix.h); L2 hit rate and DRAM bytes read (measured) next to
// the stage's launch (gemmlab::plan_launch, as the Grid view and `gemmlab sim l2 --stage` build it)
// replayed through the L2 model (simulated, worker thread).
// Which ncu ratio compares with which model number: model/ncu_l2.h (kernels/lab/L2_VALIDATION.md).
#include <algorithm>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <future>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "file_dialog.h"
#include "gemmlab/device_presets.h"
#include "gemmlab/kernel_smem_mix.h"
#include "gemmlab/l2_model.h"
#include "gemmlab/launch_plan.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"
#include "model/ncu_csv.h"
#include "model/ncu_l2.h"
#include "model/ncu_numbers.h"
#include "model/settings_schema.h"
#include "model/work_pool.h"
#include "replay_limit.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
namespace {

// How to simulate one measured kernel: filled from the CSV, editable.
struct SimSetup {
  std::string stage;  // stages.def id, found from the kernel's name (gemmlab::stage_of_kernel)
  int problem[3] = {4096, 4096, 4096};
  std::string order;  // "" = the stage's own raster
  std::string device = "h100";
  // As ncu measured them, shown beside the stage's own (stages.def).
  int threads = 0, regs = 0, smem = 0;
  std::string kernel;  // ncu's kernel name: which build of the stage it measured
};

// The stage as the measured kernel was built (gemmlab::stage_as_measured), when the kernel is one
// of the stage's; else the registered stage.
MeasuredStage stage_as_built(const StageDesc& st, const std::string& kernel) {
  if (kernel.empty() || stage_of_kernel(kernel) != &st) return {st, true};
  return stage_as_measured(st, kernel);
}

// The row whose launch runs at the setup's size and device: the dispatcher's (`auto`) pick there
// (launched_stage), any other stage itself.
const StageDesc& launched_row(const StageDesc& st, const int problem[3], const std::string& device) {
  const auto dev = device_preset(device);
  if (!dev || problem[0] < 1 || problem[1] < 1 || problem[2] < 1) return st;
  return launched_stage(st, {problem[0], problem[1], problem[2]}, dev->sms);
}

struct SimOutcome {
  std::string error;
  double hit_rate = 0, hit_rate_with_far = 0;
  double dram_read = 0;
  L2Report report;  // for ncu's lookup_hit / op_read given the CSV's coalescer merges
  Dim3 grid;
  int blocks_per_sm = 0;
  Expected<StageSmemMix> smem = Error{"not simulated"};  // the stage's shared-memory instruction mix
};

struct KernelRow {
  SimSetup setup;
  std::shared_ptr<std::future<SimOutcome>> job;
  std::optional<SimOutcome> outcome;
  std::string key;  // setup the outcome belongs to
};

std::string setup_key(const SimSetup& s) {
  return s.stage + "|" + std::to_string(s.problem[0]) + "x" + std::to_string(s.problem[1]) + "x" +
         std::to_string(s.problem[2]) + "|" + s.order + "|" + s.device + "|" + s.kernel;
}

SimOutcome simulate(const SimSetup& s) {
  SimOutcome out;
  const StageDesc* picked = find_stage_desc(s.stage);
  if (!picked) return out.error = "pick a stage", out;
  const StageDesc* st = &launched_row(*picked, s.problem, s.device);
  out.smem = stage_smem_mix(*st, {s.problem[0], s.problem[1], s.problem[2]});
  auto dev = device_preset(s.device);
  if (!dev) return out.error = dev.error(), out;
  // The stage's launch as the Grid view and `gemmlab sim l2 --stage` build it, with the tile of
  // the build the capture measured.
  const StageDesc built = stage_as_built(*st, s.kernel).desc;
  auto stage_spec = stage_launch_spec(built, {s.problem[0], s.problem[1], s.problem[2]});
  if (!stage_spec) return out.error = stage_spec.error(), out;
  LaunchSpec spec = *stage_spec;
  if (!s.order.empty()) {
    auto order = parse_order(s.order);
    if (!order) return out.error = order.error(), out;
    spec.order = *order;
  }
  auto launch = plan_launch(spec, *dev);
  if (!launch) return out.error = launch.error(), out;
  if (launch->l2_lookups > l2_replay_limit()) return out.error = "too large to replay", out;
  auto r = replay_launch_l2(*launch);
  if (!r) return out.error = r.error(), out;
  out.hit_rate = r->hit_rate;
  out.hit_rate_with_far = r->hit_rate_with_far;
  out.dram_read = double(r->dram_bytes_read);
  out.report = std::move(*r);
  out.report.hit_rate_over_time.clear();  // the view keeps totals only
  out.report.a_tiles = out.report.b_tiles = {};
  out.report.c_tile_dram_sectors.clear();
  out.grid = launch->plan.grid;
  out.blocks_per_sm = launch->blocks_per_sm;
  return out;
}

// ncu's lookup_hit / op_read for the simulated run, with the measured share of merged sectors.
Expected<double> model_tag_stage_ratio(const SimOutcome& o, const NcuTagStage& t) {
  return ncu_lookup_hit_over_op_read(o.report, t.merged_fraction * double(o.report.counters.read_lookups));
}


class MeasuredView final : public View {
 public:
  ~MeasuredView() override {
    for (auto& r : rows_)
      if (r.job && r.job->valid()) r.job->wait();
  }
  const char* id() const override { return "measured"; }

  void apply(const Json& s) override {
    if (s.contains("csv")) pending_csv_ = s["csv"];
  }

  void load_file(const std::string& path) override {
    for (auto& r : rows_)
      if (r.job && r.job->valid()) r.job->wait();
    rows_.clear();
    report_ = load_ncu_csv(path);
    if (!report_) return;
    for (const auto& k : report_->kernels) rows_.push_back({guess_setup(k, *report_), nullptr, {}, {}});
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    if (!report_) {
      out["error"] = report_.error();
      return out;
    }
    out["source"] = report_->source;
    Json ks = Json::array();
    for (size_t i = 0; i < report_->kernels.size(); ++i) {
      const auto& k = report_->kernels[i];
      Json j;
      j["kernel"] = k.name;
      j["grid"] = k.grid;
      for (const auto& [name, m] : k.metrics) j["measured"][name] = m.value;
      if (const auto l2 = ncu_l2_read_hit_rate(k)) {
        j["measured_l2_hit_rate"]["value"] = l2->value;
        j["measured_l2_hit_rate"]["formula"] = l2->formula;
        if (!l2->note.empty()) j["measured_l2_hit_rate"]["note"] = l2->note;
      }
      if (i < rows_.size() && rows_[i].outcome && rows_[i].outcome->error.empty()) {
        j["simulated"]["stage"] = rows_[i].setup.stage;
        if (const StageDesc* picked = find_stage_desc(rows_[i].setup.stage)) {
          const SimSetup& setup = rows_[i].setup;
          const StageDesc* st = &launched_row(*picked, setup.problem, setup.device);
          if (st != picked) j["simulated"]["launched"] = st->id;
          const MeasuredStage b = stage_as_built(*st, setup.kernel);
          j["simulated"]["tile"] = {b.desc.tile_m, b.desc.tile_n, b.desc.tile_k};
          j["simulated"]["current_build"] = b.current;
        }
        j["simulated"]["l2_hit_rate"] = rows_[i].outcome->hit_rate;
        j["simulated"]["l2_hit_rate_with_far"] = rows_[i].outcome->hit_rate_with_far;
        j["simulated"]["dram_bytes_read"] = rows_[i].outcome->dram_read;
        if (const auto& mix = rows_[i].outcome->smem) {
          j["simulated"]["shared_load_instructions"] = mix->load.instructions;
          j["simulated"]["shared_load_wavefronts_per_instruction"] = mix->load.wavefronts_per_instruction();
        }
        if (const auto t = ncu_tag_stage(k)) {
          j["measured_lookup_hit_over_op_read"] = t->lookup_hit_over_op_read;
          if (const auto v = model_tag_stage_ratio(*rows_[i].outcome, *t))
            j["simulated"]["lookup_hit_over_op_read"] = *v;
        }
      }
      ks.push_back(j);
    }
    out["kernels"] = ks;
    return out;
  }

  void prepare(const AppPaths& paths) override {
    if (pending_csv_.empty()) return;
    load_file((fs::path(paths.assets) / pending_csv_).string());
    pending_csv_.clear();
  }

  void draw(ViewContext& ctx) override {
    prepare(ctx.paths);
    if (ImGui::Button(tr("Open ncu CSV..."))) {
      file_dialog_open(tr("Open an Nsight Compute CSV"), ctx.paths.assets, ".csv",
                       [this](const std::string& p) { load_file(p); });
    }
    ImGui::SameLine();
    note_text(tr("Make one with: ncu --csv --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
              "smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_ldsm.sum,"
              "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum,"
              "dram__bytes_read.sum,launch__registers_per_thread,"
              "launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static <program>"));
    if (!report_) {
      if (report_.error() != "no file") error_box(report_.error());
      else note_text(tr("No ncu CSV loaded."));
      return;
    }
    // A file under the assets folder is named as the lesson names it (assets/...), not by where
    // this GEMM Lab is installed.
    const fs::path relative = fs::path(report_->source).lexically_relative(fs::path(ctx.paths.assets));
    const bool under_assets = !relative.empty() && *relative.begin() != "..";
    const std::string shown = under_assets ? (fs::path("assets") / relative).string() : report_->source;
    ImGui::TextWrapped(tr("%s: %zu kernel launch(es)"), shown.c_str(), report_->kernels.size());
    for (size_t i = 0; i < rows_.size(); ++i)
      if (!rows_[i].setup.stage.empty()) poll(rows_[i], ctx.headless);
    ImGui::Checkbox(tr("hide cuBLAS kernels"), &hide_cublas_);
    ImGui::BeginChild("##kernels", {0, 0});
    for (size_t i = 0; i < report_->kernels.size() && i < rows_.size(); ++i) {
      if (hide_cublas_ && report_->kernels[i].name.find("cublas") != std::string::npos) continue;
      ImGui::PushID(static_cast<int>(i));
      draw_kernel(report_->kernels[i], rows_[i]);
      ImGui::PopID();
      ImGui::Separator();
    }
    ImGui::EndChild();
  }

 private:
  SimSetup guess_setup(const NcuKernel& k, const NcuReport& r) const {
    SimSetup s;
    // Stage: the registry's kernel name (stages.def), else a stage id in the file name
    // (kernels/tools write ncu_<stage>.csv). cuBLAS and reduction kernels have none.
    if (const StageDesc* st = stage_of_kernel(k.name)) {
      s.stage = st->id;
    } else if (k.name.find("cublas") == std::string::npos && k.name.find("reduce") == std::string::npos) {
      const std::string file = fs::path(r.source).filename().string();
      size_t best = 0;
      for (const StageDesc& st : stage_table())
        if (file.find(st.id) != std::string::npos && std::strlen(st.id) > best) s.stage = st.id, best = std::strlen(st.id);
    }
    // Size: the profiled program's "MxNxK" line, if it printed one.
    for (const auto& line : r.preamble)
      if (const auto p = problem_in_line(line, kMaxProblemExtent)) {
        s.problem[0] = p->m, s.problem[1] = p->n, s.problem[2] = p->k;
        break;
      }
    for (const auto& line : r.preamble)
      if (line.find("H200") != std::string::npos) s.device = "h200";
    // Launch resources, as measured.
    s.kernel = k.name;
    if (const auto t = ncu_block_threads(k.block)) s.threads = *t;
    // Counters are finite and below 2^53 (parse_ncu_number); clamped as doubles before any int.
    if (auto v = k.metric("launch__registers_per_thread")) s.regs = int(std::clamp(*v, 1.0, 255.0));
    s.smem = int(std::clamp(k.metric("launch__shared_mem_per_block_dynamic").value_or(0) +
                                k.metric("launch__shared_mem_per_block_static").value_or(0),
                            0.0, 1048576.0));
    return s;
  }

  void poll(KernelRow& row, bool block) {
    const std::string key = setup_key(row.setup);
    if (row.job) {
      if (!block && row.job->wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
      SimOutcome o = row.job->get();
      row.job.reset();
      if (row.key == key) row.outcome = o;
      else row.outcome.reset();
    }
    if (!row.outcome || row.key != key) {
      if (row.job) return;
      row.key = key;
      row.outcome.reset();
      const SimSetup s = row.setup;
      row.job = std::make_shared<std::future<SimOutcome>>(background_pool().submit([s] { return simulate(s); }));
      if (block) poll(row, true);
    }
  }

  void draw_kernel(const NcuKernel& k, KernelRow& row) {
    ImGui::TextColored({0.7f, 0.85f, 1, 1}, "%s", k.short_name().c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", k.name.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled(tr("grid %s, block %s, id %s"), k.grid.c_str(), k.block.c_str(), k.id.c_str());
    // Simulate as...
    SimSetup& s = row.setup;
    std::vector<std::string> ids;
    for (const StageDesc& st : stage_table())
      if (st.has_tile()) ids.push_back(st.id);
    combo_string(tr("stage"), &s.stage, ids, 10);
    ImGui::SameLine();
    input_int3(tr("size"), s.problem, 1, kMaxProblemExtent, 5);
    ImGui::SameLine();
    static const std::vector<std::string> orders = {"the stage's", "launch", "identity:8", "serpentine:8", "serpentine"};
    std::string order = s.order.empty() ? orders.front() : s.order;
    if (combo_string(tr("order"), &order, orders, 9)) s.order = order == orders.front() ? "" : order;
    ImGui::SameLine();
    static const std::vector<std::string> devices = {"h100", "h200", "a100", "rtx4090"};
    combo_string(tr("device"), &s.device, devices, 6);
    if (const StageDesc* picked = find_stage_desc(s.stage)) {
      // The dispatcher's numbers are those of the stage its rule picks at this size.
      const StageDesc* st = &launched_row(*picked, s.problem, s.device);
      ImGui::PushTextWrapPos(0);
      if (st != picked)
        ImGui::TextDisabled(tr("launch: ncu %d threads, %d registers, %d B shared memory; %s -> %s at this size "
                               "(stages.def) %d, %d, %d"),
                            s.threads, s.regs, s.smem, picked->name, st->name, st->threads, st->regs, st->smem);
      else
        ImGui::TextDisabled(tr("launch: ncu %d threads, %d registers, %d B shared memory; the stage (stages.def) %d, %d, %d"),
                            s.threads, s.regs, s.smem, st->threads, st->regs, st->smem);
      ImGui::PopTextWrapPos();
      if (const MeasuredStage b = stage_as_built(*st, s.kernel); !b.current)
        ImGui::TextWrapped(tr("This capture is of an earlier build of the stage, with a %d x %d x %d tile (the stage has %d x %d x %d now): "
                              "the simulated launch and L2 are of that build."),
                           b.desc.tile_m, b.desc.tile_n, b.desc.tile_k, st->tile_m, st->tile_n, st->tile_k);
    }

    if (!ImGui::BeginTable("##cmp", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn(tr("quantity"), ImGuiTableColumnFlags_WidthStretch, 2.6f);
    ImGui::TableSetupColumn(tr("measured (ncu)"), ImGuiTableColumnFlags_WidthStretch, 2);
    ImGui::TableSetupColumn(tr("simulated"), ImGuiTableColumnFlags_WidthStretch, 3);
    ImGui::TableHeadersRow();
    auto row3 = [](const char* q, const std::string& meas, const std::string& sim) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(tr(q));
      ImGui::TableSetColumnIndex(1);
      ImGui::TextWrapped("%s", meas.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextWrapped("%s", sim.c_str());
    };
    char buf[256];
    // Shared memory: wavefronts per shared load instruction, as ncu counts them (model/ncu_l2.h).
    const auto loads = ncu_shared_loads(k);
    std::string meas = "-";
    if (loads && loads->instructions > 0) {
      meas = trf("%.2f  (%s wavefronts / %s instructions)", loads->per_instruction(),
                 fmt_int((long long)loads->wavefronts).c_str(), fmt_int((long long)loads->instructions).c_str());
    } else if (loads) {
      meas = trf("%s wavefronts (no instruction count in the CSV)", fmt_int((long long)loads->wavefronts).c_str());
    }
    // The stage's own instruction mix (gemmlab/kernel_smem_mix.h), computed with the L2 replay.
    std::string sim = s.stage.empty() ? tr("pick the stage this kernel is") : tr("running...");
    if (row.outcome) {
      const auto& mix = row.outcome->smem;
      if (mix) {
        sim = trf("%.2f  (%s wavefronts / %s instructions, %s's instruction mix%s)",
                  mix->load.wavefronts_per_instruction(), fmt_int(mix->load.wavefronts).c_str(),
                  fmt_int(mix->load.instructions).c_str(), s.stage.c_str(),
                  mix->complete ? "" : tr("; its fix-up state is not modelled"));
      } else {
        sim = mix.error();
      }
    }
    if (loads) row3("shared wavefronts per load instruction", meas, sim);  // an L2-only capture has none

    // L2: the best ratio the CSV has (model/ncu_l2.h) and the model's number it compares with.
    const auto l2 = ncu_l2_read_hit_rate(k);
    meas = "-";
    if (l2) {
      std::snprintf(buf, sizeof buf, "%.1f%%  (%s)", 100 * l2->value, l2->formula.c_str());
      meas = buf;
    }
    std::string sim_l2 = s.stage.empty() ? tr("pick the stage this kernel is") : tr("running...");
    std::string sim_dram = sim_l2;
    if (row.outcome) {
      const SimOutcome& o = *row.outcome;
      if (!o.error.empty()) {
        sim_l2 = sim_dram = o.error;
      } else {
        const bool far = l2 && l2->compares_with_far_lookups();
        std::snprintf(buf, sizeof buf, "%.1f%% %s", 100 * (far ? o.hit_rate_with_far : o.hit_rate),
                      far ? tr("(near and far-partition look-ups)") : tr("(1 - misses / sectors the SMs read)"));
        sim_l2 = buf;
        sim_dram = fmt_mb(o.dram_read) + " MB";
        if (auto g = parse_ncu_dim3(k.grid); g && !(*g == o.grid))
          sim_l2 += trf("  (simulated grid (%d,%d,%d) differs from the measured one: check stage, size, order)",
                        int(o.grid.x), int(o.grid.y), int(o.grid.z));
      }
    }
    row3("L2 hit rate of reads", meas, sim_l2);
    // ncu's own ratio, when the CSV also has what the coalescer merged (model/ncu_l2.h).
    if (const auto t = ncu_tag_stage(k); t && l2 && l2->ratio != NcuL2Ratio::HitsPerTagLookup) {
      std::snprintf(buf, sizeof buf, "%s",
                    trf("%.1f%%  (lookup_hit / op_read; the coalescer merged %.1f%% of the sectors)",
                        100 * t->lookup_hit_over_op_read, 100 * t->merged_fraction).c_str());
      std::string sim_tag = sim_l2;
      if (row.outcome && row.outcome->error.empty()) {
        if (const auto v = model_tag_stage_ratio(*row.outcome, *t)) {
          sim_tag = trf("%.1f%%  (the model's misses, %s, with the measured merges)", 100 * *v,
                        row.outcome->report.extra_tag_lookups ? tr("each missed cp.async request also a hit")
                                                              : tr("ld.global: no double count"));
        } else {
          sim_tag = v.error();
        }
      }
      row3("L2 lookup_hit / op_read (ncu's ratio)", buf, sim_tag);
    }
    const auto dram = k.metric("dram__bytes_read.sum");
    row3("DRAM bytes read", dram ? fmt_mb(*dram) + " MB" : "-", sim_dram);
    ImGui::EndTable();
    if (l2 && !l2->note.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4{1.0f, 0.75f, 0.3f, 1});
      ImGui::TextWrapped(tr("Measured L2 hit rate: %s"), l2->note.c_str());
      ImGui::PopStyleColor();
    }
  }

  Expected<NcuReport> report_ = Error{"no file"};
  std::vector<KernelRow> rows_;
  std::string pending_csv_;
  bool hide_cublas_ = true;
};

}  // namespace

std::unique_ptr<View> make_measured_view() { return std::make_unique<MeasuredView>(); }

}  // namespace gemmlab::app
