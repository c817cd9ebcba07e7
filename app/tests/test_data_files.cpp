// The files the app reads besides lessons: results JSON of `gemmlab bench --json`, Nsight
// Compute CSV. The CSV fixture is a real `ncu --csv` capture of the multistage stage on an H200
// (kernels/lab/tools/fp16_session.sh); the numbers below are read off that file.
#include <gtest/gtest.h>

#include "model/files.h"
#include "model/ncu_csv.h"
#include "model/results_file.h"

namespace gemmlab::app {
namespace {

const std::string kFixtures = GEMMLAB_APP_FIXTURES;

// A results file is parsed once per size and modification time: a file rewritten (a Run saved
// over it) is read again, not served from the cache.
TEST(ResultsFile, ARewrittenFileIsReadAgain) {
  const std::string path = testing::TempDir() + "/results_cache.json";
  auto fixture = read_text_file(kFixtures + "/results/fixture.json", nullptr);
  ASSERT_TRUE(fixture.has_value());
  ASSERT_EQ(write_text_file(path, *fixture), "");
  auto first = load_bench_results(path);
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_EQ(first->device.name, "Test fixture (not a measurement)");
  auto again = load_bench_results(path);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->results.size(), first->results.size());
  std::string renamed = *fixture;
  renamed.replace(renamed.find("Test fixture"), 12, "Another device name");
  ASSERT_EQ(write_text_file(path, renamed), "");
  auto second = load_bench_results(path);
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(second->device.name, "Another device name (not a measurement)");
}

TEST(ResultsFile, ReadsTheBenchFormat) {
  auto r = load_bench_results(kFixtures + "/results/fixture.json");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->device.name, "Test fixture (not a measurement)");
  EXPECT_EQ(r->device.sms, 132);
  EXPECT_EQ(r->date, "2000-01-01T00:00:00Z");
  ASSERT_EQ(r->results.size(), 2u);
  EXPECT_TRUE(r->results[0].is_reference());
  EXPECT_EQ(r->results[1].stage, "simt-tile");
  EXPECT_DOUBLE_EQ(r->results[1].ratio_to_cublas, 0.5);
  // A file from before the "reference" fields: the ratio and median of the older ones, no name.
  EXPECT_DOUBLE_EQ(r->results[1].ratio, 0.5);
  EXPECT_DOUBLE_EQ(r->results[1].reference_ms, r->results[1].cublas_ms);
  EXPECT_EQ(r->results[1].reference, "");
  ASSERT_EQ(r->skipped.size(), 1u);
  EXPECT_EQ(r->skipped[0].reason, "too slow");
  // Saving and reading back gives the same data.
  auto again = parse_bench_results(bench_results_json(*r), "round trip");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->results.size(), 2u);
  EXPECT_DOUBLE_EQ(again->results[1].tflops, 34.4);
}

// A stage timed in turns with the stage before it (Runner::time_stage): the speed-up is that
// stage's median over this one's, and it survives a save.
TEST(ResultsFile, ReadsTheStageBeforeTimedInTurns) {
  const std::string head =
      R"({"device":{"name":"d","sms":132,"l2_bytes":1,"clock_mhz":1,"driver":"x","cuda":"13.0"},"date":"d","results":[)";
  const std::string row =
      R"({"stage":"cluster","track":"hopper","m":4096,"n":4096,"k":4096,"ms":0.2,"tflops":687.2,)"
      R"("ratio_to_cublas":0.95,"cublas_ms":0.19,"rel_err":1e-4,"ok":true,"reps":20,)"
      R"("previous_stage":"warp-specialized","previous_ms":0.202})";
  auto r = parse_bench_results(head + row + "]}", "turns.json");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->results[0].previous_stage, "warp-specialized");
  EXPECT_DOUBLE_EQ(r->results[0].speedup_over_previous(), 0.202 / 0.2);  // 1.01: 1% faster
  auto again = parse_bench_results(bench_results_json(*r), "round trip");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_DOUBLE_EQ(again->results[0].previous_ms, 0.202);
  // Files from before the field: no stage before, no speed-up.
  auto old = load_bench_results(kFixtures + "/results/fixture.json");
  ASSERT_TRUE(old.ok()) << old.error();
  EXPECT_EQ(old->results[1].speedup_over_previous(), 0.0);
  // A stage name without its time is refused by name.
  std::string bad = row;
  bad.erase(bad.find(R"(,"previous_ms":0.202)"), std::string(R"(,"previous_ms":0.202)").size());
  auto refused = parse_bench_results(head + bad + "]}", "bad.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("previous_ms"), std::string::npos) << refused.error();
}

