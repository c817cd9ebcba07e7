// The Kernels view's sweep inputs (model/results_sweep.h) on the shipped results: the GEMM rows of
// a file as the simulator's sweep rows, the reference chosen, the step's stages, the learner's
// runs joined newest last, and the device the launch facts are planned on.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "model/results_sweep.h"

namespace gemmlab::app {
namespace {

const std::string kResults = std::string(GEMMLAB_ROOT_DIR) + "/assets/results/";

BenchResults load(const std::string& name) {
  auto r = load_bench_results(kResults + name);
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error());
  return r ? *r : BenchResults{};
}

TEST(ResultsSweep, TheShippedSweepFileAgainstCublasFp16) {
  const BenchResults shapes = load("nvidia-h200-shapes.json");
  const std::vector<SweepRow> rows = sweep_rows({&shapes}, {});
  EXPECT_EQ(rows.size(), 72u);  // 12 shapes x (cuBLAS + 5 stages)
  EXPECT_EQ(sweep_reference(rows), "cublas-fp16");
  const ShapeSweep sw = shape_sweep(rows, {}, "cublas-fp16");
  ASSERT_EQ(sw.shapes.size(), 12u);
  EXPECT_EQ(sw.shapes[10].m, 16);  // the file's order: decode's M = 16 is the eleventh shape
  ASSERT_EQ(sw.stages.size(), 5u);
  EXPECT_NEAR(sw.best_geomean, 0.913956, 1e-6);
  // The step's stages only: without stage 19 the best per shape falls (M = 16: stage 16's 49.4%).
  const ShapeSweep four = shape_sweep(sweep_rows({&shapes}, {"epilogue", "wgmma", "warp-specialized", "cluster"}),
                                      {}, "cublas-fp16");
  ASSERT_EQ(four.stages.size(), 4u);
  EXPECT_EQ(four.stages[size_t(four.best[10])].stage, "wgmma");
  EXPECT_LT(four.best_geomean, sw.best_geomean);
}

TEST(ResultsSweep, ALadderFileHasTwoReferencesAndNoConvolutionRows) {
  const BenchResults ladder = load("nvidia-h200.json"), conv = load("nvidia-h200-conv.json");
  const std::vector<SweepRow> rows = sweep_rows({&ladder, &conv}, {});
  EXPECT_EQ(rows.size(), ladder.results.size());  // every convolution row left out
  EXPECT_EQ(sweep_references(rows), (std::vector<std::string>{"cublas-fp32", "cublas-fp16"}));
  EXPECT_EQ(sweep_reference(rows), "cublas-fp16");  // the fp16 stages, though fp32 come first
  const ShapeSweep fp32 = shape_sweep(rows, {}, "cublas-fp32");
  EXPECT_EQ(fp32.stages.front().stage, "naive-uncoalesced");
  EXPECT_EQ(fp32.shapes.size(), 7u);
}

// Two runs of the learner on one GPU: the newer row of a stage at a shape wins.
TEST(ResultsSweep, TheNewerRunWins) {
  BenchResults older = load("nvidia-h200-shapes.json"), newer = older;
  for (BenchResult& r : newer.results) r.ratio_to_cublas = r.is_reference() ? 1.0 : 0.5;
  const ShapeSweep sw = shape_sweep(sweep_rows({&older, &newer}, {}), {}, "cublas-fp16");
  EXPECT_DOUBLE_EQ(sw.best_geomean, 0.5);
  EXPECT_NEAR(shape_sweep(sweep_rows({&newer, &older}, {}), {}, "cublas-fp16").best_geomean, 0.913956, 1e-6);
}

// The dispatcher's rows (stage 19c, `auto`) join the table as one more stage, after the ladder's:
// here each a point above the best stage at its shape, so it is the best of every shape.
TEST(ResultsSweep, TheDispatchersRowsAreOneMoreStage) {
  BenchResults shapes = load("nvidia-h200-shapes.json");
  std::map<std::string, double> best;
  auto key = [](const BenchResult& r) { return std::to_string(r.m) + "x" + std::to_string(r.n) + "x" + std::to_string(r.k); };
  for (const BenchResult& r : shapes.results)
    if (!r.is_reference()) best[key(r)] = std::max(best[key(r)], r.ratio_to_cublas);
  const std::vector<BenchResult> ladder = shapes.results;
  for (const BenchResult& r : ladder)
    if (r.stage == "persistent") {
      BenchResult a = r;
      a.stage = "auto";
      a.ratio_to_cublas = best[key(r)] + 0.01;
      shapes.results.push_back(a);
    }
  const ShapeSweep sw = shape_sweep(sweep_rows({&shapes}, {}), {}, "cublas-fp16");
  ASSERT_EQ(sw.stages.size(), 6u);
  EXPECT_EQ(sw.stages.back().stage, "auto");
  for (size_t r = 0; r < sw.shapes.size(); ++r) EXPECT_EQ(sw.best[r], 5) << r;
  EXPECT_GT(sw.best_geomean, 0.913956 + 0.009);
  // A step that lists the dispatcher beside the stage it most often runs.
  EXPECT_EQ(shape_sweep(sweep_rows({&shapes}, {"persistent", "auto"}), {}, "cublas-fp16").stages.size(), 2u);
}

BenchDevice gpu(const std::string& name, int sms) {
  BenchDevice d;
  d.name = name, d.sms = sms;
  return d;
}

TEST(ResultsSweep, TheDeviceIsThePresetWithTheFilesSmCount) {
  auto h200 = sweep_device(gpu("NVIDIA H200", 132));
  ASSERT_TRUE(h200.ok());
  EXPECT_EQ(h200->sms, 132);
  auto pcie = sweep_device(gpu("NVIDIA H100 PCIe", 114));  // the H100 preset with the PCIe card's SMs
  ASSERT_TRUE(pcie.ok());
  EXPECT_EQ(pcie->sms, 114);
  EXPECT_FALSE(sweep_device(gpu("Some GPU", 10)).ok());
}

}  // namespace
}  // namespace gemmlab::app
