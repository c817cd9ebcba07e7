// The runner's internals (runner.h's Runner::Impl and its helpers), shared by runner.cu (GEMM) and
// conv_runner.cu (convolutions) and fp8_runner.cu (FP8). Not part of the runner's interface.
#pragma once
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <array>
#include <functional>
#include <map>
#include <vector>
#include <cstdint>
#include <sstream>
#include <string>

#include "runner.h"

namespace gemmlab::kernels {

namespace {
// ---------------------------------------------------------------- error handling
[[noreturn]] inline void throw_cuda(cudaError_t e, const char* call, const char* file, int line) {
  std::ostringstream os;
  os << "CUDA error " << cudaGetErrorName(e) << " (" << cudaGetErrorString(e) << ") in " << call
     << " at " << file << ":" << line;
  if (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure ||
      e == cudaErrorMisalignedAddress || e == cudaErrorIllegalInstruction)
    os << ". A kernel faulted and the CUDA context is lost; run it under compute-sanitizer to "
          "find where";
  throw GpuError(os.str());
}
#define GL_CUDA(call)                                                  \
  do {                                                                 \
    cudaError_t gl_err_ = (call);                                      \
    if (gl_err_ != cudaSuccess) throw_cuda(gl_err_, #call, __FILE__, __LINE__); \
  } while (0)

inline const char* cublas_status_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "unknown cuBLAS status";
  }
}
#define GL_CUBLAS(call)                                                                   \
  do {                                                                                    \
    cublasStatus_t gl_st_ = (call);                                                       \
    if (gl_st_ != CUBLAS_STATUS_SUCCESS)                                                  \
      throw GpuError(std::string("cuBLAS error ") + cublas_status_name(gl_st_) + " in " + \
                     #call);                                                              \
  } while (0)

// ---------------------------------------------------------------- device memory
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes) GL_CUDA(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  template <class T = void>
  T* get() const { return static_cast<T*>(ptr_); }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// ---------------------------------------------------------------- device kernels
__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// Uniform in [-1, 1): 24 random bits, so every value is exact in fp32 (fp16 rounds it).
__device__ __forceinline__ float uniform_pm1(uint64_t seed, size_t i) {
  const uint32_t bits = uint32_t(splitmix64(seed ^ (i * 0xD1B54A32D192ED03ull)) >> 40);
  return float(bits) * (2.0f / 16777216.0f) - 1.0f;
}
__global__ void fill_uniform_f32(float* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = uniform_pm1(seed, i);
}
__global__ void fill_uniform_f16(__half* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = __float2half_rn(uniform_pm1(seed, i));
}
__global__ void fill_words(uint32_t* p, size_t n, uint32_t word) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = word;
}

// sums[0] += (c - ref)^2, sums[1] += ref^2 (in double); counts[0]: non-finite c, counts[1]:
// non-finite ref; counts[2]: guard words changed.
constexpr int kReduceThreads = 256;
__global__ void compare_kernel(const float* c, const float* ref, size_t n, const uint32_t* guard_lo,
                               const uint32_t* guard_hi, size_t guard_words, uint32_t guard_word,
                               double* sums, unsigned long long* counts) {
  double diff2 = 0, ref2 = 0;
  unsigned long long bad_c = 0, bad_ref = 0, guard = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const float a = c[i], r = ref[i];
    if (!isfinite(a)) ++bad_c;
    if (!isfinite(r)) ++bad_ref;
    if (isfinite(a) && isfinite(r)) {
      const double d = double(a) - double(r);
      diff2 += d * d;
      ref2 += double(r) * double(r);
    }
  }
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < guard_words; i += stride)
    guard += (guard_lo[i] != guard_word) + (guard_hi[i] != guard_word);

  __shared__ double s_d[kReduceThreads], s_r[kReduceThreads];
  __shared__ unsigned long long s_c[kReduceThreads], s_f[kReduceThreads], s_g[kReduceThreads];
  s_d[threadIdx.x] = diff2;
  s_r[threadIdx.x] = ref2;
  s_c[threadIdx.x] = bad_c;
  s_f[threadIdx.x] = bad_ref;
  s_g[threadIdx.x] = guard;
  __syncthreads();
  for (int h = kReduceThreads / 2; h > 0; h /= 2) {
    if (threadIdx.x < h) {
      s_d[threadIdx.x] += s_d[threadIdx.x + h];
      s_r[threadIdx.x] += s_r[threadIdx.x + h];
      s_c[threadIdx.x] += s_c[threadIdx.x + h];
      s_f[threadIdx.x] += s_f[threadIdx.x + h];
      s_g[threadIdx.x] += s_g[threadIdx.x + h];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], s_d[0]);
    atomicAdd(&sums[1], s_r[0]);
    atomicAdd(&counts[0], s_c[0]);
    atomicAdd(&counts[1], s_f[0]);
    atomicAdd(&counts[2], s_g[0]);
  }
}

