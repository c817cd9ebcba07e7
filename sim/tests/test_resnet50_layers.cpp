// The ResNet-50 layer table (gemmlab/resnet50_layers.h) against the network rebuilt here block by
// block from its architecture (torchvision's resnet50: stem, max pool, bottleneck stages of
// 3, 4, 6, 3 blocks, widths 64..512, expansion 4, v1.5's stride on the 3x3).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gemmlab/resnet50_layers.h"

namespace gemmlab::conv {
namespace {

struct Conv {
  Shape shape;
  bool relu, residual;
};

auto key(const Shape& s) { return std::tuple(s.n, s.h, s.w, s.c, s.k, s.r, s.s, s.pad, s.stride, s.dilation); }

// Every convolution of one forward pass at batch 1, in order.
std::vector<Conv> walk_resnet50() {
  std::vector<Conv> out;
  const Shape stem{1, 224, 224, 3, 64, 7, 7, 3, 2, 1};
  out.push_back({stem, true, false});
  int hw = (stem.p() + 2 * 1 - 3) / 2 + 1;  // the 3x3 / 2 max pool, pad 1: 112 -> 56
  int channels = stem.k;
  const int blocks[4] = {3, 4, 6, 3};
  for (int stage = 0; stage < 4; ++stage) {
    const int width = 64 << stage, expanded = 4 * width;
    for (int b = 0; b < blocks[stage]; ++b) {
      const int stride = stage > 0 && b == 0 ? 2 : 1;
      const Shape reduce{1, hw, hw, channels, width, 1, 1, 0, 1, 1};
      const Shape three{1, hw, hw, width, width, 3, 3, 1, stride, 1};
      const Shape expand{1, three.p(), three.q(), width, expanded, 1, 1, 0, 1, 1};
      out.push_back({reduce, true, false});
      out.push_back({three, true, false});
      out.push_back({expand, true, true});
      if (b == 0) out.push_back({{1, hw, hw, channels, expanded, 1, 1, 0, stride, 1}, false, false});
      hw = three.p();
      channels = expanded;
    }
  }
  return out;
}

TEST(ResNet50Layers, TableIsTheNetworksDistinctConvolutionsWithTheirCounts) {
  const std::vector<Conv> net = walk_resnet50();
  EXPECT_EQ(net.size(), 53u);  // 1 stem + 16 blocks x 3 + 4 downsamples
  std::map<decltype(key(Shape{})), int> counts;
  for (const Conv& c : net) ++counts[key(c.shape)];
  ASSERT_EQ(std::size(kResNet50Layers), counts.size());  // 23: conv2_x's downsample is its expand's shape
  int total = 0;
  for (const NetworkLayer& l : kResNet50Layers) {
    SCOPED_TRACE(l.name);
    ASSERT_TRUE(counts.count(key(l.shape)));
    EXPECT_EQ(l.count, counts[key(l.shape)]);
    total += l.count;
    // The epilogue of the shape's first convolution in the network.
    for (const Conv& c : net)
      if (key(c.shape) == key(l.shape)) {
        EXPECT_EQ(l.relu, c.relu);
        EXPECT_EQ(l.residual, c.residual);
        break;
      }
  }
  EXPECT_EQ(total, int(net.size()));
}

TEST(ResNet50Layers, StemMapsTheImageTo112x112AndTheLastStageIs7x7) {
  const Shape stem = kResNet50Layers[0].shape;
  EXPECT_EQ(stem.c, 3);
  EXPECT_EQ(stem.p(), 112);
  EXPECT_EQ(stem.q(), 112);
  const Shape last = kResNet50Layers[std::size(kResNet50Layers) - 1].shape;
  EXPECT_EQ(last.p(), 7);
  // Every stride-2 layer halves its input: 56 -> 28 -> 14 -> 7.
  for (const NetworkLayer& l : kResNet50Layers)
    if (l.shape.stride == 2 && l.shape.r != 7) EXPECT_EQ(l.shape.p() * 2, l.shape.h) << l.name;
}

// ResNet-50 is quoted at about 4.1 G multiply-adds per 224 x 224 image (torchvision: 4.09 GFLOPS
// counted as multiply-adds), nearly all in its convolutions (the classifier adds 2048 x 1000).
TEST(ResNet50Layers, MultiplyAddsPerImageMatchTheNetworksQuotedCost) {
  double table = 0, walked = 0;
  for (const NetworkLayer& l : kResNet50Layers) table += l.count * l.shape.flops() / 2;
  for (const Conv& c : walk_resnet50()) walked += c.shape.flops() / 2;
  EXPECT_DOUBLE_EQ(table, walked);
  const double with_classifier = table + 2048.0 * 1000;
  EXPECT_NEAR(with_classifier / 1e9, 4.09, 0.01);
  // At the bench's batch 32 each layer's implicit GEMM is 32x its rows: the same total x 32.
  double batch = 0;
  for (const NetworkLayer& l : resnet50_layers(32)) batch += l.count * l.shape.flops() / 2;
  EXPECT_DOUBLE_EQ(batch, 32 * table);
}

// Results and lessons name a convolution by its implicit GEMM's size (RESULTS.md), which does not
// tell a stage's strided 3x3 from its other 3x3s (56x56 / 2 and 28x28 give 25088 x 128 x 1152 both):
// the bench's rows carry the conv shape and the layer's name beside it. Every other size is one layer's.
TEST(ResNet50Layers, NamesAreDistinctAndImplicitGemmSizesOnlyJoinTheStridedThreeByThrees) {
  std::map<std::tuple<long long, int, long long>, std::vector<std::string>> by_size;
  std::set<std::string> names;
  for (const NetworkLayer& l : resnet50_layers(32)) {
    by_size[{l.shape.gemm_m(), l.shape.gemm_n(), l.shape.gemm_k()}].push_back(l.name);
    EXPECT_TRUE(names.insert(l.name).second) << l.name;
    EXPECT_EQ(l.shape.n, 32);
    EXPECT_EQ(check_problem(l.shape), nullptr) << l.name;
  }
  int shared = 0;
  for (const auto& [size, layers] : by_size) {
    if (layers.size() == 1) continue;
    ++shared;
    ASSERT_EQ(layers.size(), 2u);
    EXPECT_EQ(layers[0] + "", layers[1].substr(0, 8) + "3x3/2") << "the strided 3x3 comes first";
  }
  EXPECT_EQ(shared, 3);  // conv3_x, conv4_x, conv5_x
  EXPECT_EQ(resnet50_layers(32)[0].shape.gemm_m(), 32ll * 112 * 112);  // the stem: 401408 x 64 x 147
  EXPECT_EQ(resnet50_layers(32)[0].shape.gemm_k(), 147);
}

}  // namespace
}  // namespace gemmlab::conv
