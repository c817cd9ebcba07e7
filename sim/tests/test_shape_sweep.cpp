// The Kernels view's shape sweep (gemmlab/shape_sweep.h) on results files in the shipped format:
// sim/tests/data/results_issue51_sweep.json (issue 51's measured table as rows, with a failed run,
// an fp32 stage and a re-run appended) and the shipped assets/results/nvidia-h200-shapes.json.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "gemmlab/shape_sweep.h"

using namespace gemmlab;

namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::vector<SweepRow> rows_of(const nlohmann::json& j) {
  std::vector<SweepRow> rows;
  for (const auto& r : j.at("results"))
    rows.push_back({r.at("stage"), r.at("track"), {r.at("m"), r.at("n"), r.at("k")}, r.at("ratio_to_cublas"), r.at("ok")});
  return rows;
}

std::vector<SweepRow> fixture_rows() { return rows_of(read_json(std::string(GEMMLAB_TEST_DATA) + "/results_issue51_sweep.json")); }

TEST(ShapeSweep, IssueTableFromAResultsFile) {
  const ShapeSweep sw = shape_sweep(fixture_rows(), issue51_shapes(), "cublas-fp16");
  ASSERT_EQ(sw.shapes.size(), 12u);
  ASSERT_EQ(sw.stages.size(), 3u);  // cuBLAS is the reference; "cluster" only failed, and says so
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
  // A wrong result is no measurement, but the table shows it.
  const SweepStage& c = sw.stages[2];
  EXPECT_EQ(c.stage, "cluster");
  EXPECT_EQ(c.measured, 0);
  EXPECT_EQ(c.wrong[0], 1);
  EXPECT_EQ(c.wrong[1], 0);
  EXPECT_EQ(c.geomean, 0.0);
  EXPECT_EQ(c.worst, -1);
  // Best per shape: persistent except 1024^3 (78.2 > 50.5) and 128 x 8192 x 8192 (75.5 > 71.9).
  const std::vector<int> best = {0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0};
  EXPECT_EQ(sw.best, best);
  EXPECT_EQ(sw.shapes_measured, 12);
  EXPECT_NEAR(sw.best_geomean, 0.880598, 1e-6);  // persistent's 0.845636 with 78.2 and 75.5 for 50.5 and 71.9
}

TEST(ShapeSweep, ShapesFromTheRowsAndReferences) {
  const std::vector<SweepRow> rows = fixture_rows();
  const ShapeSweep all = shape_sweep(rows, {});
  EXPECT_EQ(all.shapes.size(), 13u);  // the table's 12 and the fp32 row's 4096^3
  EXPECT_EQ(all.shapes[12].m, 4096);
  EXPECT_EQ(all.shapes[12].k, 4096);
  ASSERT_EQ(all.stages.size(), 4u);
  EXPECT_EQ(all.stages[3].stage, "simt-tile");
  EXPECT_EQ(all.stages[3].measured, 1);
  EXPECT_DOUBLE_EQ(all.stages[3].geomean, 0.8);
  // Against cuBLAS fp32 only the fp32 stage is a column; against im2col + cuBLAS nothing.
  const ShapeSweep fp32 = shape_sweep(rows, {}, "cublas-fp32");
  ASSERT_EQ(fp32.stages.size(), 1u);
  EXPECT_EQ(fp32.stages[0].stage, "simt-tile");
  ASSERT_EQ(fp32.shapes.size(), 1u);
  EXPECT_DOUBLE_EQ(fp32.best_geomean, 0.8);
  EXPECT_TRUE(shape_sweep(rows, issue51_shapes(), "im2col-cublas").stages.empty());
  EXPECT_EQ(sweep_references(rows), (std::vector<std::string>{"cublas-fp16", "cublas-fp32"}));
  // A shape no stage ran has no best stage and is no part of the geometric mean.
  const ShapeSweep odd = shape_sweep(rows, {{4096, 8192, 8192}, {3, 5, 7}}, "cublas-fp16");
  EXPECT_EQ(odd.best[1], -1);
  EXPECT_EQ(odd.shapes_measured, 1);
  EXPECT_DOUBLE_EQ(odd.best_geomean, 1.0);
  // Not-measured ratios (0, negative, NaN, infinite) are never a value of the table.
  const std::vector<SweepRow> bad = {{"wgmma", "hopper", {16, 8192, 8192}, -1.0},
                                     {"wgmma", "hopper", {16, 8192, 8192}, std::nan("")},
                                     {"wgmma", "hopper", {16, 8192, 8192}, INFINITY}};
  EXPECT_TRUE(shape_sweep(bad, issue51_shapes()).stages.empty());
  // A newer run that failed replaces an older win; one that timed nothing changes nothing.
  const std::vector<SweepRow> rerun = {{"wgmma", "hopper", {16, 8192, 8192}, 1.2},
                                       {"wgmma", "hopper", {16, 8192, 8192}, 0.0},
                                       {"persistent", "hopper", {16, 8192, 8192}, 1.1},
                                       {"persistent", "hopper", {16, 8192, 8192}, 1.3, false}};
  const ShapeSweep re = shape_sweep(rerun, {});
  ASSERT_EQ(re.stages.size(), 2u);
  EXPECT_DOUBLE_EQ(re.stages[0].ratio[0], 1.2);
  EXPECT_EQ(re.stages[1].ratio[0], 0.0);
  EXPECT_EQ(re.stages[1].wrong[0], 1);
  EXPECT_EQ(re.best[0], 0);
}

