// FP8 accumulator probe: how wgmma's e4m3 path adds its products (bits kept, rounding, order) and
// how it folds in the accumulator it is given. Not a stage: a measurement whose output is the test
// data of the simulator's model (sim/include/gemmlab/fp8_accum.h, sim/tests/test_fp8_accum.cpp).
//
// One warpgroup per case issues k_steps x wgmma m64n8k32 e4m3 x e4m3 -> f32 from shared memory
// (no-swizzle K-major core matrices), the first with scale-d 0 (d = A B) or 1 (d = C + A B), and
// writes all 64 x 8 accumulators out bit-exact after every k step. The host generates random and
// adversarial inputs (binade gaps, cancellation, subnormals, sums crossing powers of two, a large
// initial accumulator) and prints inputs and outputs as JSON.
//
// What it found (H200): gemmlab/fp8_accum.h states the rule; sim/tests/test_fp8_accum.cpp checks it.
//
//   cmake --preset gpu -DGEMMLAB_GPU_PROBES=ON && cmake --build build-gpu --target fp8_accum_probe
// or by hand:
//   nvcc -std=c++20 -arch=sm_90a -O3 -I kernels -I sim/device \
//        kernels/stages/fp8/fp8_accum_probe.cu -o fp8_accum_probe
//   ./fp8_accum_probe "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader)" \
//        > sim/tests/data/fp8_accum_probe_h200.json
// The argument (optional) is the driver version the JSON records beside the CUDA driver API's.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "gemmlab/gmma_desc.h"
#include "stages/hopper/wgmma_ptx.cuh"

