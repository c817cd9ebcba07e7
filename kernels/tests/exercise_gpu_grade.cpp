// Exercises graded on the GPU (kernels/exercise/grade_device_gpu.cpp): NVRTC builds the stage's
// kernel with the learner's function (stage 9 with smem_offset, stage 11 with block_tile, stage 5
// with thread_map, stage 15 with tma_box, stage 14a with im2col_offset), the runner checks it
// against cuBLAS (the convolution: im2col + cuBLAS) and times it in turns with the stage's own
// kernel; exercise 20-fp8/quantize's quantizer runs as a kernel of its own.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "catalog.h"
#include "grade_device.h"

namespace gemmlab::exercise {
namespace {

Exercise exercise(const std::string& id) {
  auto e = find_exercise(GEMMLAB_COURSE_DIR, id);
  if (!e) throw std::runtime_error(e.error());
  return *e;
}

TEST(ExerciseGpuGrade, TheReferenceIsCorrectAndAboutAsFastAsTheStage) {
  const Exercise e = exercise("09-swizzle/smem-offset");
  const DeviceGrade d = grade_on_device(e, e.reference);
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_TRUE(d.pass) << d.reason;
  // Swizzle<3,3,3> asked for every ldmatrix row instead of stepped by XOR: a little slower at most.
  EXPECT_GT(d.ratio_to_stage, 0.5) << d.reason;
  EXPECT_LT(d.ratio_to_stage, 1.5) << d.reason;
  EXPECT_NE(d.reason.find("correct against cuBLAS"), std::string::npos) << d.reason;
}

// Offsets that collide (every row past 63 lands on rows 0-63): the tile is overwritten, C is wrong.
TEST(ExerciseGpuGrade, ALayoutThatCollidesGivesAWrongC) {
  const DeviceGrade d =
      grade_on_device(exercise("09-swizzle/smem-offset"), "int smem_offset(int row, int k) { return (row * 32 + k) % 2048; }\n");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("computes a wrong C at 1024 x 1536 x 704"), std::string::npos) << d.reason;
}

TEST(ExerciseGpuGrade, ACompileErrorNamesTheLearnersLine) {
  const DeviceGrade d =
      grade_on_device(exercise("09-swizzle/smem-offset"), "int smem_offset(int row, int k) {\n  return row * 32 + q;\n}\n");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("solution.cpp(2): error"), std::string::npos) << d.reason;
}

// Stage 11's kernel with the learner's block order: the reference is correct and about as fast
// as the stage's own order; the launch order (the stub, which the host grade fails on its L2 hit
// rate) is a correct GEMM too, its speed printed beside.
TEST(ExerciseGpuGrade, BlockOrdersRunOnStage11sKernel) {
  const Exercise e = exercise("11-block-swizzle/block-order");
  const DeviceGrade ref = grade_on_device(e, e.reference);
  ASSERT_TRUE(ref.ran) << ref.reason;
  EXPECT_TRUE(ref.pass) << ref.reason;
  EXPECT_GT(ref.ratio_to_stage, 0.8) << ref.reason;
  EXPECT_NE(ref.reason.find("at 32768 x 1024 x 1024"), std::string::npos) << ref.reason;
  const DeviceGrade stub = grade_on_device(e, e.stub);
  EXPECT_TRUE(stub.pass) << stub.reason;
  std::printf("block order on the GPU: reference %.3fx, launch order %.3fx stage 11's speed\n", ref.ratio_to_stage,
              stub.ratio_to_stage);
}

// An order that computes only n tile 0: the other tiles keep the NaN poison.
TEST(ExerciseGpuGrade, AnOrderThatSkipsTilesLeavesCUnwritten) {
  const DeviceGrade d = grade_on_device(
      exercise("11-block-swizzle/block-order"),
      "void block_tile(int block, int tiles_m, int, int* m, int* n) { *m = block % tiles_m; *n = 0; }\n");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("elements are NaN or infinite"), std::string::npos) << d.reason;
}