// ---------------------------------------------------------------- limits
// The kernels index with 32-bit ints: every matrix stays under 2^31 elements.
constexpr long long kMaxElements = (1ll << 31) - 1;
constexpr int kMaxDim = 1 << 20;
// NaN with a recognisable payload: an element still holding it was never written.
constexpr uint32_t kPoisonWord = 0x7FC0DEADu;
constexpr uint32_t kGuardWord = 0x7FC0BEEFu;
constexpr size_t kGuardWords = 1024;  // 4 KiB before and after C
// The share of cudaMemGetInfo's free memory a run may take: the rest stays for the driver, cuBLAS's
// workspace and other processes on the GPU.
constexpr double kUsableFreeMemory = 0.8;

inline size_t element_bytes(Track t) { return t == Track::fp32 ? 4 : 2; }

inline std::string gib(double bytes) {
  std::ostringstream os;
  os.precision(3);
  os << bytes / double(1ull << 30) << " GiB";
  return os.str();
}

// One output of a host reference, alpha * sum + beta * C0, summed in `terms2` as the squares of
// its two terms: the error is measured against that norm, not against the output, which a small
// problem can cancel to almost nothing (a sanitizer run, 2026-11-27, drew rel_err 1.2e-5 for
// split-k at 1x1x1 with alpha 1.5, beta -0.75, against fp32's 1e-5). With beta = 0 it is the
// output's own norm; for larger problems about the same, the two terms being independent.
inline double alpha_beta_output(double product, double source, double* terms2) {
  *terms2 += product * product + source * source;
  return product + source;
}

// The error of a result copied to the host (guard words around it: kGuardWords before and after)
// against a reference in double: Frobenius error relative to sqrt(terms2) (the reference's terms,
// alpha_beta_output), non-finite elements, guard words changed.
inline CheckResult compare_on_host(const std::vector<uint32_t>& guarded, const std::vector<double>& want, double tol,
                                   double terms2) {
  CheckResult r;
  const size_t n = want.size();
  double diff2 = 0;
  for (size_t i = 0; i < kGuardWords; ++i)
    r.guard_hits += (guarded[i] != kGuardWord) + (guarded[kGuardWords + n + i] != kGuardWord);
  for (size_t i = 0; i < n; ++i) {
    float v;
    std::memcpy(&v, &guarded[kGuardWords + i], 4);
    if (!std::isfinite(v)) {
      ++r.nonfinite;
      continue;
    }
    diff2 += (double(v) - want[i]) * (double(v) - want[i]);
  }
  r.rel_err = terms2 > 0 ? std::sqrt(diff2 / terms2) : (diff2 > 0 ? INFINITY : 0.0);
  r.ok = r.nonfinite == 0 && r.guard_hits == 0 && r.rel_err < tol;
  return r;
}

}  // namespace

struct Runner::Impl {
  int device = 0;
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;
  uint64_t seed = 0;
  DeviceBuffer sums, counts;  // allocated once the device is known to work
  // cuBLASLt (the FP8 references, fp8_runner.cu): made on first use; the algorithm chosen for each
  // (block scales?, m, n, k), the fastest of its heuristic's candidates.
  cublasLtHandle_t cublaslt = nullptr;
  DeviceBuffer lt_workspace;
  std::map<std::array<int, 4>, std::array<uint64_t, 8>> lt_algos;  // cublasLtMatmulAlgo_t's bytes (fp8_cublaslt.h: Algo)

  uint64_t next_seed() { return seed += 0x9E3779B97F4A7C15ull; }

