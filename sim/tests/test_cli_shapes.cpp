// The shapes users run, through the CLI: `gemmlab sim conv` on any C with --alignment, and
// `gemmlab sim dispatch`.
#include <gtest/gtest.h>

#include <sstream>

#include "support.h"

using gemmlab::test::run_gemmlab;

namespace {

void expect_usage_error(const std::vector<std::string>& args, const std::string& message) {
  const auto r = run_gemmlab(args);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
}

// The ResNet-50 stem (C = 3) maps with 1-element loads; C = 12 with 4; the conv stages' 16-byte
// rule is reported, not enforced.
TEST(CliShapes, ConvMapsAnyC) {
  auto r = run_gemmlab({"sim", "conv", "--problem", "32,224,224,3,64,7,7,3,2", "--row", "113", "--col", "100", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"gemm\":[401408,64,147]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"alignment\":{\"elements\":1,\"bytes\":2}"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"kernels\":\"C must be a multiple of 8 for 16-byte fp16 loads\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"npq\":[0,1,1]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"rsc\":[4,5,1]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"input\":[0,3,4,1]"), std::string::npos) << r.out;
  r = run_gemmlab({"sim", "conv", "--problem", "1,8,8,12,8,3,3,1,1", "--row", "9", "--col", "15", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"alignment\":{\"elements\":4,\"bytes\":8}"), std::string::npos) << r.out;
  // Column 15 = tap (0, 1, 3): its load starts at column 12, channel 0 of input (0, 0, 1).
  EXPECT_NE(r.out.find("\"access\":{\"first_col\":12,\"elements\":4,\"input\":[0,0,1,0],\"in_tensor\":true}"),
            std::string::npos) << r.out;
  r = run_gemmlab({"sim", "conv", "--problem", "32,56,56,64,64,3,3,1,1", "--json"});
  EXPECT_NE(r.out.find("\"alignment\":{\"elements\":8,\"bytes\":16},\"kernels\":\"ok\""), std::string::npos) << r.out;
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,12,8,3,3,1,1", "--alignment", "8"}, "the alignment must divide C");
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,12,8,3,3,1,1", "--alignment", "3"}, "1, 2, 4, 8, 16 or 32");
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,3,8,3,3,1,1", "--element", "s4"}, "int4 loads need an even C");
}

TEST(CliShapes, DispatchSaysWhy) {
  auto r = run_gemmlab({"sim", "dispatch", "--problem", "16,8192,8192", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"sms\":132,\"tile\":[64,128,64],\"tiles\":[1,64],\"k_tiles\":128,\"cluster\":[1,1],"
                       "\"split\":\"split-k\",\"splits\":2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"explanation\":\"M = 16: 1 wave of 64 tiles of 64 x 128 would fill 48% of the 132 SMs"),
            std::string::npos) << r.out;
  r = run_gemmlab({"sim", "dispatch", "--problem", "64,28672,8192", "--device", "h100", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"stream_k\":{\"dp_tiles\":0,\"sk_blocks\":132}"), std::string::npos) << r.out;
  expect_usage_error({"sim", "dispatch", "--problem", "0,8,8"}, "--problem M,N,K: each must be 1 .. 1048576");
  expect_usage_error({"sim", "dispatch", "--problem", "8,8,8", "--device", "tpu"}, "tpu");
  expect_usage_error({"sim", "dispatch", "--problem", "8,8,8", "--tile", "64,64"}, "--tile");
}

// `gemmlab sim dispatch --help` shows its options and an example that runs as written.
TEST(CliShapes, DispatchHasHelpAndAWorkingExample) {
  const auto h = run_gemmlab({"sim", "dispatch", "--help"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_NE(h.out.find("gemmlab sim dispatch --problem M,N,K"), std::string::npos) << h.out;
  const size_t at = h.out.find("example: gemmlab ");
  ASSERT_NE(at, std::string::npos) << h.out;
  std::istringstream line(h.out.substr(at + std::string("example: gemmlab ").size()));
  std::vector<std::string> args;
  for (std::string w; line >> w;) args.push_back(w);
  const auto r = run_gemmlab(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.front(), '{');
}

}  // namespace