// Stage 14a's kernel gathering A at the learner's im2col_offset, on the exercise's own problem with
// 64 output channels (one 128 x 64 block): the reference is correct, its speed beside the stage's
// printed (one small block: latency, so only a loose bound); the stub (no stride, no padding)
// reads the wrong pixels.
TEST(ExerciseGpuGrade, Im2colAddressesRunOnStage14asKernel) {
  const Exercise e = exercise("14-implicit-gemm/im2col");
  const DeviceGrade ref = grade_on_device(e, e.reference);
  ASSERT_TRUE(ref.ran) << ref.reason;
  EXPECT_TRUE(ref.pass) << ref.reason;
  EXPECT_NE(ref.reason.find("correct against im2col + cuBLAS"), std::string::npos) << ref.reason;
  EXPECT_NE(ref.reason.find("at N 2, H 7, W 7, C 8, K 64, 3 x 3 filters, pad 1, stride 2 your kernel"), std::string::npos)
      << ref.reason;
  EXPECT_GT(ref.ratio_to_stage, 0.5) << ref.reason;
  EXPECT_LT(ref.ratio_to_stage, 2.0) << ref.reason;
  const DeviceGrade stub = grade_on_device(e, e.stub);
  ASSERT_TRUE(stub.ran) << stub.reason;
  EXPECT_FALSE(stub.pass) << stub.reason;
  std::printf("im2col on the GPU: reference %.3fx stage 14a's speed (%s)\n", ref.ratio_to_stage, ref.reason.c_str());
}

// The padding forgotten: a window pixel outside the image is clamped to its edge and read instead
// of a zero.
TEST(ExerciseGpuGrade, AnIm2colThatForgetsThePaddingGivesAWrongOutput) {
  const DeviceGrade d = grade_on_device(exercise("14-implicit-gemm/im2col"), R"(
long long im2col_offset(int row, int col) {
  const int H = 7, W = 7, C = 8, S = 3, P = 4, Q = 4;
  const int n = row / (P * Q), p = (row / Q) % P, q = row % Q;
  const int r = col / (C * S), s = (col / C) % S, c = col % C;
  int h = p * 2 - 1 + r, w = q * 2 - 1 + s;
  h = h < 0 ? 0 : h >= H ? H - 1 : h;
  w = w < 0 ? 0 : w >= W ? W - 1 : w;
  return ((1LL * n * H + h) * W + w) * C + c;
}
)");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("stage 14a's kernel with your function computes a wrong output at N 2, H 7, W 7, C 8, K 64"),
            std::string::npos)
      << d.reason;
  EXPECT_NE(d.reason.find("relative error"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("against im2col + cuBLAS"), std::string::npos) << d.reason;
}

// Row and column swapped: images up to n 4 of 2, offsets past the input, which the harness clamps
// into it (a wrong output, no fault; the next tests still run on the same GPU context).
TEST(ExerciseGpuGrade, AnIm2colWithRowAndColumnSwappedGivesAWrongOutput) {
  const DeviceGrade d = grade_on_device(exercise("14-implicit-gemm/im2col"), R"(
long long im2col_offset(int col, int row) {
  const int H = 7, W = 7, C = 8, S = 3, P = 4, Q = 4;
  const int n = row / (P * Q), p = (row / Q) % P, q = row % Q;
  const int r = col / (C * S), s = (col / C) % S, c = col % C;
  const int h = p * 2 - 1 + r, w = q * 2 - 1 + s;
  if (h < 0 || h >= H || w < 0 || w >= W) return -1;
  return ((1LL * n * H + h) * W + w) * C + c;
}
)");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("computes a wrong output at N 2, H 7, W 7, C 8, K 64"), std::string::npos) << d.reason;
}

// A grader kind no harness serves (an exercise of another course, or one written before its
// harness): the host grade stands alone, and nothing was built.
TEST(ExerciseGpuGrade, AnExerciseWithoutAHarnessSaysSo) {
  Exercise e;
  e.id = "99-elsewhere/no-harness";
  e.grader = "no-such-grader";
  e.stage = "simt-tile";
  const DeviceGrade d = grade_on_device(e, "int f() { return 0; }\n");
  EXPECT_FALSE(d.ran);
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("no GPU harness yet"), std::string::npos) << d.reason;
}