  int fill_blocks(size_t n) const {
    return int(std::min<size_t>((n + 255) / 256, size_t(info.sms) * 16));
  }
  void fill_random(void* p, size_t n, Track t) {
    if (!n) return;
    if (t == Track::fp32)
      fill_uniform_f32<<<fill_blocks(n), 256, 0, stream>>>(static_cast<float*>(p), n, next_seed());
    else
      fill_uniform_f16<<<fill_blocks(n), 256, 0, stream>>>(static_cast<__half*>(p), n, next_seed());
    GL_CUDA(cudaGetLastError());
  }
  void fill_random_f32(float* p, size_t n) { fill_random(p, n, Track::fp32); }
  void fill(uint32_t* p, size_t n, uint32_t word) {
    if (!n) return;
    fill_words<<<fill_blocks(n), 256, 0, stream>>>(p, n, word);
    GL_CUDA(cudaGetLastError());
  }

  void run_cublas(Track t, const GemmArgs& a) {
    GL_CUBLAS(cublasSetStream(cublas, a.stream));
    if (t == Track::fp32) {
      GL_CUBLAS(cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, a.m, a.n, a.k, &a.alpha,
                            static_cast<const float*>(a.A), a.m, static_cast<const float*>(a.B),
                            a.k, &a.beta, a.C, a.m));
    } else {
      // A is row-major m x k = column-major k x m (lda = k): op(A) = A^T.
      GL_CUBLAS(cublasGemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, a.m, a.n, a.k, &a.alpha, a.A,
                             CUDA_R_16F, a.k, a.B, CUDA_R_16F, a.k, &a.beta, a.C, CUDA_R_32F, a.m,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    }
  }

  void run(const Target& t, const GemmArgs& a) {
    if (!t.stage) {
      run_cublas(t.track, a);
      return;
    }
    const cudaError_t e = t.launch_instead ? t.launch_instead(a) : t.stage->get().launch(a);
    if (e != cudaSuccess) throw_cuda(e, ("launch of " + t.id()).c_str(), __FILE__, __LINE__);
    GL_CUDA(cudaGetLastError());
  }

  // Stage check + limits. Empty when the target can run p.
  std::string refuse(const Target& t, const Problem& p) const {
    if (p.m < 1 || p.n < 1 || p.k < 1) return "M, N and K must be at least 1";
    if (p.m > kMaxDim || p.n > kMaxDim || p.k > kMaxDim)
      return "M, N and K must be at most " + std::to_string(kMaxDim);
    if (1ll * p.m * p.k > kMaxElements || 1ll * p.k * p.n > kMaxElements ||
        1ll * p.m * p.n > kMaxElements)
      return "each matrix must have fewer than 2^31 elements (the kernels index with 32-bit ints)";
    if (t.stage) {
      if (const char* why = t.stage->get().check(p.m, p.n, p.k)) return why;
    }
    return {};
  }

  size_t workspace_bytes(const Target& t, const Problem& p) const {
    return t.stage ? t.stage->get().workspace(p.m, p.n, p.k) : 0;
  }

  CheckResult check(Runner& self, const Target& t, const Problem& p, float alpha, float beta,
                    bool host_reference);

  // C's error against a reference already on the GPU: relative Frobenius error, non-finite
  // elements of c, guard words changed around c (c = guarded + kGuardWords, n elements).
  CheckResult compare_on_gpu(const float* c, const float* ref, size_t n, const uint32_t* guarded, double tol);
  // How many input sets of set_bytes to rotate through (their total >= 3x the L2, within the free
  // memory less extra_bytes); 0 with `refusal` set when not even one fits.
  int rotation_sets(double set_bytes, double extra_bytes, std::string& refusal) const;
  // Times `count` targets in turns (Runner::time_interleaved): run(j, i) launches target j on input
  // set i (the caller rotates i over its sets). flops: of one run.
  std::vector<TimeResult> time_in_turns(size_t count, const std::function<void(size_t, int)>& run,
                                        const TimeOptions& opt, double flops, int sets);

  // Throws GpuError when `bytes` more would not fit in what the GPU has free.
  std::string memory_refusal(double bytes) const {
    size_t free_b = 0, total_b = 0;
    GL_CUDA(cudaMemGetInfo(&free_b, &total_b));
    if (bytes > kUsableFreeMemory * double(free_b))
      return "needs " + gib(bytes) + " of GPU memory and " + gib(double(free_b)) +
             " is free: choose smaller sizes";
    return {};
  }
};

}  // namespace gemmlab::kernels