// A row names the reference it was timed in turns with (the registry's row: id and name) and the
// ratio to it; a reference row names itself.
TEST(ResultsFile, ReadsTheReferenceARowWasTimedAgainst) {
  const std::string head =
      R"({"device":{"name":"d","sms":132,"l2_bytes":1,"clock_mhz":1,"driver":"x","cuda":"13.0"},"date":"d","results":[)";
  const std::string ref =
      R"({"stage":"cublas-fp16","track":"fp16","m":64,"n":64,"k":64,"ms":0.01,"tflops":3.2,"reference":"cublas-fp16",)"
      R"("reference_name":"cuBLAS","reference_ms":0.01,"ratio":1,"ratio_to_cublas":1,"cublas_ms":0.01,"rel_err":0,"ok":true,"reps":20},)";
  const std::string row =
      R"({"stage":"tma","track":"hopper","m":64,"n":64,"k":64,"ms":0.02,"tflops":1.6,"reference":"cublas-fp16",)"
      R"("reference_name":"cuBLAS","reference_ms":0.011,"ratio":0.55,"ratio_to_cublas":0.55,"cublas_ms":0.011,)"
      R"("rel_err":1e-4,"ok":true,"reps":20})";
  auto r = parse_bench_results(head + ref + row + "]}", "ref.json");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(r->results[0].is_reference());
  EXPECT_FALSE(r->results[1].is_reference());
  EXPECT_EQ(r->results[1].reference_name, "cuBLAS");
  EXPECT_DOUBLE_EQ(r->results[1].ratio, 0.55);
  auto again = parse_bench_results(bench_results_json(*r), "round trip");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->results[1].reference, "cublas-fp16");
  EXPECT_DOUBLE_EQ(again->results[1].reference_ms, 0.011);
  std::string bad = row;
  bad.erase(bad.find(R"("reference_ms":0.011,)"), std::string(R"("reference_ms":0.011,)").size());
  auto refused = parse_bench_results(head + bad + "]}", "bad.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("results[0] has no \"reference_ms\""), std::string::npos) << refused.error();
}

// A `gemmlab bench --conv` file: rows grouped by their convolution, ratios to the references.
TEST(ResultsFile, ReadsConvolutionRows) {
  const std::string conv = R"("conv":{"n":32,"h":56,"w":56,"c":64,"k":64,"r":3,"s":3,"pad":1,"stride":1,"dilation":1})";
  const std::string doc =
      R"({"device":{"name":"d","sms":132,"l2_bytes":1,"clock_mhz":1,"driver":"x","cuda":"13.0"},"date":"d","results":[)"
      R"({"stage":"im2col-cublas","track":"conv-fp16","m":100352,"n":64,"k":576,)" + conv +
      R"(,"ms":0.1265,"tflops":58.48,"rel_err":0,"ok":true,"reps":20},)"
      R"({"stage":"conv-fp16","track":"conv-fp16","m":100352,"n":64,"k":576,)" + conv +
      R"(,"ms":0.0478,"tflops":154.86,"ratio_to_im2col":2.589,"im2col_ms":0.1238,"ratio_to_cudnn":0.697,"cudnn_ms":0.0333,)"
      R"("rel_err":0,"ok":true,"reps":20}],"skipped":[{"stage":"conv-int4","m":9,"n":24,"k":72,)"
      R"("conv":{"n":1,"h":7,"w":7,"c":8,"k":24,"r":3,"s":3,"pad":0,"stride":2,"dilation":1},"reason":"C must be a multiple of 32"}]})";
  auto r = parse_bench_results(doc, "conv.json");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->results.size(), 2u);
  EXPECT_TRUE(r->results[0].is_reference());
  EXPECT_TRUE(r->results[1].is_conv);
  EXPECT_EQ(r->results[1].size_key(), "conv 32,56,56,64,64,3,3 pad 1 stride 1");
  EXPECT_EQ(r->results[0].size_key(), r->results[1].size_key());
  EXPECT_DOUBLE_EQ(r->results[1].ratio_to_im2col, 2.589);
  EXPECT_DOUBLE_EQ(r->results[1].ratio_to_cudnn, 0.697);
  EXPECT_EQ(r->skipped[0].size_key, "conv 1,7,7,8,24,3,3 pad 0 stride 2");
  auto again = parse_bench_results(bench_results_json(*r), "round trip");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_DOUBLE_EQ(again->results[1].cudnn_ms, 0.0333);
  EXPECT_EQ(again->results[1].conv[3], 64);
  EXPECT_EQ(again->skipped[0].size_key, "conv 1,7,7,8,24,3,3 pad 0 stride 2");
  // A conv row without its ratio to the explicit path is refused by name.
  std::string bad = doc;
  bad.erase(bad.find(R"("ratio_to_im2col":2.589,)"), std::string(R"("ratio_to_im2col":2.589,)").size());
  auto refused = parse_bench_results(bad, "bad.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("ratio_to_im2col"), std::string::npos) << refused.error();
}