// Stage 5's kernel with the learner's thread map for A's 128 x 8 k-tile. The reference is the
// stage's own stripmined map: correct and nearly as fast (0.905x on an H200: the harness holds the
// learner's 4 offsets per thread where the stage steps one offset by a constant). A bijection that
// puts each lane of a warp in its own 128-byte line (32 lines per access where the stage touches
// 1) is correct too, and slower: 0.438x on the H200.
TEST(ExerciseGpuGrade, ThreadMapsRunOnStage5sKernel) {
  const Exercise e = exercise("04-thread-maps/coalesced-map");
  const DeviceGrade ref = grade_on_device(e, e.reference);
  ASSERT_TRUE(ref.ran) << ref.reason;
  EXPECT_TRUE(ref.pass) << ref.reason;
  EXPECT_GT(ref.ratio_to_stage, 0.8) << ref.reason;
  EXPECT_LT(ref.ratio_to_stage, 1.1) << ref.reason;
  EXPECT_NE(ref.reason.find("at 4096 x 4096 x 4096"), std::string::npos) << ref.reason;
  const DeviceGrade scattered = grade_on_device(
      e, "int thread_map(int thread, int access) {\n  int lane = thread % 32, warp = thread / 32;\n"
         "  return (lane / 4) * 128 + 32 * (lane % 4) + 4 * warp + access;\n}\n");
  ASSERT_TRUE(scattered.ran) << scattered.reason;
  EXPECT_TRUE(scattered.pass) << scattered.reason;
  EXPECT_LT(scattered.ratio_to_stage, 0.8) << scattered.reason;
  std::printf("thread maps on the GPU: stripmined %.3fx, one line per lane %.3fx stage 5's speed\n",
              ref.ratio_to_stage, scattered.ratio_to_stage);
}

// Threads t and t + 128 load the same element, and the odd k rows of A's tile are never loaded.
TEST(ExerciseGpuGrade, AThreadMapThatLoadsAnElementTwiceGivesAWrongC) {
  const DeviceGrade d =
      grade_on_device(exercise("04-thread-maps/coalesced-map"),
                      "int thread_map(int thread, int access) { return thread % 128 + 256 * access; }\n");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("computes a wrong C at 1024 x 1536 x 704"), std::string::npos) << d.reason;
}

bool on_sm90() {
  int device = 0, major = 0, minor = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
         cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess && major == 9 &&
         minor == 0;
}

// Stage 15's kernel with the learner's TMA box coordinates, on the host grade's 512 x 512 x 512
// (a problem this small times noisily: the reference is the stage's own boxes). Elsewhere than
// on an sm_90 GPU the grade says why it did not run.
TEST(ExerciseGpuGrade, TmaBoxesRunOnStage15sKernel) {
  const Exercise e = exercise("15-tma/box-coords");
  const DeviceGrade ref = grade_on_device(e, e.reference);
  if (!on_sm90()) {
    EXPECT_FALSE(ref.ran);
    EXPECT_NE(ref.reason.find("not graded on a GPU: stage 15 needs an sm_90 GPU"), std::string::npos) << ref.reason;
    return;
  }
  ASSERT_TRUE(ref.ran) << ref.reason;
  EXPECT_TRUE(ref.pass) << ref.reason;
  EXPECT_GT(ref.ratio_to_stage, 0.8) << ref.reason;
  EXPECT_LT(ref.ratio_to_stage, 1.25) << ref.reason;
  EXPECT_NE(ref.reason.find("at 512 x 512 x 512"), std::string::npos) << ref.reason;
  std::printf("TMA boxes on the GPU: reference %.3fx stage 15's speed\n", ref.ratio_to_stage);
}

