// The shape sweep of the Kernels view (issue 51): each stage's time ratio to cuBLAS over a set of
// GEMM shapes, from the rows of a loaded results file (assets/results/*.json: stage, m, n, k,
// ratio_to_cublas, ok; the shipped file or the learner's own run), so the learner sees where each
// stage wins and where it loses. A ratio is cuBLAS's time over the stage's, timed in turns in the
// same run: 1.0 = cuBLAS, above = faster.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/raster.h"

namespace gemmlab {

struct SweepRow {
  std::string stage, track;
  GemmCoord shape;
  double ratio = 0;  // ratio_to_cublas; <= 0 or not finite: not measured (a failed or skipped run)
  bool ok = true;    // the result matched the reference: a wrong result's speed is no measurement
};

// The shapes of issue 51's table (LLM layers, small M, long K), in its order.
const std::vector<GemmCoord>& issue51_shapes();

struct SweepStage {
  std::string stage;
  std::vector<double> ratio;  // per shape, 0 where the results hold no measurement
  std::vector<char> wrong;    // per shape: the stage ran there and its result was wrong
  int measured = 0;           // shapes with a ratio
  int wins = 0;               // shapes where it is at least as fast as cuBLAS (ratio >= 1)
  double geomean = 0;         // over the measured shapes; 0 when none
  int worst = -1;             // shape index of its lowest ratio, -1 when none
};

struct ShapeSweep {
  std::vector<GemmCoord> shapes;    // the table's rows
  std::vector<SweepStage> stages;   // its columns: stages in the results' order, references left out
  std::vector<int> best;            // per shape: the stage (index into stages) with the highest ratio, -1 if none
  int shapes_measured = 0;          // shapes with at least one stage's ratio
  // The geometric mean over the measured shapes of each one's best ratio: what picking the best
  // stage per shape (as cuBLAS picks a kernel per shape) would reach; 0 when none.
  double best_geomean = 0;
};

// The sweep over `shapes` (empty: every GEMM shape in the rows, in the order they first appear)
// of the stages timed against `reference` (a reference id, "cublas-fp16": the stages whose track
// divides by it, stages.def; empty: every stage). Reference rows ("cublas*") are no column; a
// stage measured twice at a shape keeps its last row (the newer run appended to a file).
ShapeSweep shape_sweep(const std::vector<SweepRow>& rows, const std::vector<GemmCoord>& shapes,
                       const std::string& reference = "");

// The references the rows' stages are timed against, in the order their first stage appears.
std::vector<std::string> sweep_references(const std::vector<SweepRow>& rows);

}  // namespace gemmlab
