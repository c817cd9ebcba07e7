// The Kernels view's shape sweep (gemmlab/shape_sweep.h) on a results file in the shipped format
// (sim/tests/data/results_issue51_sweep.json: issue 51's measured table as rows, with a failed
// run, an fp32 stage and a re-run appended).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gemmlab/shape_sweep.h"

using namespace gemmlab;

namespace {

std::vector<SweepRow> fixture_rows() {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/results_issue51_sweep.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  std::vector<SweepRow> rows;
  for (const auto& r : j.at("results"))
    rows.push_back({r.at("stage"), r.at("track"), {r.at("m"), r.at("n"), r.at("k")}, r.at("ratio_to_cublas")});
  return rows;
}

TEST(ShapeSweep, IssueTableFromAResultsFile) {
  const ShapeSweep sw = shape_sweep(fixture_rows(), issue51_shapes(), "hopper");
  ASSERT_EQ(sw.shapes.size(), 12u);
  ASSERT_EQ(sw.stages.size(), 2u);  // cuBLAS is the reference; "cluster" only failed
  EXPECT_EQ(sw.stages[0].stage, "persistent");  // the results' order: persistent's first row comes first
  EXPECT_EQ(sw.stages[1].stage, "wgmma");
  const SweepStage& p = sw.stages[0];
  EXPECT_EQ(p.measured, 12);
  EXPECT_EQ(p.wins, 5);  // 100.0 (as fast as cuBLAS), 103.7, 102.4, 102.5, 104.3
  EXPECT_DOUBLE_EQ(p.ratio[1], 1.037);
  EXPECT_EQ(p.worst, 7);  // 1024^3: 50.5%
  EXPECT_NEAR(p.geomean, 0.845636, 1e-6);
  const SweepStage& w = sw.stages[1];
  EXPECT_EQ(w.measured, 8);  // the first four shapes were not measured for wgmma
  EXPECT_EQ(w.ratio[0], 0.0);
  EXPECT_DOUBLE_EQ(w.ratio[11], 0.30);  // the re-run appended later replaces 25.2%
  EXPECT_EQ(w.wins, 0);
  EXPECT_EQ(w.worst, 11);
  EXPECT_NEAR(w.geomean, 0.685249, 1e-6);
  // Best per shape: persistent except 1024^3 (78.2 > 50.5) and 128 x 8192 x 8192 (75.5 > 71.9).
  const std::vector<int> best = {0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0};
  EXPECT_EQ(sw.best, best);
  EXPECT_EQ(sw.shapes_measured, 12);
}

TEST(ShapeSweep, ShapesFromTheRowsAndTracks) {
  const std::vector<SweepRow> rows = fixture_rows();
  const ShapeSweep all = shape_sweep(rows, {});
  EXPECT_EQ(all.shapes.size(), 13u);  // the table's 12 and the fp32 row's 4096^3
  EXPECT_EQ(all.shapes[12].m, 4096);
  EXPECT_EQ(all.shapes[12].k, 4096);
  ASSERT_EQ(all.stages.size(), 3u);
  EXPECT_EQ(all.stages[2].stage, "simt-tile");
  EXPECT_EQ(all.stages[2].measured, 1);
  EXPECT_DOUBLE_EQ(all.stages[2].geomean, 0.8);
  // A shape no stage ran has no best stage; a track without rows gives an empty table.
  const ShapeSweep odd = shape_sweep(rows, {{4096, 8192, 8192}, {3, 5, 7}}, "hopper");
  EXPECT_EQ(odd.best[1], -1);
  EXPECT_EQ(odd.shapes_measured, 1);
  EXPECT_TRUE(shape_sweep(rows, issue51_shapes(), "conv").stages.empty());
  // Not-measured ratios (0, negative, NaN, infinite) are never a value of the table.
  const std::vector<SweepRow> bad = {{"wgmma", "hopper", {16, 8192, 8192}, -1.0},
                                     {"wgmma", "hopper", {16, 8192, 8192}, std::nan("")},
                                     {"wgmma", "hopper", {16, 8192, 8192}, INFINITY}};
  EXPECT_TRUE(shape_sweep(bad, issue51_shapes()).stages.empty());
}

}  // namespace