// Every box one k-tile late: the block sums k 64 .. K + 63, the last tile zeros past K.
TEST(ExerciseGpuGrade, ABoxOneKTileLateGivesAWrongC) {
  if (!on_sm90()) GTEST_SKIP() << "stage 15 runs on sm_90 only (TmaBoxesRunOnStage15sKernel checks that verdict)";
  const DeviceGrade d = grade_on_device(
      exercise("15-tma/box-coords"),
      "void tma_box(int operand, int m_block, int n_block, int k_tile, int* inner, int* outer) {\n"
      "  *inner = 64 * (k_tile + 1);\n  *outer = operand == 0 ? 128 * m_block : 256 * n_block;\n}\n");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("computes a wrong C at 512 x 512 x 512"), std::string::npos) << d.reason;
}

// Stage 17's kernel with the learner's phase plan (mbarrier_parity_harness.cuh): the reference is
// correct and about as fast as the stage's own waits (the harness's bounds on its waits and the
// consumers' vote before each k-tile cost little). Elsewhere than on an sm_90 GPU the grade says
// why it did not run.
TEST(ExerciseGpuGrade, MbarrierPlansRunOnStage17sKernel) {
  const Exercise e = exercise("17-warp-specialized/mbarrier-parity");
  const DeviceGrade d = grade_on_device(e, e.reference);
  if (!on_sm90()) {
    EXPECT_FALSE(d.ran);
    EXPECT_NE(d.reason.find("not graded on a GPU: stage 17 needs an sm_90 GPU"), std::string::npos) << d.reason;
    return;
  }
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_TRUE(d.pass) << d.reason;
  EXPECT_NE(d.reason.find("at 4096 x 4096 x 2048"), std::string::npos) << d.reason;
  std::printf("mbarrier plan on the GPU: the reference at %.3fx stage 17's speed\n", d.ratio_to_stage);
  EXPECT_GT(d.ratio_to_stage, 0.8) << d.reason;
  EXPECT_LT(d.ratio_to_stage, 1.25) << d.reason;
}

// A consumer that waits for the phase before, which has already completed: it reads stages before
// their TMA has landed (a wrong C), or the ring falls out of step and stops (a deadlock, caught).
TEST(ExerciseGpuGrade, AConsumerThatDoesNotWaitIsCaught) {
  if (!on_sm90()) GTEST_SKIP() << "stage 17 runs on sm_90 only (MbarrierPlansRunOnStage17sKernel checks that verdict)";
  const DeviceGrade d = grade_on_device(exercise("17-warp-specialized/mbarrier-parity"),
                                        "int full_parity(int k, int s) { return ((k / s) & 1) ^ 1; }\n"
                                        "int empty_parity(int k, int s) { return ((k / s) & 1) ^ 1; }\n");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_TRUE(d.reason.find("computes a wrong C at 1024 x 1024 x 2048") != std::string::npos ||
              d.reason.find("your plan deadlocks on the GPU") != std::string::npos)
      << d.reason;
  std::printf("a consumer that does not wait: %s\n", d.reason.c_str());
}

// A producer that waits on a fresh empty barrier for parity 0 (the consumers' parity): nothing is
// ever issued, so both sides wait for good. The harness's waits give up after 100 ms, the grade
// says where, and the CUDA context survives: the reference passes after it.
TEST(ExerciseGpuGrade, AProducerWaitingForTheWrongPhaseDeadlocksAndIsReported) {
  if (!on_sm90()) GTEST_SKIP() << "stage 17 runs on sm_90 only (MbarrierPlansRunOnStage17sKernel checks that verdict)";
  const Exercise e = exercise("17-warp-specialized/mbarrier-parity");
  const auto start = std::chrono::steady_clock::now();
  const DeviceGrade d = grade_on_device(e,
                                        "int full_parity(int k, int s) { return (k / s) & 1; }\n"
                                        "int empty_parity(int k, int s) { return (k / s) & 1; }\n");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_LT(seconds, 10.0) << d.reason;
  EXPECT_NE(d.reason.find("your plan deadlocks on the GPU: the producer waited on empty[0] for parity 0 before "
                          "k-tile 0 and the consumer on full[0] for parity 0 before k-tile 0"),
            std::string::npos)
      << d.reason;
  std::printf("a producer waiting for the wrong phase, graded in %.1f s: %s\n", seconds, d.reason.c_str());
  const DeviceGrade after = grade_on_device(e, e.reference);
  EXPECT_TRUE(after.pass) << after.reason;
}

