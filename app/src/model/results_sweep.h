// The Kernels view's shape sweep from loaded results: the GEMM rows of results files as the
// simulator's sweep rows (gemmlab/shape_sweep.h), and the device the launch facts of its "why"
// line are planned on (gemmlab/sweep_launch.h, gemmlab/dispatch.h). No ImGui.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/device_presets.h"
#include "gemmlab/expected.h"
#include "gemmlab/shape_sweep.h"
#include "model/results_file.h"

namespace gemmlab::app {

// The GEMM rows (convolutions left out) of `sets` in order, of `stages` only where it is not
// empty (references always: the sweep leaves them out itself). A later set's row of a stage at a
// shape comes after an earlier one's, so the newer run wins (shape_sweep).
std::vector<SweepRow> sweep_rows(const std::vector<const BenchResults*>& sets, const std::vector<std::string>& stages);

// The reference the sweep compares with: cuBLAS fp16 where the rows have fp16 stages (the shapes
// users run are fp16 on Hopper), else the first the rows have; "" when none.
std::string sweep_reference(const std::vector<SweepRow>& rows);

// The device preset of a results file's GPU with the file's own SM count (where the file states one).
Expected<DeviceDesc> sweep_device(const BenchDevice& device);

}  // namespace gemmlab::app
