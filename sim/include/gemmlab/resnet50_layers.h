// Every distinct convolution of ResNet-50 (torchvision's v1.5: the stride of a stage's first block
// sits on its 3x3, not on the 1x1 reduce), NHWC at batch n: what `gemmlab bench --conv resnet50`
// runs. Identical shapes appear once, with how often the network runs them (`count`): conv2_x's
// downsample (1x1, 64 -> 256, stride 1) is the shape of its expand layers. sim_test_resnet50_layers
// rebuilds the network block by block and checks this table against it.
//
// The epilogue is the one the network runs after the conv (batch norm folded into a per-channel
// bias): ReLU everywhere but the downsample; the residual added before the ReLU on a block's expand.
#pragma once
#include <array>

#include "gemmlab/conv_problem.h"

namespace gemmlab::conv {

struct NetworkLayer {
  const char* name;  // "conv2_x 3x3": the stage of the network, the filter, its role
  Shape shape;       // at batch 1 here; resnet50_layers(n) sets N
  int count;         // convolutions of this shape in one forward pass
  bool relu;         // ReLU after the bias (not on a downsample, whose output is the residual)
  bool residual;     // the block's input (or its downsample) added before the ReLU
};

// {n, h, w, c, k, r, s, pad, stride, dilation} at N = 1; 23 distinct shapes, 53 convolutions.
inline constexpr NetworkLayer kResNet50Layers[] = {
    {"conv1 7x7/2", {1, 224, 224, 3, 64, 7, 7, 3, 2, 1}, 1, true, false},
    {"conv2_x 1x1 reduce (block 1)", {1, 56, 56, 64, 64, 1, 1, 0, 1, 1}, 1, true, false},
    {"conv2_x 3x3", {1, 56, 56, 64, 64, 3, 3, 1, 1, 1}, 3, true, false},
    {"conv2_x 1x1 expand", {1, 56, 56, 64, 256, 1, 1, 0, 1, 1}, 4, true, true},  // + the downsample
    {"conv2_x 1x1 reduce", {1, 56, 56, 256, 64, 1, 1, 0, 1, 1}, 2, true, false},
    {"conv3_x 1x1 reduce (block 1)", {1, 56, 56, 256, 128, 1, 1, 0, 1, 1}, 1, true, false},
    {"conv3_x 3x3/2", {1, 56, 56, 128, 128, 3, 3, 1, 2, 1}, 1, true, false},
    {"conv3_x 1x1 expand", {1, 28, 28, 128, 512, 1, 1, 0, 1, 1}, 4, true, true},
    {"conv3_x 1x1 downsample/2", {1, 56, 56, 256, 512, 1, 1, 0, 2, 1}, 1, false, false},
    {"conv3_x 1x1 reduce", {1, 28, 28, 512, 128, 1, 1, 0, 1, 1}, 3, true, false},
    {"conv3_x 3x3", {1, 28, 28, 128, 128, 3, 3, 1, 1, 1}, 3, true, false},
    {"conv4_x 1x1 reduce (block 1)", {1, 28, 28, 512, 256, 1, 1, 0, 1, 1}, 1, true, false},
    {"conv4_x 3x3/2", {1, 28, 28, 256, 256, 3, 3, 1, 2, 1}, 1, true, false},
    {"conv4_x 1x1 expand", {1, 14, 14, 256, 1024, 1, 1, 0, 1, 1}, 6, true, true},
    {"conv4_x 1x1 downsample/2", {1, 28, 28, 512, 1024, 1, 1, 0, 2, 1}, 1, false, false},
    {"conv4_x 1x1 reduce", {1, 14, 14, 1024, 256, 1, 1, 0, 1, 1}, 5, true, false},
    {"conv4_x 3x3", {1, 14, 14, 256, 256, 3, 3, 1, 1, 1}, 5, true, false},
    {"conv5_x 1x1 reduce (block 1)", {1, 14, 14, 1024, 512, 1, 1, 0, 1, 1}, 1, true, false},
    {"conv5_x 3x3/2", {1, 14, 14, 512, 512, 3, 3, 1, 2, 1}, 1, true, false},
    {"conv5_x 1x1 expand", {1, 7, 7, 512, 2048, 1, 1, 0, 1, 1}, 3, true, true},
    {"conv5_x 1x1 downsample/2", {1, 14, 14, 1024, 2048, 1, 1, 0, 2, 1}, 1, false, false},
    {"conv5_x 1x1 reduce", {1, 7, 7, 2048, 512, 1, 1, 0, 1, 1}, 2, true, false},
    {"conv5_x 3x3", {1, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 2, true, false},
};

// The table at batch n (the bench's default: 32).
inline std::array<NetworkLayer, std::size(kResNet50Layers)> resnet50_layers(int n = 32) {
  std::array<NetworkLayer, std::size(kResNet50Layers)> out{};
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = kResNet50Layers[i];
    out[i].shape.n = n;
  }
  return out;
}

}  // namespace gemmlab::conv
