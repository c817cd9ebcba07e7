// The FP8 track's bench: stage 20a against cuBLASLt FP8 (per-tensor scales, e4m3 x e4m3 -> bf16,
// fp32 compute), timed in turns in the same process, each checked against an fp32 reference of
// the dequantized operands. A maintainers' tool until the FP8 stages join `gemmlab bench`.
//
// Build (from the repository root; a Hopper GPU and CUDA 12.8+):
//   nvcc -std=c++20 -arch=sm_90a -O3 --expt-relaxed-constexpr -I kernels -I sim/device \
//     kernels/stages/fp8/fp8_bench.cu kernels/stages/fp8/20a_fp8_tensor/fp8_tensor.cu \
//     kernels/stages/hopper/hopper_host.cu -lcublasLt -lcublas -o fp8_bench
// Run: ./fp8_bench [--json out.json] [--rounds 3] [--sizes 4096,8192x8192x8192,4096x7168x16384]
//      [--profile]   (one launch of each kernel between cudaProfilerStart/Stop, for
//                     ncu --profile-from-start off)
// Refusals are reported, not fatal: stage 20a's (K % 16 != 0) and cuBLASLt's (its FP8 kernels
// need N, the rows of its D, a multiple of 8 here; status 15).
//
// Layout: A (e4m3) row-major M x K, B (e4m3) N x K, both K-contiguous; D (bf16) row-major M x N.
// cuBLASLt (column-major) accepts FP8 only as "TN": op(A) = T, op(B) = N, both K-major. Our row-major
// D is its column-major D^T, so it runs with the operands swapped: A' = B (N x K), B' = A.
//
// Timing: CUDA events around every launch after warm-up, the kernels in turns launch by launch, the
// median per kernel and round; inputs rotate over enough sets of A, B and D to pass 2 x the 60 MiB
// L2; random non-zero e4m3 (|x| in [1/8, 15]); per-tensor scales 0.75 and 1.25. A launch shorter
// than the host's launch work (tens of microseconds) is timed with the GPU waiting for it.
//
// Correctness, on two kinds of data, of stage 20a and cuBLASLt alike: r = sa*sb*sum_k a_k b_k in
// double from the exact e4m3 values (every product of two e4m3 is exact), S = |sa*sb| sum_k |a_k b_k|.
//   random data : |d - r| <= 2^-7 |r| + ceil(K/32) 2^-13 S
//     2^-7 |r|: bf16 keeps 8 significant bits; rounding to nearest costs up to 2^-8, one bit of margin.
//     ceil(K/32) 2^-13 S: a k32 wgmma adds FP8 products into accumulators that keep about 14 bits,
//     not fp32's 24 (DeepSeek-V3's report), so each of the K/32 additions may lose up to 2^-13 of a
//     partial sum, which S bounds. A worst case: the measured errors sit far below it (JSON).
//   +-1 data    : |d - r| <= 2^-8 |r|. Every partial sum is an integer, a random walk of K steps
//     (K = 16384: sigma 128, far below 2^13), so the accumulation is exact and only bf16's rounding
//     remains: one missing or doubled product fails. cuBLASLt passes both checks with the same
//     worst errors as stage 20a.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "20a_fp8_tensor/fp8_tensor.h"