// The shipped sweep (kernels/lab/tools/shape_sweep.sh on an H200): the table against the file's
// own rows, each shape's best and the geometric mean of the bests computed here from the rows.
TEST(ShapeSweep, TheShippedH200SweepAgreesWithItsRows) {
  const nlohmann::json j = read_json(std::string(GEMMLAB_TEST_DATA) + "/../../../assets/results/nvidia-h200-shapes.json");
  const ShapeSweep sw = shape_sweep(rows_of(j), {}, "cublas-fp16");
  ASSERT_EQ(sw.shapes.size(), 12u);
  ASSERT_EQ(sw.stages.size(), 5u);
  std::map<std::string, double> best;  // "MxNxK" -> the best ratio among the file's stage rows
  std::map<std::string, std::string> best_stage;
  for (const auto& r : j.at("results")) {
    const std::string stage = r.at("stage");
    if (stage.rfind("cublas", 0) == 0) continue;
    const std::string key = std::to_string(int(r.at("m"))) + "x" + std::to_string(int(r.at("n"))) + "x" +
                            std::to_string(int(r.at("k")));
    if (double(r.at("ratio_to_cublas")) > best[key]) best[key] = r.at("ratio_to_cublas"), best_stage[key] = stage;
  }
  double log_sum = 0;
  for (size_t c = 0; c < sw.shapes.size(); ++c) {
    const std::string key = std::to_string(sw.shapes[c].m) + "x" + std::to_string(sw.shapes[c].n) + "x" +
                            std::to_string(sw.shapes[c].k);
    ASSERT_GE(sw.best[c], 0) << key;
    EXPECT_EQ(sw.stages[size_t(sw.best[c])].stage, best_stage[key]) << key;
    EXPECT_DOUBLE_EQ(sw.stages[size_t(sw.best[c])].ratio[c], best[key]) << key;
    log_sum += std::log(best[key]);
  }
  EXPECT_NEAR(sw.best_geomean, std::exp(log_sum / 12), 1e-12);
  // The values as kernels/lab/results/shapes/README.md reads them for this round: stage 19 best on
  // the large shapes and the decode row M = 16 and the long K; stage 18 at 2048^3; stage 16 at
  // 1024^3 and M = 128; stage 17 at M = 64; 91.4% geometric mean of the bests.
  const std::vector<std::string> want = {"persistent", "persistent", "persistent", "persistent",
                                         "persistent", "persistent", "cluster",    "wgmma",
                                         "wgmma",      "warp-specialized", "persistent", "persistent"};
  for (size_t c = 0; c < want.size(); ++c) EXPECT_EQ(sw.stages[size_t(sw.best[c])].stage, want[c]) << c;
  EXPECT_NEAR(sw.best_geomean, 0.913956, 1e-6);
  EXPECT_EQ(sw.stages[4].stage, "persistent");
  EXPECT_EQ(sw.stages[4].wins, 5);
  EXPECT_NEAR(sw.stages[4].geomean, 0.847800, 1e-6);
  EXPECT_EQ(sw.stages[4].worst, 7);  // 1024^3
  EXPECT_EQ(sw.stages[1].worst, 11);  // wgmma's: 512 x 512 x 16384
}

}  // namespace
