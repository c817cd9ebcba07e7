#include "model/results_markdown.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

#include "gemmlab/stage_desc.h"
#include "model/stage_labels.h"

namespace gemmlab::app {
namespace {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string rate(double v) { return fmt(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v); }

std::string reference_label(const std::string& id) {
  if (const ReferenceDesc* r = find_reference(id)) return r->name;
  return stage_label(id);
}

// Where a row sits: each GEMM reference before the first stage of its operands, then the registry
// order, then the references no stage placed (the convolutions'), in their table's order.
int row_rank(const std::string& id) {
  int rank = 0;
  std::vector<const ReferenceDesc*> placed;
  for (const StageDesc& s : stage_table()) {
    const ReferenceDesc* ref = gemm_reference(track_desc(s.track).operands);
    if (ref && std::find(placed.begin(), placed.end(), ref) == placed.end()) {
      placed.push_back(ref);
      if (id == ref->id) return rank;
      ++rank;
    }
    if (id == s.id) return rank;
    ++rank;
  }
  for (const ReferenceDesc& r : kReferenceTable) {
    if (std::find(placed.begin(), placed.end(), &r) != placed.end()) continue;
    if (id == r.id) return rank;
    ++rank;
  }
  return rank;
}

double reference_ratio(const BenchResult& r) {
  if (r.is_reference()) return 1;
  if (!r.is_conv) return r.ratio_to_cublas;
  return r.cudnn_ms > 0 ? r.ratio_to_cudnn : r.ratio_to_im2col;
}

// The tag of a conv track's cuDNN peer ("cuDNN", "cuDNN fused"), by the track's results name.
std::string peer_tag(const std::string& track) {
  const TrackDesc* t = find_track(track);
  const ReferenceDesc* peer = t && t->peer ? find_reference(t->peer) : nullptr;
  return peer ? peer->tag : "cuDNN";
}

std::string check_cell(const BenchResult& r) { return r.ok ? "ok" : "**FAILED** (error " + fmt("%.2g", r.rel_err) + ")"; }

std::string set_heading(const BenchResults& set, const char* what) {
  const std::string file = std::filesystem::path(set.source).filename().string();
  return "### " + std::string(what) + " (`" + file + "`)\n" + set.device.name + ", " +
         std::to_string(set.device.sms) + " SMs, " + std::to_string(set.device.l2_bytes >> 20) + " MiB L2, " +
         std::to_string(set.device.clock_mhz) + " MHz; driver " + set.device.driver + ", CUDA " + set.device.cuda +
         "; measured " + set.date + ".\n\n";
}

std::string gemm_tables(const BenchResults& set) {
  std::vector<std::string> sizes;
  for (const BenchResult& r : set.results)
    if (!r.is_conv && std::find(sizes.begin(), sizes.end(), r.size_key()) == sizes.end()) sizes.push_back(r.size_key());
  std::string out;
  for (const std::string& size : sizes) {
    std::vector<const BenchResult*> rows;
    for (const BenchResult& r : set.results)
      if (!r.is_conv && r.size_key() == size) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const BenchResult* a, const BenchResult* b) { return row_rank(a->stage) < row_rank(b->stage); });
    out += "#### " + size + "\n\n| stage | track | TFLOP/s | reference in the turns | % of reference | x stage before | "
           "check |\n|---|---|---|---|---|---|---|\n";
    for (const BenchResult* r : rows) {
      const double before = r->speedup_over_previous(), ratio = reference_ratio(*r);
      out += "| " + reference_label(r->stage) + " | " + r->track + " | " + rate(r->tflops) + " | " +
             (r->is_reference() || ratio <= 0 ? "-" : rate(r->tflops / ratio)) + " | " + fmt("%.1f", 100 * ratio) +
             " | " + (before > 0 ? fmt("%.3f", before) : "-") + " | " + check_cell(*r) + " |\n";
    }
    out += "\n";
  }
  return out;
}