namespace {

using gemmlab::kernels::fp8::Fp8GemmArgs;

#define CHECK_CUDA(x)                                                                            \
  do {                                                                                           \
    const cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)
#define CHECK_LT(x)                                                                          \
  do {                                                                                       \
    const cublasStatus_t s_ = (x);                                                           \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                       \
      std::fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #x, int(s_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

struct Size {
  int m, n, k;
};

// ---- data -------------------------------------------------------------------------------------
__device__ uint32_t hash32(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return uint32_t(x);
}
// e4m3 bits s eeee mmm with exponent field 4..10 (2^-3 .. 2^3 x 1.mmm): never zero, never NaN.
__global__ void fill_e4m3(uint8_t* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t h = hash32(seed * 0x9e3779b97f4a7c15ull + i);
    const uint32_t exponent = 4 + (h >> 8) % 7, mantissa = h & 7, sign = (h >> 4) & 1;
    p[i] = uint8_t(sign << 7 | exponent << 3 | mantissa);
  }
}

// +-1 (e4m3 0x38 / 0xB8) with random signs: every partial sum is an integer of at most |K| <= 2^14,
// and a random walk's stays far below 2^12, so any accumulator of 13 or more bits adds exactly.
__global__ void fill_pm1(uint8_t* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = (hash32(seed * 0x9e3779b97f4a7c15ull + i) & 1) ? 0xB8 : 0x38;
}

__device__ float e4m3_value(uint8_t b) {
  __nv_fp8_e4m3 v;
  v.__x = b;
  return float(v);
}

// r and S (header) for every output, 16 x 16 outputs a block, k in slices of 32 through shared memory.
__global__ void reference(const uint8_t* A, const uint8_t* B, int M, int N, int K, float sa, float sb, double* r,
                          float* s) {
  __shared__ float a[16][33], b[16][33];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  double sum = 0;
  float abs_sum = 0;
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int i = threadIdx.x; i < 16 * 32; i += 256) {
      const int rr = i / 32, kk = i % 32;
      const int ar = blockIdx.y * 16 + rr, bc = blockIdx.x * 16 + rr;
      a[rr][kk] = (ar < M && k0 + kk < K) ? e4m3_value(A[size_t(ar) * K + k0 + kk]) : 0.f;
      b[rr][kk] = (bc < N && k0 + kk < K) ? e4m3_value(B[size_t(bc) * K + k0 + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk) {
      const float p = a[ty][kk] * b[tx][kk];  // exact: 4-bit x 4-bit significands
      sum += double(p);
      abs_sum += fabsf(p);
    }
    __syncthreads();
  }
  if (row < M && col < N) {
    r[size_t(row) * N + col] = double(sa) * double(sb) * sum;
    s[size_t(row) * N + col] = fabsf(sa * sb) * abs_sum;
  }
}

struct CheckResult {
  unsigned long long failures;
  float worst_ratio;      // max |d - r| / tolerance
  float worst_rel_s;      // max |d - r| / S
};
// tol = 2^r_exp |r| + s_coef S.
__global__ void check(const __nv_bfloat16* D, const double* r, const float* s, size_t n, int r_exp, double s_coef,
                      CheckResult* out) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const double d = double(__bfloat162float(D[i]));
    const double err = fabs(d - r[i]);
    const double tol = std::ldexp(fabs(r[i]), r_exp) + s_coef * double(s[i]);
    const float ratio = err == 0 ? 0.f : float(err / tol), rel = err == 0 ? 0.f : float(err / double(s[i]));
    if (!(err <= tol)) atomicAdd(&out->failures, 1ull);
    // Non-negative floats order as their bits do; a NaN becomes +inf's neighbour (all bits up).
    atomicMax(reinterpret_cast<unsigned*>(&out->worst_ratio), std::isnan(ratio) ? 0x7f800000u : __float_as_uint(ratio));
    atomicMax(reinterpret_cast<unsigned*>(&out->worst_rel_s), std::isnan(rel) ? 0x7f800000u : __float_as_uint(rel));
  }
}

// ---- cuBLASLt ---------------------------------------------------------------------------------
struct Lt {
  cublasLtHandle_t handle{};
  void* workspace = nullptr;
  size_t workspace_bytes = 64ull << 20;
  cublasLtMatmulDesc_t desc{};
  cublasLtMatrixLayout_t a{}, b{}, c{};
  cublasLtMatmulAlgo_t algo{};
  bool ok = false;
  std::string why;
};

