// Exercise 20-fp8/quantize on the GPU: the learner's quantize_row built by NVRTC into
// fp8_quantize_harness.cuh's kernel (one thread per 1 x 128 block) and run over a 2048 x 7168
// activation (fp8q::gpu_activation: the host grade's blocks first, then activations with outlier
// channels and blocks of zeros of both signs); every block's scale and codes compared bit for bit
// with the simulator's quantizer (gemmlab/fp8_quantize.h), then timed in turns with the same kernel
// built with the exercise's reference solution. The learner's function passed the host grade
// first (k = 128 rows among its cases); it writes into the harness's own arrays, and reads x, which
// is padded by a block of zeros.
#include "grade_fp8_quantize_gpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "device_words.h"
#include "exercise_nvrtc.h"
#include "fp8_quantize_cases.h"
#include "gemmlab/fp8_quantize.h"

namespace gemmlab::exercise {
namespace {

constexpr int kM = 2048, kK = 7168;  // 7168: DeepSeek-V3's hidden size, 56 blocks a row
constexpr int kBlocksPerRow = kK / fp8q::kBlock;
constexpr long long kBlocks = static_cast<long long>(kM) * kBlocksPerRow;
constexpr size_t kElements = static_cast<size_t>(kM) * kK;
constexpr int kThreads = 128;
constexpr const char* kHarness = "exercise/fp8_quantize_harness.cuh";
constexpr const char* kKernel = "&gemmlab::kernels::exercise_gpu::fp8_quantize_kernel";

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw kernels::GpuError(std::string(what) + ": " + cudaGetErrorString(e));
}

struct DeviceBytes {
  void* p = nullptr;
  explicit DeviceBytes(size_t bytes) { check(cudaMalloc(&p, bytes), "cudaMalloc"); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  ~DeviceBytes() { cudaFree(p); }
};

struct Buffers {
  DeviceBytes x{(kElements + fp8q::kBlock) * sizeof(float)};
  DeviceBytes codes{kElements};
  DeviceBytes scales{kBlocks * sizeof(float)};
};

cudaError_t launch(const CompiledKernels& k, const Buffers& b) {
  const float* x = static_cast<const float*>(b.x.p);
  int m = kM, kk = kK;
  unsigned char* codes = static_cast<unsigned char*>(b.codes.p);
  float* scales = static_cast<float*>(b.scales.p);
  void* params[] = {&x, &m, &kk, &codes, &scales};
  const unsigned grid = static_cast<unsigned>((kBlocks + kThreads - 1) / kThreads);
  return cudaLaunchKernel(reinterpret_cast<const void*>(k.fast), dim3(grid), dim3(kThreads), params, 0, nullptr);
}

// The simulator's codes and scales for the whole activation.
struct Quantized {
  std::vector<std::uint8_t> codes;
  std::vector<float> scales;
};
Quantized quantize_on_host(const std::vector<float>& x) {
  Quantized q{std::vector<std::uint8_t>(kElements), std::vector<float>(static_cast<size_t>(kBlocks))};
  for (size_t b = 0; b < q.scales.size(); ++b)
    q.scales[b] = fp8::quantize_block(std::span<const float>(x.data() + b * fp8q::kBlock, fp8q::kBlock),
                                      std::span<std::uint8_t>(q.codes.data() + b * fp8q::kBlock, fp8q::kBlock));
  return q;
}

// The learner's kernel once (the harness poisons what the function may leave unwritten: codes
// 0xA5, scales NaN), its output compared block by block: empty when every bit is the simulator's.
Words first_difference(const CompiledKernels& k, const Buffers& b, const std::vector<float>& x, const Quantized& want,
                       const std::string& gpu) {
  check(launch(k, b), "the launch of your quantizer");
  check(cudaDeviceSynchronize(), "your quantizer on the GPU");
  Quantized got{std::vector<std::uint8_t>(kElements), std::vector<float>(static_cast<size_t>(kBlocks))};
  check(cudaMemcpy(got.codes.data(), b.codes.p, kElements, cudaMemcpyDeviceToHost), "cudaMemcpy");
  check(cudaMemcpy(got.scales.data(), b.scales.p, got.scales.size() * sizeof(float), cudaMemcpyDeviceToHost),
        "cudaMemcpy");
  for (long long blk = 0; blk < kBlocks; ++blk) {
    const int row = static_cast<int>(blk / kBlocksPerRow), block = static_cast<int>(blk % kBlocksPerRow);
    const float gs = got.scales[static_cast<size_t>(blk)], ws = want.scales[static_cast<size_t>(blk)];
    if (std::memcmp(&gs, &ws, sizeof gs) != 0)
      return fp8_quantize_wrong_scale(gpu, row, block, fp8q::float_text(gs), fp8q::float_text(ws));
    for (int i = 0; i < fp8q::kBlock; ++i) {
      const size_t e = static_cast<size_t>(blk) * fp8q::kBlock + static_cast<size_t>(i);
      if (got.codes[e] == want.codes[e]) continue;
      return fp8_quantize_wrong_code(gpu, row, block * fp8q::kBlock + i, fp8q::float_text(x[e]), fp8q::float_text(ws),
                                     fp8q::code_text(got.codes[e]), fp8q::code_text(want.codes[e]));
    }
  }
  return {};
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Both kernels, in turns (which goes first alternates), 20 runs each after a warm-up: median ms.
std::pair<double, double> time_in_turns(const CompiledKernels& yours, const CompiledKernels& solution, const Buffers& b) {
  cudaEvent_t ev[4];
  for (cudaEvent_t& e : ev) check(cudaEventCreate(&e), "cudaEventCreate");
  std::vector<float> t_yours, t_solution;
  for (int rep = -2; rep < 20; ++rep) {
    const CompiledKernels* order[2] = {&yours, &solution};
    if (rep % 2) std::swap(order[0], order[1]);
    for (int i = 0; i < 2; ++i) {
      check(cudaEventRecord(ev[2 * i]), "cudaEventRecord");
      check(launch(*order[i], b), "a timed launch");
      check(cudaEventRecord(ev[2 * i + 1]), "cudaEventRecord");
    }
    check(cudaEventSynchronize(ev[3]), "the timed launches");
    if (rep < 0) continue;
    for (int i = 0; i < 2; ++i) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]), "cudaEventElapsedTime");
      (order[i] == &yours ? t_yours : t_solution).push_back(ms);
    }
  }
  for (cudaEvent_t e : ev) cudaEventDestroy(e);
  return {median(t_yours), median(t_solution)};
}

}  // namespace