TEST(ResultsFile, RefusesTheWrongShapeWithAMessage) {
  auto r = load_bench_results(kFixtures + "/results/wrong-shape.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("results[0].ms must be a number"), std::string::npos) << r.error();
  auto not_json = parse_bench_results("{\"device\": ", "x.json");
  ASSERT_FALSE(not_json.ok());
  EXPECT_NE(not_json.error().find("not JSON"), std::string::npos);
  auto lesson = parse_bench_results("{\"lessons\": []}", "lessons.json");
  ASSERT_FALSE(lesson.ok());
  EXPECT_NE(lesson.error().find("has no \"device\""), std::string::npos) << lesson.error();
  auto missing = load_bench_results(kFixtures + "/results/none.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("no such file"), std::string::npos);
}

// Numbers the app would show or export wrongly are refused with the field and its range
// (issue 15: l2_bytes 1e300 became a negative L2 size).
TEST(ResultsFile, RefusesNumbersOutOfRange) {
  const std::string head =
      R"({"device":{"name":"x","sms":132,"clock_mhz":1980,"driver":"d","cuda":"c","l2_bytes":)";
  const std::string tail = R"(},"date":"2000-01-01T00:00:00Z","results":[]})";
  auto big = parse_bench_results(head + "1e300" + tail, "big.json");
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().find("device.l2_bytes must be a number from 0 to 1e+12"), std::string::npos) << big.error();
  EXPECT_TRUE(parse_bench_results(head + "52428800" + tail, "ok.json").ok());
  const std::string row =
      R"({"stage":"naive","track":"fp32","m":1,"n":1,"k":1,"ms":1e200,"tflops":1,"ratio_to_cublas":1,"rel_err":0,"ok":true,"reps":3})";
  auto slow = parse_bench_results(head + "1" + R"(},"date":"d","results":[)" + row + "]}", "slow.json");
  ASSERT_FALSE(slow.ok());
  EXPECT_NE(slow.error().find("results[0].ms must be a number from 0 to 1e+08"), std::string::npos) << slow.error();
}

TEST(NcuCsv, ReadsARealCapture) {
  auto r = load_ncu_csv(kFixtures + "/ncu/multistage_h200.csv");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->kernels.size(), 1u);
  const NcuKernel& k = r->kernels[0];
  EXPECT_EQ(k.grid, "(32, 32, 1)");
  EXPECT_EQ(k.block, "(256, 1, 1)");
  EXPECT_EQ(k.metric("dram__bytes_read.sum").value_or(-1), 309039616.0);
  EXPECT_EQ(k.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum").value_or(-1), 50531785.0);
  EXPECT_EQ(k.metric("smsp__sass_inst_executed_op_ldsm.sum").value_or(-1), 12632064.0);
  EXPECT_DOUBLE_EQ(k.metric("lts__t_sector_hit_rate.pct").value_or(-1), 80.70);
  EXPECT_EQ(k.metric("launch__registers_per_thread").value_or(-1), 146.0);
  EXPECT_FALSE(k.metric("no_such_metric").has_value());
  // The profiled program's own lines are kept apart from the table.
  bool saw_size = false;
  for (const auto& line : r->preamble) saw_size |= line.find("4096x4096x4096") != std::string::npos;
  EXPECT_TRUE(saw_size);
}

TEST(NcuCsv, RawPageAndBadInput) {
  const std::string raw =
      "\"ID\",\"Kernel Name\",\"Grid Size\",\"dram__bytes_read.sum\",\"lts__t_sector_hit_rate.pct\"\n"
      "\"\",\"\",\"\",\"byte\",\"%\"\n"
      "\"0\",\"k1\",\"(2, 1, 1)\",\"1,024\",\"50.5\"\n"
      "\"1\",\"k2\",\"(4, 1, 1)\",\"2,048\",\"n/a\"\n";
  auto r = parse_ncu_csv(raw, "raw.csv");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->kernels.size(), 2u);
  EXPECT_EQ(r->kernels[0].metric("dram__bytes_read.sum").value_or(-1), 1024.0);
  EXPECT_EQ(r->kernels[0].metrics.at("dram__bytes_read.sum").unit, "byte");
  EXPECT_FALSE(r->kernels[1].metric("lts__t_sector_hit_rate.pct").has_value());

  auto none = parse_ncu_csv("hello\nworld\n", "x.csv");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().find("no ncu table"), std::string::npos);
  auto ragged = parse_ncu_csv("\"ID\",\"Kernel Name\"\n\"0\"\n", "y.csv");
  ASSERT_FALSE(ragged.ok());
  EXPECT_NE(ragged.error().find("y.csv:2"), std::string::npos) << ragged.error();
}

TEST(NcuCsv, Numbers) {
  EXPECT_EQ(parse_ncu_number("170,967,040").value_or(-1), 170967040.0);
  EXPECT_EQ(parse_ncu_number("4,558,425,343,738.39").value_or(-1), 4558425343738.39);
  EXPECT_FALSE(parse_ncu_number("n/a"));
  EXPECT_FALSE(parse_ncu_number(""));
  EXPECT_EQ(split_csv_line("\"a,b\",\"c\"\"d\",e").size(), 3u);
  EXPECT_EQ(split_csv_line("\"a,b\",\"c\"\"d\",e")[1], "c\"d");
}

}  // namespace
}  // namespace gemmlab::app