// The TN problem for our row-major D (header); fast_accum = 1 adds FP8 products straight into the
// tensor cores' accumulators as stage 20a does; 0 promotes partial sums to fp32 now and then.
void lt_setup(Lt& lt, const Size& sz, const float* scale_a, const float* scale_b, int fast_accum) {
  CHECK_LT(cublasLtMatmulDescCreate(&lt.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t t = CUBLAS_OP_T, nt = CUBLAS_OP_N;
  CHECK_LT(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)));
  CHECK_LT(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof(nt)));
  // A' = B, B' = A: A' gets B's scale.
  CHECK_LT(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof(scale_b)));
  CHECK_LT(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof(scale_a)));
  const int8_t fast = int8_t(fast_accum);
  CHECK_LT(cublasLtMatmulDescSetAttribute(lt.desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof(fast)));
  CHECK_LT(cublasLtMatrixLayoutCreate(&lt.a, CUDA_R_8F_E4M3, sz.k, sz.n, sz.k));
  CHECK_LT(cublasLtMatrixLayoutCreate(&lt.b, CUDA_R_8F_E4M3, sz.k, sz.m, sz.k));
  CHECK_LT(cublasLtMatrixLayoutCreate(&lt.c, CUDA_R_16BF, sz.n, sz.m, sz.n));
}
void lt_release(Lt& lt) {
  cublasLtMatrixLayoutDestroy(lt.a);
  cublasLtMatrixLayoutDestroy(lt.b);
  cublasLtMatrixLayoutDestroy(lt.c);
  cublasLtMatmulDescDestroy(lt.desc);
}
cublasStatus_t lt_run(const Lt& lt, const uint8_t* A, const uint8_t* B, __nv_bfloat16* D, cudaStream_t stream,
                      const cublasLtMatmulAlgo_t& algo) {
  const float alpha = 1.f, beta = 0.f;
  return cublasLtMatmul(lt.handle, lt.desc, &alpha, B, lt.a, A, lt.b, &beta, D, lt.c, D, lt.c, &algo, lt.workspace,
                        lt.workspace_bytes, stream);
}

// ---- timing -----------------------------------------------------------------------------------
struct Buffers {
  std::vector<uint8_t*> a, b;
  std::vector<__nv_bfloat16*> d;
};

template <class Launch>
float median_ms(int iters, int sets, Launch launch) {
  std::vector<cudaEvent_t> ev(2 * iters);
  for (auto& e : ev) CHECK_CUDA(cudaEventCreate(&e));
  for (int i = 0; i < 3; ++i) launch(i % sets);  // warm-up
  for (int i = 0; i < iters; ++i) {
    CHECK_CUDA(cudaEventRecord(ev[2 * i]));
    launch(i % sets);
    CHECK_CUDA(cudaEventRecord(ev[2 * i + 1]));
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> ms(iters);
  for (int i = 0; i < iters; ++i) CHECK_CUDA(cudaEventElapsedTime(&ms[i], ev[2 * i], ev[2 * i + 1]));
  for (auto& e : ev) CHECK_CUDA(cudaEventDestroy(e));
  std::nth_element(ms.begin(), ms.begin() + iters / 2, ms.end());
  return ms[iters / 2];
}

// Kernels timed in turns launch by launch (k0, k1, k2, k0, k1, ...: each sees the same clocks and
// temperature, which on an H200 under FP8 load drift by 10-20 % over tens of milliseconds); the
// median of each kernel's `iters` event-timed launches. `first` rotates who opens each turn.
using LaunchFn = std::function<void(int)>;
std::vector<float> median_ms_interleaved(int iters, int sets, const std::vector<LaunchFn>& kernels, int first) {
  const size_t n = kernels.size();
  std::vector<std::vector<cudaEvent_t>> ev(n, std::vector<cudaEvent_t>(2 * iters));
  for (auto& v : ev)
    for (auto& e : v) CHECK_CUDA(cudaEventCreate(&e));
  for (int i = 0; i < 3; ++i)
    for (const auto& k : kernels) k(i % sets);  // warm-up
  for (int i = 0; i < iters; ++i)
    for (size_t j = 0; j < n; ++j) {
      const size_t k = (j + size_t(first)) % n;
      CHECK_CUDA(cudaEventRecord(ev[k][2 * i]));
      kernels[k](i % sets);
      CHECK_CUDA(cudaEventRecord(ev[k][2 * i + 1]));
    }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(n);
  for (size_t k = 0; k < n; ++k) {
    std::vector<float> ms(iters);
    for (int i = 0; i < iters; ++i) CHECK_CUDA(cudaEventElapsedTime(&ms[i], ev[k][2 * i], ev[k][2 * i + 1]));
    std::nth_element(ms.begin(), ms.begin() + iters / 2, ms.end());
    out[k] = ms[iters / 2];
    for (auto& e : ev[k]) CHECK_CUDA(cudaEventDestroy(e));
  }
  return out;
}

// The fastest of cuBLASLt's heuristic candidates (up to 8), each timed briefly; false if none runs.
bool lt_pick(Lt& lt, const Buffers& buf, int sets) {
  cublasLtMatmulPreference_t pref{};
  CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
  CHECK_LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &lt.workspace_bytes,
                                                sizeof(lt.workspace_bytes)));
  cublasLtMatmulHeuristicResult_t found[8];
  int count = 0;
  const cublasStatus_t s =
      cublasLtMatmulAlgoGetHeuristic(lt.handle, lt.desc, lt.a, lt.b, lt.c, lt.c, pref, 8, found, &count);
  cublasLtMatmulPreferenceDestroy(pref);
  if (s != CUBLAS_STATUS_SUCCESS || count == 0) {
    lt.why = "cuBLASLt has no FP8 algorithm for this problem (status " + std::to_string(int(s)) + ")";
    return false;
  }
  float best = 1e30f;
  cublasStatus_t last = CUBLAS_STATUS_SUCCESS;
  for (int i = 0; i < count; ++i) {
    if ((last = lt_run(lt, buf.a[0], buf.b[0], buf.d[0], nullptr, found[i].algo)) != CUBLAS_STATUS_SUCCESS) continue;
    const float ms = median_ms(7, sets, [&](int j) { lt_run(lt, buf.a[j], buf.b[j], buf.d[j], nullptr, found[i].algo); });
    if (ms < best) {
      best = ms;
      lt.algo = found[i].algo;
    }
  }
  lt.ok = best < 1e30f;
  if (!lt.ok) lt.why = "none of cuBLASLt's " + std::to_string(count) + " FP8 candidates ran (status " + std::to_string(int(last)) + ")";
  return lt.ok;
}

