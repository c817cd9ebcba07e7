// main() of the googletest programs of the `gpu` ctest label: exit 77 (ctest: Skipped) with
// "skipped: no GPU (why)" on a machine without a usable GPU, else run the tests.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "runner.h"

int main(int argc, char** argv) {
  if (std::string why = gemmlab::kernels::gpu_unavailable_reason(); !why.empty()) {
    std::printf("skipped: no GPU (%s)\n", why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