std::string conv_table(const BenchResults& set) {
  std::vector<std::string> shapes, stages;
  for (const BenchResult& r : set.results) {
    if (!r.is_conv) continue;
    if (std::find(shapes.begin(), shapes.end(), r.size_key()) == shapes.end()) shapes.push_back(r.size_key());
    if (!r.is_reference() && std::find(stages.begin(), stages.end(), r.stage) == stages.end()) stages.push_back(r.stage);
  }
  if (shapes.empty()) return "";
  std::stable_sort(stages.begin(), stages.end(),
                   [](const std::string& a, const std::string& b) { return row_rank(a) < row_rank(b); });
  auto find = [&](const std::string& shape, const std::string& stage, const char* track) -> const BenchResult* {
    for (const BenchResult& r : set.results)
      if (r.is_conv && r.size_key() == shape && r.stage == stage && (!track || r.track == track)) return &r;
    return nullptr;
  };
  std::string out = "TFLOP/s (TOP/s for the int8 / int4 stages) and, in brackets, the stage's speed against the "
                    "reference timed in turns with it: its track's cuDNN peer (cuDNN, or cuDNN's fused graph for the "
                    "fused stage) where it ran, else im2col + cuBLAS in the stage's own "
                    "element type. The two reference columns are their fp16 rows.\n\n"
                    "| convolution (N,H,W,C,K,R,S) | GEMM M x N x K |";
  std::string rule = "|---|---|";
  for (const auto& s : stages) out += " " + stage_label(s) + " |", rule += "---|";
  // The conv references' columns: im2col + cuBLAS and cuDNN always, cuDNN's fused graph where it ran.
  std::vector<const ReferenceDesc*> refs;
  for (const ReferenceDesc& ref : kReferenceTable)
    if (is_conv(ref.track) && (ref.kind != ReferenceKind::CudnnFused ||
                               std::any_of(set.results.begin(), set.results.end(),
                                           [&](const BenchResult& r) { return r.is_conv && r.stage == ref.id; })))
      refs.push_back(&ref);
  for (const ReferenceDesc* ref : refs) out += std::string(" ") + ref->tag + " |", rule += "---|";
  out += "\n" + rule + "\n";
  for (const std::string& shape : shapes) {
    const BenchResult* any = nullptr;
    for (const BenchResult& r : set.results)
      if (r.is_conv && r.size_key() == shape && !any) any = &r;
    out += "| " + shape.substr(5) + " | " + std::to_string(any->m) + " x " + std::to_string(any->n) + " x " +
           std::to_string(any->k) + " |";
    for (const auto& s : stages) {
      const BenchResult* r = find(shape, s, nullptr);
      const std::string ref = r && r->cudnn_ms > 0 ? peer_tag(r->track) : "im2col";
      out += r ? " " + rate(r->tflops) + " (" + fmt("%.1f", 100 * reference_ratio(*r)) + "% " + ref + ")" +
                     (r->ok ? "" : " **FAILED**") + " |"
               : " - |";
    }
    for (const ReferenceDesc* ref : refs) {
      const BenchResult* r = find(shape, ref->id, track_name(ref->track));
      out += r ? " " + rate(r->tflops) + " |" : " - |";
    }
    out += "\n";
  }
  return out + "\n";
}

std::string skipped_list(const BenchResults& set) {
  if (set.skipped.empty()) return "";
  std::string out = "Not run:\n";
  for (const BenchSkipped& s : set.skipped) out += "- " + stage_label(s.stage) + " at " + s.size_key + ": " + s.reason + "\n";
  return out + "\n";
}

}  // namespace

std::string results_markdown(const std::vector<BenchResults>& sets) {
  std::string out =
      "# Measured results\n\n"
      "Generated by `gemmlab results --markdown` from the results JSON in this folder (written by\n"
      "`gemmlab bench --json FILE` and `gemmlab bench --conv resnet50 --json FILE` on a GPU machine);\n"
      "edit those, not this file. A stage is named by the number of the lesson that teaches it.\n"
      "\"% of reference\" is the reference's median time over the stage's, the two timed in turns in\n"
      "the same run (cuBLAS for a GEMM; cuDNN, else im2col + cuBLAS, for a convolution); \"x stage\n"
      "before\" is the stage before it on its ladder, timed in the same turns. A reference's own row is\n"
      "its time alone; \"reference in the turns\" is its rate in the turns with that stage, so the\n"
      "stage's TFLOP/s over it is the % (clock and power move both). The app shows the same files in\n"
      "its Kernels view, and your own after Run.\n\n";
  std::vector<std::string> devices;
  for (const BenchResults& s : sets)
    if (std::find(devices.begin(), devices.end(), s.device.name) == devices.end()) devices.push_back(s.device.name);
  for (const std::string& device : devices) {
    out += "## " + device + "\n\n";
    for (const bool conv_pass : {false, true}) {  // a device's GEMM files first, then its convolutions
      for (const BenchResults& s : sets) {
        const bool conv = std::any_of(s.results.begin(), s.results.end(), [](const BenchResult& r) { return r.is_conv; });
        if (s.device.name != device || conv != conv_pass) continue;
        const bool gemm = std::any_of(s.results.begin(), s.results.end(), [](const BenchResult& r) { return !r.is_conv; });
        if (gemm) out += set_heading(s, "GEMM") + gemm_tables(s);
        if (conv) out += set_heading(s, "Convolutions") + conv_table(s);
        out += skipped_list(s);
      }
    }
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace gemmlab::app