CheckResult run_check(const __nv_bfloat16* D, const double* r, const float* s, size_t n, int r_exp, double s_coef) {
  CheckResult* dev = nullptr;
  CHECK_CUDA(cudaMalloc(&dev, sizeof(CheckResult)));
  CHECK_CUDA(cudaMemset(dev, 0, sizeof(CheckResult)));
  check<<<1024, 256>>>(D, r, s, n, r_exp, s_coef, dev);
  CheckResult h{};
  CHECK_CUDA(cudaMemcpy(&h, dev, sizeof(h), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dev));
  return h;
}

std::vector<Size> parse_sizes(const char* text) {
  std::vector<Size> out;
  std::string s(text);
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    const std::string item = s.substr(pos, end - pos);
    int m = 0, n = 0, k = 0;
    if (std::sscanf(item.c_str(), "%dx%dx%d", &m, &n, &k) == 3) out.push_back({m, n, k});
    else if (std::sscanf(item.c_str(), "%d", &m) == 1) out.push_back({m, m, m});
    else {
      std::fprintf(stderr, "bad size '%s': write N (a cube) or MxNxK\n", item.c_str());
      std::exit(2);
    }
    pos = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const char* json_path = nullptr;
  int rounds = 3;
  bool profile = false;
  std::vector<Size> sizes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 7168, 16384},
                             {4000, 3000, 2000}, {777, 1531, 4112},  {129, 257, 144}, {256, 256, 100}};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc) json_path = argv[++i];
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) sizes = parse_sizes(argv[++i]);
    else if (!std::strcmp(argv[i], "--profile")) profile = true;
    else {
      std::fprintf(stderr, "usage: fp8_bench [--json PATH] [--rounds N] [--sizes N|MxNxK,...] [--profile]\n");
      return 2;
    }
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0, lt_version = int(cublasLtGetVersion());
  CHECK_CUDA(cudaDriverGetVersion(&driver));
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  // The kernel driver's version (Linux): the first word of /proc/driver/nvidia/version's first line
  // that starts with a digit and holds a dot ("NVRM version: NVIDIA UNIX ... 580.159.04  Release ...").
  std::string driver_version = "unknown";
  if (FILE* f = std::fopen("/proc/driver/nvidia/version", "r")) {
    char line[512] = {};
    if (std::fgets(line, sizeof(line), f) != nullptr)
      for (char* word = std::strtok(line, " \t\n"); word != nullptr; word = std::strtok(nullptr, " \t\n"))
        if (word[0] >= '0' && word[0] <= '9' && std::strchr(word, '.') != nullptr) {
          driver_version = word;
          break;
        }
    std::fclose(f);
  }
  std::printf("%s, driver %s (CUDA %d), runtime %d, cuBLASLt %d, %s\n", prop.name, driver_version.c_str(), driver,
              runtime, lt_version, date);

  const float host_scales[2] = {0.75f, 1.25f};
  float *scale_a = nullptr, *scale_b = nullptr;  // each in its own allocation (256-byte aligned)
  CHECK_CUDA(cudaMalloc(&scale_a, sizeof(float)));
  CHECK_CUDA(cudaMalloc(&scale_b, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(scale_a, &host_scales[0], sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(scale_b, &host_scales[1], sizeof(float), cudaMemcpyHostToDevice));

  Lt base;
  CHECK_LT(cublasLtCreate(&base.handle));
  CHECK_CUDA(cudaMalloc(&base.workspace, base.workspace_bytes));

  std::string rows;
  for (const Size& sz : sizes) {
    std::printf("\n%d x %d x %d\n", sz.m, sz.n, sz.k);
    std::string row = "    {\"m\": " + std::to_string(sz.m) + ", \"n\": " + std::to_string(sz.n) +
                      ", \"k\": " + std::to_string(sz.k);
    if (const char* why = gemmlab::kernels::fp8::check_fp8_tensor(sz.m, sz.n, sz.k)) {
      std::printf("  stage 20a refuses: %s\n", why);
      rows += (rows.empty() ? "" : ",\n") + row + ", \"refused\": \"" + why + "\"}";
      continue;
    }
    const size_t a_bytes = size_t(sz.m) * sz.k, b_bytes = size_t(sz.n) * sz.k, d_count = size_t(sz.m) * sz.n;
    const size_t set_bytes = a_bytes + b_bytes + 2 * d_count;
    const int sets = int(std::max<size_t>(2, (2 * (60ull << 20) + set_bytes - 1) / set_bytes + 1));
    Buffers buf;
    for (int i = 0; i < sets; ++i) {
      uint8_t *a, *b;
      __nv_bfloat16* d;
      CHECK_CUDA(cudaMalloc(&a, a_bytes));
      CHECK_CUDA(cudaMalloc(&b, b_bytes));
      CHECK_CUDA(cudaMalloc(&d, d_count * 2));
      fill_e4m3<<<1024, 256>>>(a, a_bytes, 2 * i + 1);
      fill_e4m3<<<1024, 256>>>(b, b_bytes, 2 * i + 2);
      buf.a.push_back(a);
      buf.b.push_back(b);
      buf.d.push_back(d);
    }
    double* ref = nullptr;
    float* abs_ref = nullptr;
    CHECK_CUDA(cudaMalloc(&ref, d_count * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&abs_ref, d_count * sizeof(float)));
    auto compute_reference = [&] {
      reference<<<dim3((sz.n + 15) / 16, (sz.m + 15) / 16), 256>>>(buf.a[0], buf.b[0], sz.m, sz.n, sz.k,
                                                                    host_scales[0], host_scales[1], ref, abs_ref);
      CHECK_CUDA(cudaGetLastError());
    };

    auto ours = [&](int j) {
      const Fp8GemmArgs args{reinterpret_cast<const __nv_fp8_e4m3*>(buf.a[j]),
                             reinterpret_cast<const __nv_fp8_e4m3*>(buf.b[j]), buf.d[j], sz.m, sz.n, sz.k, scale_a,
                             scale_b, nullptr};
      CHECK_CUDA(gemmlab::kernels::fp8::launch_fp8_tensor(args));
    };
    Lt lt = base, precise = base;
    lt_setup(lt, sz, scale_a, scale_b, 1);
    lt_setup(precise, sz, scale_a, scale_b, 0);
    const bool have_lt = lt_pick(lt, buf, sets);
    const bool have_precise = lt_pick(precise, buf, sets);
    if (!have_lt) std::printf("  cuBLASLt  : %s\n", lt.why.c_str());

    // Correctness on set 0; D starts as NaN (0xFF bytes) so an element never written fails.
    auto check_one = [&](const char* name, auto run, int r_exp, double s_coef) {
      CHECK_CUDA(cudaMemset(buf.d[0], 0xFF, d_count * 2));
      run();
      CHECK_CUDA(cudaDeviceSynchronize());
      const CheckResult c = run_check(buf.d[0], ref, abs_ref, d_count, r_exp, s_coef);
      std::printf("  %-22s: %llu of %zu outside tolerance; worst |d-r|/tol %.3g, |d-r|/S %.3g\n", name, c.failures,
                  d_count, c.worst_ratio, c.worst_rel_s);
      return c;
    };
    auto run_ours = [&] { ours(0); };
    auto run_lt = [&] { lt_run(lt, buf.a[0], buf.b[0], buf.d[0], nullptr, lt.algo); };
    // Random data: 2^-7 |r| + ceil(K/32) 2^-13 S (header).
    const double s_coef = std::ldexp(double((sz.k + 31) / 32), -13);
    compute_reference();
    const CheckResult mine = check_one("stage 20a, random", run_ours, -7, s_coef);
    const CheckResult theirs = have_lt ? check_one("cuBLASLt, random", run_lt, -7, s_coef) : CheckResult{};
    // +-1 data: every sum exact, so only bf16's rounding to nearest: 2^-8 |r|.
    fill_pm1<<<1024, 256>>>(buf.a[0], a_bytes, 101);
    fill_pm1<<<1024, 256>>>(buf.b[0], b_bytes, 102);
    compute_reference();
    const CheckResult mine_exact = check_one("stage 20a, exact sums", run_ours, -8, 0.0);
    const CheckResult theirs_exact = have_lt ? check_one("cuBLASLt, exact sums", run_lt, -8, 0.0) : CheckResult{};
    fill_e4m3<<<1024, 256>>>(buf.a[0], a_bytes, 1);
    fill_e4m3<<<1024, 256>>>(buf.b[0], b_bytes, 2);

    if (profile) {  // one launch of each between cudaProfilerStart and Stop, for ncu --profile-from-start off
      CHECK_CUDA(cudaProfilerStart());
      ours(0);
      if (have_lt) run_lt();
      if (have_precise) lt_run(precise, buf.a[0], buf.b[0], buf.d[0], nullptr, precise.algo);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaProfilerStop());
    }
    const double flop = 2.0 * sz.m * double(sz.n) * sz.k;
    // About 40 ms of launches of each kernel per round.
    const float one = median_ms(3, sets, ours);
    const int iters = std::clamp(int(40.f / std::max(one, 1e-3f)), 10, 200);
    std::string ours_list, lt_list, precise_list, ratio_list;
    for (int r = 0; r < rounds; ++r) {
      std::vector<LaunchFn> kernels = {ours};
      if (have_lt) kernels.push_back([&](int j) { lt_run(lt, buf.a[j], buf.b[j], buf.d[j], nullptr, lt.algo); });
      if (have_precise)
        kernels.push_back([&](int j) { lt_run(precise, buf.a[j], buf.b[j], buf.d[j], nullptr, precise.algo); });
      const std::vector<float> t = median_ms_interleaved(iters, sets, kernels, r % int(kernels.size()));
      const float t_ours = t[0], t_lt = have_lt ? t[1] : 0.f, t_precise = have_precise ? t.back() : 0.f;
      const double tf_ours = flop / (t_ours * 1e-3) / 1e12;
      const double tf_lt = have_lt ? flop / (t_lt * 1e-3) / 1e12 : 0;
      const double tf_precise = have_precise ? flop / (t_precise * 1e-3) / 1e12 : 0;
      const double ratio = have_lt ? t_lt / t_ours : 0;
      std::printf("  round %d: stage 20a %7.1f TFLOP/s (%.4f ms)  cuBLASLt fast-accum %7.1f  precise %7.1f  ratio %.1f%%\n",
                  r + 1, tf_ours, t_ours, tf_lt, tf_precise, 100 * ratio);
      char buf_num[64];
      auto add = [&](std::string& list, double v) {
        std::snprintf(buf_num, sizeof(buf_num), "%s%.1f", list.empty() ? "" : ", ", v);
        list += buf_num;
      };
      add(ours_list, tf_ours);
      add(lt_list, tf_lt);
      add(precise_list, tf_precise);
      std::snprintf(buf_num, sizeof(buf_num), "%s%.4f", ratio_list.empty() ? "" : ", ", ratio);
      ratio_list += buf_num;
    }
    char tail[512];
    std::snprintf(tail, sizeof(tail),
                  ", \"sets\": %d, \"iters\": %d, \"check\": {\"stage_failures\": %llu, \"stage_worst_err_over_tol\": %.4g, "
                  "\"stage_worst_err_over_S\": %.4g, \"cublaslt_failures\": %llu, \"cublaslt_worst_err_over_tol\": %.4g, "
                  "\"cublaslt_worst_err_over_S\": %.4g, \"stage_exact_failures\": %llu, \"cublaslt_exact_failures\": %llu}",
                  sets, iters, mine.failures, mine.worst_ratio, mine.worst_rel_s, theirs.failures, theirs.worst_ratio,
                  theirs.worst_rel_s, mine_exact.failures, theirs_exact.failures);
    row += tail;
    row += ",\n     \"stage_tflops\": [" + ours_list + "], \"cublaslt_tflops\": [" + lt_list +
           "], \"cublaslt_precise_tflops\": [" + precise_list + "], \"ratio_to_cublaslt\": [" + ratio_list + "]";
    if (!have_lt) row += ", \"cublaslt_refused\": \"" + lt.why + "\"";
    row += "}";
    rows += (rows.empty() ? "" : ",\n") + row;

    lt_release(lt);
    lt_release(precise);
    for (int i = 0; i < sets; ++i) {
      cudaFree(buf.a[i]);
      cudaFree(buf.b[i]);
      cudaFree(buf.d[i]);
    }
    cudaFree(ref);
    cudaFree(abs_ref);
  }

  if (json_path != nullptr) {
    FILE* f = std::fopen(json_path, "w");
    if (f == nullptr) {
      std::fprintf(stderr, "cannot write %s\n", json_path);
      return 1;
    }
    std::fprintf(f,
                 "{\n  \"bench\": \"fp8_bench\",\n  \"stage\": \"20a fp8 tensor\",\n  \"device\": \"%s\",\n"
                 "  \"driver\": \"%s\",\n  \"driver_cuda_version\": %d,\n  \"runtime\": %d,\n  \"cublaslt\": %d,\n  \"date\": \"%s\",\n"
                 "  \"problem\": \"D(bf16, row-major) = sa*sb * A(e4m3, MxK, K-major) * B(e4m3, NxK, K-major)^T, "
                 "fp32 accumulate; cuBLASLt TN with operands swapped\",\n"
                 "  \"reference\": \"cuBLASLt FP8 per-tensor, FAST_ACCUM=1 (best of heuristic candidates); "
                 "cublaslt_precise_tflops: FAST_ACCUM=0\",\n"
                 "  \"ratio\": \"cuBLASLt time / stage time, GPU time (CUDA events), median per turn\",\n"
                 "  \"tolerance\": \"random: |d-r| <= 2^-7 |r| + ceil(K/32) 2^-13 S; +-1 data (exact sums): |d-r| <= 2^-8 |r|; "
                 "r exact, S = sum |sa sb a_k b_k|\",\n"
                 "  \"sizes\": [\n%s\n  ]\n}\n",
                 prop.name, driver_version.c_str(), driver, runtime, lt_version, date, rows.c_str());
    std::fclose(f);
    std::printf("\nwrote %s\n", json_path);
  }
  return 0;
}
