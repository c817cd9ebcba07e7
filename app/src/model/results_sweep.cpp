// The Kernels view's sweep inputs (model/results_sweep.h).
#include "model/results_sweep.h"

#include <algorithm>

#include "gemmlab/roofline.h"  // device_preset_for_gpu
#include "gemmlab/stage_desc.h"

namespace gemmlab::app {

std::vector<SweepRow> sweep_rows(const std::vector<const BenchResults*>& sets, const std::vector<std::string>& stages) {
  std::vector<SweepRow> rows;
  for (const BenchResults* set : sets)
    for (const BenchResult& r : set->results) {
      if (r.is_conv) continue;
      if (!r.is_reference() && !stages.empty() && std::find(stages.begin(), stages.end(), r.stage) == stages.end())
        continue;
      rows.push_back({r.stage, r.track, {r.m, r.n, r.k}, r.ratio_to_cublas, r.ok});
    }
  return rows;
}

std::string sweep_reference(const std::vector<SweepRow>& rows) {
  const std::vector<std::string> refs = sweep_references(rows);
  const ReferenceDesc* fp16 = gemm_reference(StageTrack::fp16);  // the registry's cuBLAS fp16 row
  if (fp16 && std::find(refs.begin(), refs.end(), fp16->id) != refs.end()) return fp16->id;
  return refs.empty() ? "" : refs.front();
}

Expected<DeviceDesc> sweep_device(const BenchDevice& device) {
  auto preset = device_preset_for_gpu(device.name);
  if (!preset) return Error{preset.error()};
  DeviceDesc d = *preset;
  // The file's count is the GPU that ran (an H100 PCIe has 114 SMs, the preset's SXM 132).
  if (device.sms > 0 && device.sms <= 4096) d.sms = device.sms;
  return d;
}

}  // namespace gemmlab::app