void grade_fp8_quantize_on_device(kernels::Runner& runner, const Exercise& exercise, const std::string& source,
                                  DeviceGrade& d) {
  const kernels::DeviceInfo& gpu = runner.device();
  const std::string arch = "sm_" + std::to_string(gpu.cc_major) + std::to_string(gpu.cc_minor);
  CompiledKernels yours;
  compile_harness(kHarness, kKernel, nullptr, source, arch, yours);
  if (!yours.error.empty()) {
    d.ran = yours.learners_error;
    if (yours.learners_error) d.say(words("the GPU build of your functions failed:\n%s", yours.error));
    else d.say(words("not graded on a GPU: %s", yours.error));
    return;
  }
  d.ran = true;
  const std::vector<float> x = fp8q::gpu_activation(kM, kK);
  const Quantized want = quantize_on_host(x);
  Buffers b;
  check(cudaMemset(b.x.p, 0, (kElements + fp8q::kBlock) * sizeof(float)), "cudaMemset");
  check(cudaMemcpy(b.x.p, x.data(), kElements * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  if (Words w = first_difference(yours, b, x, want, gpu.name); !w.empty()) return d.say(std::move(w));
  d.pass = true;
  CompiledKernels solution;
  compile_harness(kHarness, kKernel, nullptr, exercise.reference, arch, solution);
  if (!solution.error.empty()) return d.say(fp8_quantize_not_timed(gpu.name, solution.error.text()));
  const auto [yours_ms, solution_ms] = time_in_turns(yours, solution, b);
  if (yours_ms <= 0) return d.say(fp8_quantize_not_timed(gpu.name, "no time measured"));
  d.ratio_to_stage = solution_ms / yours_ms;
  d.say(fp8_quantize_timed(gpu.name, kM, kK, d.ratio_to_stage, yours_ms, solution_ms));
}

}  // namespace gemmlab::exercise
