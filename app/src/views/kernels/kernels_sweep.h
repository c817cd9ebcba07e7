// The Kernels view's shape sweep (issue 51): rows = GEMM shapes, columns = the stages timed against
// one reference, cells = the stage's % of it, green above 100% and amber to red below, each
// shape's best stage outlined, each stage's geometric mean and that of the best per shape; under
// it, why the stages win or lose at the selected shape: each stage's launch there and the launch a
// per-shape rule picks. Every number comes from the simulator (gemmlab/shape_sweep.h,
// sweep_launch.h, dispatch.h); this file only draws.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/dispatch.h"
#include "gemmlab/shape_sweep.h"
#include "gemmlab/sweep_launch.h"
#include "model/results_file.h"

namespace gemmlab::app {

class SweepPanel {
 public:
  // The shape a step points at: its row is selected, and its "why" shown.
  void select(GemmCoord shape) { selected_ = shape; }
  // `sets`: the results the sweep reads (one file, or the learner's runs on one GPU, oldest
  // first); `stages`: the step's stages (empty: every stage in them).
  void draw(const std::vector<const BenchResults*>& sets, const std::vector<std::string>& stages);

 private:
  struct Layout;
  Layout layout(const ShapeSweep& sw) const;
  void draw_table(const ShapeSweep& sw, const Layout& l);
  void draw_summary(const ShapeSweep& sw);
  void draw_why(const ShapeSweep& sw, const BenchDevice& device);
  // Cached: a stage's launch is a plan of thousands of blocks, not redone every frame.
  const SweepLaunch* launch_of(const std::string& stage, GemmCoord shape, const BenchDevice& device);
  const Dispatch* dispatch_of(GemmCoord shape, const BenchDevice& device);
  std::string launch_line(const std::string& stage, GemmCoord shape, const BenchDevice& device);

  GemmCoord selected_{0, 0, 0};
  std::string reference_;  // the reference the sweep compares with ("cublas-fp16")
  int hovered_stage_ = -1, hovered_shape_ = -1;
  std::map<std::string, std::optional<SweepLaunch>> launches_;
  std::map<std::string, std::string> launch_errors_;  // why a launch has no value, the sim's words
  std::map<std::string, std::optional<Dispatch>> dispatches_;
};

}  // namespace gemmlab::app
