// The shape sweep of the Kernels view (issue 51): each stage's time ratio to cuBLAS over a set of
// GEMM shapes, from the rows of a loaded results file (assets/results/*.json: stage, track, m, n,
// k, ratio_to_cublas; the shipped file or the learner's own run), so the learner sees where each
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
};

// The shapes of issue 51's table (LLM layers, small M, long K), in its order.
const std::vector<GemmCoord>& issue51_shapes();

struct SweepStage {
  std::string stage;
  std::vector<double> ratio;  // per shape, 0 where the results hold no measurement
  int measured = 0;           // shapes with a ratio
  int wins = 0;               // shapes where it is at least as fast as cuBLAS (ratio >= 1)
  double geomean = 0;         // over the measured shapes; 0 when none
  int worst = -1;             // shape index of its lowest ratio, -1 when none
};

struct ShapeSweep {
  std::vector<GemmCoord> shapes;    // the table's columns
  std::vector<SweepStage> stages;   // its rows: stages in the results' order, references left out
  std::vector<int> best;            // per shape: the stage (index into stages) with the highest ratio, -1 if none
  int shapes_measured = 0;          // shapes with at least one stage's ratio
};

// The sweep over `shapes` (empty: every GEMM shape in the rows, in the order they first appear)
// of the stages of `track` (empty: every track). cuBLAS rows (stage "cublas*") are the reference
// and no row of the table; a stage measured twice at a shape keeps its last row (the newer run
// appended to a file).
ShapeSweep shape_sweep(const std::vector<SweepRow>& rows, const std::vector<GemmCoord>& shapes,
                       const std::string& track = "");

}  // namespace gemmlab