// Exercise 20-fp8/quantize (fp8_quantize_harness.cuh): the learner's quantizer as a kernel of its own
// on any GPU, one thread per 1 x 128 block of a 2048 x 7168 activation, compared bit for bit with the
// simulator's quantizer. The reference against itself (the lesson's solution) times about even.
TEST(ExerciseGpuGrade, Fp8QuantizeReferenceGivesTheSimulatorsBitsOnTheGpu) {
  const Exercise e = exercise("20-fp8/quantize");
  const DeviceGrade d = grade_on_device(e, e.reference);
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_TRUE(d.pass) << d.reason;
  EXPECT_EQ(d.reason.rfind("the same codes and scales as the simulator's quantizer on ", 0), 0u) << d.reason;
  EXPECT_NE(d.reason.find("for a 2048 x 7168 activation; your quantization runs at "), std::string::npos) << d.reason;
  EXPECT_GT(d.ratio_to_stage, 0.8) << d.reason;
  EXPECT_LT(d.ratio_to_stage, 1.25) << d.reason;
  std::printf("fp8 quantizer on the GPU: %s\n", d.reason.c_str());
}

// The same file, another scale on the device only (__CUDA_ARCH__): the host grade would pass it,
// the GPU grade names the first block, activation row 0's block 0 (the host grade's row 0).
TEST(ExerciseGpuGrade, Fp8QuantizeThatDiffersOnTheGpuIsNamed) {
  const Exercise e = exercise("20-fp8/quantize");
  std::string source = e.reference;
  const std::string from = "amax > 0 ? amax / 448.0f : 1.0f;";
  ASSERT_NE(source.find(from), std::string::npos);
  source.replace(source.find(from), from.size(),
                 "amax > 0 ? amax / 448.0f : 1.0f;\n#ifdef __CUDA_ARCH__\n    if (amax > 0) scale = amax / 447.0f;\n#endif");
  const std::string decl = "const float scale = amax > 0";
  ASSERT_NE(source.find(decl), std::string::npos);
  source.replace(source.find(decl), decl.size(), "float scale = amax > 0");
  const DeviceGrade d = grade_on_device(e, source);
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("your quantize_row gives block 0 of activation row 0 the scale "), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("; the simulator's quantizer gives 0.0056080073 (your file passed on the CPU"), std::string::npos)
      << d.reason;
}

// The stub: its scales are right for one block (the harness calls it with k = 128), its truncated
// codes are not.
TEST(ExerciseGpuGrade, Fp8QuantizeStubsCodesAreWrongOnTheGpuToo) {
  const Exercise e = exercise("20-fp8/quantize");
  const DeviceGrade d = grade_on_device(e, e.stub);
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_NE(d.reason.find("(activation row 0, element "), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("scale 0.0056080073) the code "), std::string::npos) << d.reason;
}

// std::max is <algorithm>'s, which NVRTC does not have: the GPU build fails in the learner's line.
TEST(ExerciseGpuGrade, Fp8QuantizeGpuBuildErrorNamesTheLine) {
  const DeviceGrade d = grade_on_device(exercise("20-fp8/quantize"),
                                        "unsigned char to_e4m3(double v) { return std::max(v, 1.0) > 2 ? 1 : 0; }\n"
                                        "void quantize_row(const float*, int, unsigned char*, float*) {}\n");
  ASSERT_TRUE(d.ran) << d.reason;
  EXPECT_FALSE(d.pass);
  EXPECT_EQ(d.reason.rfind("the GPU build of your functions failed:\nsolution.cpp(1): error", 0), 0u) << d.reason;
}

}  // namespace
}  // namespace gemmlab::exercise