namespace {
using namespace gemmlab::kernels::hopper;
namespace gmma = gemmlab::gmma;

constexpr int kM = 64, kN = 8, kKStep = 32, kMaxSteps = 8, kMaxK = kKStep * kMaxSteps;
// No-swizzle K-major: a core matrix is 8 rows x 16 bytes (128 contiguous bytes); the next one in K
// is kLeading bytes further, the next 8 rows kStride bytes further.
constexpr uint32_t kLeading = 128, kStride = 256;
constexpr int kABytesPerStep = kM * kKStep, kBBytesPerStep = kN * kKStep;  // 2048, 256

struct CaseMeta {
  int k_steps;
  int accumulate;  // scale-d of the first MMA: 0 ignores C, 1 adds it
};

__device__ __forceinline__ uint32_t core_offset(int row, int kbyte) {
  return (row / 8) * kStride + (kbyte / 16) * kLeading + (row % 8) * 16 + kbyte % 16;
}

__device__ __forceinline__ void wgmma_m64n8k32_e4m3(float (&d)[4], uint64_t desc_a, uint64_t desc_b,
                                                    uint32_t accumulate) {
#if GEMMLAB_SM90A
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, %4, %5, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
#endif
}

__global__ void __launch_bounds__(128) probe_kernel(const uint8_t* a, const uint8_t* b, const float* c,
                                                    const CaseMeta* meta, float* d_out) {
  __shared__ __align__(1024) uint8_t sa[kMaxSteps * kABytesPerStep];
  __shared__ __align__(1024) uint8_t sb[kMaxSteps * kBBytesPerStep];
  const int cs = blockIdx.x, t = threadIdx.x;
  const CaseMeta m = meta[cs];
  const uint8_t* ga = a + size_t(cs) * kM * kMaxK;
  const uint8_t* gb = b + size_t(cs) * kN * kMaxK;
  for (int i = t; i < kM * kMaxK; i += 128) {
    const int row = i / kMaxK, k = i % kMaxK;
    sa[(k / kKStep) * kABytesPerStep + core_offset(row, k % kKStep)] = ga[i];
  }
  for (int i = t; i < kN * kMaxK; i += 128) {
    const int row = i / kMaxK, k = i % kMaxK;
    sb[(k / kKStep) * kBBytesPerStep + core_offset(row, k % kKStep)] = gb[i];
  }
  float d[4];
  for (int i = 0; i < 4; ++i) {
    const auto e = gmma::accumulator(t, i);
    d[i] = c[size_t(cs) * kM * kN + e.row * kN + e.col];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // generic writes -> async proxy
  __syncthreads();
  for (int s = 0; s < m.k_steps; ++s) {
    const uint64_t da = gmma::encode(smem_u32(sa + s * kABytesPerStep), kLeading, kStride, gmma::SmemLayout::Interleave);
    const uint64_t db = gmma::encode(smem_u32(sb + s * kBBytesPerStep), kLeading, kStride, gmma::SmemLayout::Interleave);
    wgmma_fence();
    fence_accumulators(d);
    wgmma_m64n8k32_e4m3(d, da, db, s == 0 ? uint32_t(m.accumulate) : 1u);
    wgmma_commit();
    wgmma_wait<0>();
    fence_accumulators(d);
    for (int i = 0; i < 4; ++i) {
      const auto e = gmma::accumulator(t, i);
      d_out[(size_t(cs) * kMaxSteps + s) * kM * kN + e.row * kN + e.col] = d[i];
    }
  }
}

// ---- host: inputs ----
std::mt19937 rng(20261128);
int uni(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
uint8_t e4m3(int sign, int exp_field, int mant) { return uint8_t(sign << 7 | exp_field << 3 | mant); }
uint8_t rand_finite() {  // any e4m3 but NaN (0x7F, 0xFF)
  for (;;) { const uint8_t v = uint8_t(uni(0, 255)); if ((v & 0x7F) != 0x7F) return v; }
}
uint8_t rand_in(int emin, int emax) {  // finite: exponent field 15 stops at mantissa 6 (448)
  const int e = uni(emin, emax);
  return e4m3(uni(0, 1), e, uni(0, e == 15 ? 6 : 7));
}
float rand_f32(int emin, int emax) {  // random sign, full 23-bit mantissa, exponent in [emin, emax]
  return std::ldexp((1.0f + float(uni(0, (1 << 23) - 1)) / float(1 << 23)) * (uni(0, 1) ? -1.f : 1.f), uni(emin, emax));
}
constexpr uint8_t kOne = 0x38;  // 1.0

struct Case {
  std::string kind;
  CaseMeta meta;
  std::vector<uint8_t> a, b;  // 64 x K, 8 x K (K = 32 k_steps), K contiguous
  std::vector<float> c;       // 64 x 8
};

Case make(const std::string& kind, int k_steps, int accumulate) {
  Case c{kind, {k_steps, accumulate}, std::vector<uint8_t>(kM * kKStep * k_steps), std::vector<uint8_t>(kN * kKStep * k_steps),
         std::vector<float>(kM * kN, 0.f)};
  const int K = kKStep * k_steps;
  auto A = [&](int r, int k) -> uint8_t& { return c.a[r * K + k]; };
  auto B = [&](int n, int k) -> uint8_t& { return c.b[n * K + k]; };
  // B: columns 0-3 all ones (the products are A itself), 4-5 powers of two, 6-7 as the kind says.
  auto b_default = [&](bool random_tail) {
    for (int k = 0; k < K; ++k) {
      for (int n = 0; n < 4; ++n) B(n, k) = kOne;
      B(4, k) = e4m3(0, uni(4, 10), 0);
      B(5, k) = e4m3(uni(0, 1), uni(1, 14), 0);
      B(6, k) = random_tail ? rand_in(5, 9) : kOne;
      B(7, k) = random_tail ? rand_finite() : kOne;
    }
  };
  if (kind == "random_full") {
    for (auto& v : c.a) v = rand_finite();
    for (auto& v : c.b) v = rand_finite();
  } else if (kind == "random_unit") {
    for (auto& v : c.a) v = rand_in(5, 9);
    for (auto& v : c.b) v = rand_in(5, 9);
  } else if (kind == "binade_gap") {  // one big product, the rest 'gap' binades smaller
    b_default(true);
    for (int r = 0; r < kM; ++r) {
      const int big = uni(10, 15), gap = 1 + r % 26, pos = uni(0, K - 1);
      for (int k = 0; k < K; ++k) A(r, k) = k == pos ? rand_in(big, big) : rand_in(std::max(0, big - gap - 1), std::max(0, big - gap));
      if (r % 2) for (int k = 0; k < K; ++k) if (k != pos) A(r, k) &= 0x7F;  // same sign: no cancellation
    }
  } else if (kind == "two_values") {  // two nonzero products at chosen positions: pairwise alignment/order
    b_default(false);
    for (int r = 0; r < kM; ++r) {
      const int p = uni(0, K - 1), q = uni(0, K - 1), ep = uni(8, 15), eq = std::max(1, ep - uni(1, 14));
      for (int k = 0; k < K; ++k) A(r, k) = 0;
      A(r, p) = rand_in(ep, ep);
      A(r, q) = e4m3(r % 3 == 0, eq, uni(0, 7));
      if (r % 4 == 0) A(r, uni(0, K - 1)) = rand_in(1, eq);  // a third, smaller still
    }
  } else if (kind == "cancel") {  // x and -x, plus small leftovers
    b_default(true);
    for (int r = 0; r < kM; ++r) {
      for (int k = 0; k < K; ++k) A(r, k) = r % 2 ? rand_in(0, 4) : 0;
      const int pairs = 1 + r % 6;
      for (int i = 0; i < pairs; ++i) {
        const uint8_t x = rand_in(9, 15);
        A(r, uni(0, K - 1)) = x;
        A(r, uni(0, K - 1)) = x ^ 0x80;
      }
    }
  } else if (kind == "subnormal") {
    for (auto& v : c.a) v = uni(0, 3) ? e4m3(uni(0, 1), 0, uni(0, 7)) : rand_in(1, 3);
    for (auto& v : c.b) v = uni(0, 3) ? e4m3(uni(0, 1), 0, uni(0, 7)) : rand_in(1, 15);
  } else if (kind == "pow2_cross") {  // positive values summing just past powers of two
    b_default(false);
    for (int r = 0; r < kM; ++r) {
      const int e = uni(4, 12);
      for (int k = 0; k < K; ++k) A(r, k) = e4m3(0, e, 7);  // 1.875 * 2^(e-7)
      for (int k = 0; k < r % 8; ++k) A(r, uni(0, K - 1)) = e4m3(0, std::max(0, e - uni(3, 12)), uni(0, 7));
    }
  } else if (kind.rfind("acc_", 0) == 0) {  // nonzero initial accumulator
    for (auto& v : c.a) v = rand_in(5, 9);
    for (auto& v : c.b) v = rand_in(5, 9);
    const int lo = kind == "acc_large" ? 12 : kind == "acc_small" ? -20 : -2;
    const int hi = kind == "acc_large" ? 30 : kind == "acc_small" ? -6 : 8;
    for (auto& v : c.c) v = rand_f32(lo, hi);
    if (kind == "acc_large") for (int i = 0; i < kM * kN; i += 7) c.c[i] = -c.c[i] * 0.f;  // a few -0
  }
  return c;
}

std::string hex_bytes(const std::vector<uint8_t>& v) {
  std::string s;
  char buf[3];
  for (uint8_t x : v) { std::snprintf(buf, 3, "%02x", x); s += buf; }
  return s;
}
std::string hex_floats(const float* f, int n) {
  std::string s;
  char buf[9];
  for (int i = 0; i < n; ++i) { uint32_t u; std::memcpy(&u, f + i, 4); std::snprintf(buf, 9, "%08x", u); s += buf; }
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<Case> cases;
  for (const char* kind : {"random_full", "random_unit", "binade_gap", "two_values", "cancel", "subnormal", "pow2_cross"})
    for (int rep = 0; rep < 3; ++rep) cases.push_back(make(kind, 1, 0));
  for (const char* kind : {"acc_equal", "acc_large", "acc_small"})
    for (int rep = 0; rep < 3; ++rep) cases.push_back(make(kind, 1, 1));
  for (const char* kind : {"random_unit", "binade_gap", "cancel", "acc_equal"}) cases.push_back(make(kind, 4, kind[0] == 'a'));
  cases.push_back(make("random_unit", 8, 0));
  cases.push_back(make("random_full", 8, 0));
  const int n = int(cases.size());

  std::vector<uint8_t> a(size_t(n) * kM * kMaxK, 0), b(size_t(n) * kN * kMaxK, 0);
  std::vector<float> c(size_t(n) * kM * kN);
  std::vector<CaseMeta> meta(n);
  for (int i = 0; i < n; ++i) {
    const int K = kKStep * cases[i].meta.k_steps;
    for (int r = 0; r < kM; ++r) for (int k = 0; k < K; ++k) a[(size_t(i) * kM + r) * kMaxK + k] = cases[i].a[r * K + k];
    for (int r = 0; r < kN; ++r) for (int k = 0; k < K; ++k) b[(size_t(i) * kN + r) * kMaxK + k] = cases[i].b[r * K + k];
    std::copy(cases[i].c.begin(), cases[i].c.end(), c.begin() + size_t(i) * kM * kN);
    meta[i] = cases[i].meta;
  }
  uint8_t *da, *db; float *dc, *dd; CaseMeta* dm;
  cudaMalloc(&da, a.size()); cudaMalloc(&db, b.size()); cudaMalloc(&dc, c.size() * 4);
  cudaMalloc(&dm, n * sizeof(CaseMeta)); cudaMalloc(&dd, size_t(n) * kMaxSteps * kM * kN * 4);
  cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dm, meta.data(), n * sizeof(CaseMeta), cudaMemcpyHostToDevice);
  probe_kernel<<<n, 128>>>(da, db, dc, dm, dd);
  std::vector<float> out(size_t(n) * kMaxSteps * kM * kN);
  const cudaError_t err = cudaMemcpy(out.data(), dd, out.size() * 4, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess || cudaGetLastError() != cudaSuccess) {
    std::fprintf(stderr, "fp8_accum_probe: CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int driver = 0;
  cudaDriverGetVersion(&driver);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::printf("{\n\"device\": \"%s\",\n\"driver\": \"%s%s(CUDA driver API %d.%d)\",\n\"date\": \"%s\",\n", prop.name,
              argc > 1 ? argv[1] : "", argc > 1 ? " " : "", driver / 1000, driver % 1000 / 10, date);
  std::printf("\"instruction\": \"wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3\",\n");
  std::printf("\"layout\": \"a: 64 x K e4m3 row-major hex, b: 8 x K e4m3 row-major hex (d = a b^T), c and d: 64 x 8 f32 bits row-major hex, d after each k step of 32\",\n\"cases\": [\n");
  for (int i = 0; i < n; ++i) {
    const Case& cs = cases[i];
    std::printf("{\"kind\": \"%s\", \"k_steps\": %d, \"accumulate\": %d,\n \"a\": \"%s\",\n \"b\": \"%s\",\n \"c\": \"%s\",\n \"d\": [",
                cs.kind.c_str(), cs.meta.k_steps, cs.meta.accumulate, hex_bytes(cs.a).c_str(), hex_bytes(cs.b).c_str(),
                hex_floats(cs.c.data(), kM * kN).c_str());
    for (int s = 0; s < cs.meta.k_steps; ++s)
      std::printf("%s\n  \"%s\"", s ? "," : "", hex_floats(out.data() + (size_t(i) * kMaxSteps + s) * kM * kN, kM * kN).c_str());
    std::printf("]}%s\n", i + 1 < n ? "," : "");
  }
  std::printf("]\n}\n");
  return 0;
}
