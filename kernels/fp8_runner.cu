// The runner's FP8 GEMMs (runner.h: validate_fp8, check_fp8, check_fp8_host, time_fp8): D (bf16,
// row-major M x N) = scales * A (e4m3, M x K) * B^T (e4m3, N x K), a stage or cuBLASLt
// (fp8_cublaslt.h), on random non-zero e4m3 with per-tensor scales 0.75 / 1.25 or random block
// scales in [0.5, 2], D poisoned with NaN and fenced by guard words.
//
// Correctness, of a stage and of cuBLASLt alike: r = sum_k sa sb a_k b_k in double from the exact
// e4m3 values (every product of two e4m3 is exact), S = sum_k |sa sb a_k b_k| (the scales of each
// product's block with block scales).
//   random data: |d - r| <= 2^-7 |r| + ceil(K/32) 2^-13 S
//     2^-7 |r|: bf16 keeps 8 significant bits; rounding to nearest costs up to 2^-8, one bit of margin.
//     ceil(K/32) 2^-13 S: a k32 wgmma adds FP8 products into accumulators that keep about 14 bits
//     (kernels/lab/FP8_NOTES.md, the probe), so each of the K/32 additions may lose up to 2^-13 of a
//     partial sum, which S bounds. A worst case: measured errors sit far below it.
//   +-1 data: |d - r| <= 2^-8 |r|. Every partial sum is an integer of a random walk far below
//     2^13 (block scales: powers of two, so the scaled sums stay exact in fp32), so only bf16's
//     rounding remains: one missing or doubled product fails.
#include <cuda_bf16.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "fp8_cublaslt.h"
#include "gemmlab/fp8_shapes.h"  // scale_b_stride
#include "runner.h"
#include "runner_support.cuh"

namespace gemmlab::kernels {

namespace {

static_assert(sizeof(cublasLtMatmulAlgo_t) == sizeof(uint64_t) * 8, "Impl::lt_algos holds its bytes");
constexpr int kBlock = fp8::kScaleBlock;  // the block scales' extent along k, m and n
int blocks_of(int extent) { return fp8::scale_blocks(extent); }
bool block_scaled(Track t) { return t == Track::fp8_block; }

// ---------------------------------------------------------------- data
// e4m3 bits s eeee mmm with exponent field 4..10 (2^-3 .. 2^3 x 1.mmm): never zero, never NaN.
__global__ void fill_e4m3(uint8_t* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t h = uint32_t(splitmix64(seed ^ (i * 0xD1B54A32D192ED03ull)) >> 32);
    const uint32_t exponent = 4 + (h >> 8) % 7, mantissa = h & 7, sign = (h >> 4) & 1;
    p[i] = uint8_t(sign << 7 | exponent << 3 | mantissa);
  }
}
// +-1 (e4m3 0x38 / 0xB8) with random signs.
__global__ void fill_pm1(uint8_t* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = (splitmix64(seed ^ (i * 0xD1B54A32D192ED03ull)) >> 40) & 1 ? 0xB8 : 0x38;
}
// Block scales: uniform in [0.5, 2), or (exact sums) one of 0.5, 1, 2.
__global__ void fill_scales(float* p, size_t n, uint64_t seed, bool powers_of_two) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const float u = 0.5f * (uniform_pm1(seed, i) + 1.f);  // [0, 1)
    p[i] = powers_of_two ? (u < 1.f / 3 ? 0.5f : u < 2.f / 3 ? 1.f : 2.f) : 0.5f + 1.5f * u;
  }
}
// The weights' block scales as stage 20b and cuBLASLt read them: rows of ceil(K/128) floats at
// stride scale_b_stride (gemmlab/fp8_shapes.h); the reference reads the unpadded rows.
__global__ void pad_scales(const float* in, float* out, int rows, int cols, int stride) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * stride; i += gridDim.x * blockDim.x)
    out[i] = i % stride < cols ? in[(i / stride) * cols + i % stride] : 0.f;
}

__host__ __device__ inline float e4m3_value(uint8_t b) {
  __nv_fp8_e4m3 v;
  v.__x = b;
  return float(v);
}

// The scale of the products of output (row, col) in k-block kb.
struct Scales {
  const float *a, *b;
  int m, k_blocks;
  bool block;
  __host__ __device__ double of(int row, int col, int kb) const {
    return block ? double(a[size_t(kb) * m + row]) * double(b[size_t(col / kBlock) * k_blocks + kb])
                 : double(a[0]) * double(b[0]);
  }
};

// r and S for every output, 16 x 16 outputs a block, k in slices of 32 through shared memory; the
// products of a 128-k block summed exactly in double, then scaled.
__global__ void reference_kernel(const uint8_t* A, const uint8_t* B, int M, int N, int K, Scales sc, double* r,
                                 float* s) {
  __shared__ float a[16][33], b[16][33];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  const bool inside = row < M && col < N;
  double sum = 0, block_sum = 0, abs_sum = 0, block_abs = 0;
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
      block_sum += double(p);
      block_abs += double(fabsf(p));
    }
    __syncthreads();
    if ((k0 + 32) % kBlock == 0 || k0 + 32 >= K) {
      const double scale = inside ? sc.of(row, col, k0 / kBlock) : 0.0;
      sum += block_sum * scale, abs_sum += block_abs * fabs(scale);
      block_sum = block_abs = 0;
    }
  }
  if (inside) {
    r[size_t(row) * N + col] = sum;
    s[size_t(row) * N + col] = float(abs_sum);
  }
}

// ---------------------------------------------------------------- comparison
struct Tally {
  unsigned long long outside, nonfinite, guard;
  unsigned worst_bits;  // a non-negative float's bits order as the float does
  double diff2, ref2;
};

// tol = 2^r_exp |r| + s_coef S per element; guard words around D.
__global__ void check_kernel(const __nv_bfloat16* D, const double* r, const float* s, size_t n, int r_exp,
                             double s_coef, const uint32_t* guard_lo, const uint32_t* guard_hi, Tally* out) {
  unsigned long long outside = 0, nonfinite = 0, guard = 0;
  float worst = 0;
  double diff2 = 0, ref2 = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const double d = double(__bfloat162float(D[i]));
    if (!isfinite(d)) {
      ++nonfinite;
      continue;
    }
    const double err = fabs(d - r[i]), tol = ldexp(fabs(r[i]), r_exp) + s_coef * double(s[i]);
    outside += !(err <= tol);
    if (err > 0) worst = fmaxf(worst, tol > 0 ? float(err / tol) : INFINITY);
    diff2 += err * err, ref2 += r[i] * r[i];
  }
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < kGuardWords; i += stride)
    guard += (guard_lo[i] != kGuardWord) + (guard_hi[i] != kGuardWord);
  for (int o = 16; o > 0; o /= 2) {
    outside += __shfl_down_sync(0xffffffffu, outside, o);
    nonfinite += __shfl_down_sync(0xffffffffu, nonfinite, o);
    guard += __shfl_down_sync(0xffffffffu, guard, o);
    worst = fmaxf(worst, __shfl_down_sync(0xffffffffu, worst, o));
    diff2 += __shfl_down_sync(0xffffffffu, diff2, o);
    ref2 += __shfl_down_sync(0xffffffffu, ref2, o);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&out->outside, outside);
    atomicAdd(&out->nonfinite, nonfinite);
    atomicAdd(&out->guard, guard);
    atomicMax(&out->worst_bits, __float_as_uint(worst));
    atomicAdd(&out->diff2, diff2);
    atomicAdd(&out->ref2, ref2);
  }
}

// The same on the host (check_fp8_host).
Tally tally_on_host(const std::vector<uint32_t>& guarded, size_t n, const std::vector<double>& r,
                    const std::vector<float>& s, int r_exp, double s_coef) {
  Tally t{};
  float worst = 0;
  const size_t hi = kGuardWords + (n * 2 + 15) / 16 * 4;  // words before the upper guard
  for (size_t i = 0; i < kGuardWords; ++i)
    t.guard += (guarded[i] != kGuardWord) + (guarded[hi + i] != kGuardWord);
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(guarded.data()) + 4 * kGuardWords;
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits = uint32_t(bytes[2 * i]) << 16 | uint32_t(bytes[2 * i + 1]) << 24;  // bf16 -> f32, little-endian
    float v;
    std::memcpy(&v, &bits, 4);
    if (!std::isfinite(v)) {
      ++t.nonfinite;
      continue;
    }
    const double err = std::fabs(double(v) - r[i]), tol = std::ldexp(std::fabs(r[i]), r_exp) + s_coef * double(s[i]);
    t.outside += !(err <= tol);
    if (err > 0) worst = std::max(worst, tol > 0 ? float(err / tol) : INFINITY);
    t.diff2 += err * err, t.ref2 += r[i] * r[i];
  }
  std::memcpy(&t.worst_bits, &worst, 4);
  return t;
}

// r and S on the host from the operands and scales copied back.
void reference_on_host(const std::vector<uint8_t>& A, const std::vector<uint8_t>& B, const std::vector<float>& sa,
                       const std::vector<float>& sb, const Problem& p, bool block, std::vector<double>* r,
                       std::vector<float>* s) {
  const Scales sc{sa.data(), sb.data(), p.m, blocks_of(p.k), block};
  r->assign(size_t(p.m) * p.n, 0.0), s->assign(size_t(p.m) * p.n, 0.f);
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      double sum = 0, abs_sum = 0;
      for (int kb = 0; kb * kBlock < p.k; ++kb) {
        double part = 0, part_abs = 0;
        for (int k = kb * kBlock; k < std::min(p.k, (kb + 1) * kBlock); ++k) {
          const double x = double(e4m3_value(A[size_t(i) * p.k + k])) * e4m3_value(B[size_t(j) * p.k + k]);
          part += x, part_abs += std::fabs(x);
        }
        const double scale = sc.of(i, j, kb);
        sum += part * scale, abs_sum += part_abs * std::fabs(scale);
      }
      (*r)[size_t(i) * p.n + j] = sum;
      (*s)[size_t(i) * p.n + j] = float(abs_sum);
    }
}

// ---------------------------------------------------------------- buffers and runs
// One set of inputs and output. D sits after kGuardWords guard words, the upper guard 16-byte aligned.
struct Fp8Set {
  DeviceBuffer A, B, D, scale_a, scale_b, scale_b_lt;
  __nv_bfloat16* d() const { return reinterpret_cast<__nv_bfloat16*>(D.get<uint32_t>() + kGuardWords); }
};
size_t d_words(const Problem& p) { return (size_t(p.m) * p.n * 2 + 15) / 16 * 4; }
size_t scale_a_floats(const Problem& p, bool block) { return block ? size_t(blocks_of(p.k)) * p.m : 1; }
size_t scale_b_floats(const Problem& p, bool block) { return block ? size_t(blocks_of(p.n)) * blocks_of(p.k) : 1; }
double set_bytes(const Problem& p, bool block) {
  const size_t lt = block ? size_t(blocks_of(p.n)) * fp8::scale_b_stride(p.k) : 1;
  return double(p.m + p.n) * p.k + 4.0 * (d_words(p) + 2 * kGuardWords) +
         4.0 * double(scale_a_floats(p, block) + scale_b_floats(p, block) + lt);
}

struct Fp8Ops {
  explicit Fp8Ops(Runner::Impl& impl) : I(impl) {}
  Runner::Impl& I;
  std::map<std::array<int, 4>, std::shared_ptr<fp8lt::Matmul>> matmuls;  // descriptors made once per problem
  static constexpr size_t kWorkspaceBytes = 64ull << 20;

  const fp8lt::Matmul& matmul(const Problem& p, bool block) {
    std::shared_ptr<fp8lt::Matmul>& m = matmuls[{block, p.m, p.n, p.k}];
    if (!m) m = std::make_shared<fp8lt::Matmul>(block, p.m, p.n, p.k);
    return *m;
  }

  cublasLtHandle_t lt() {
    if (!I.cublaslt) {
      GL_CUBLAS(cublasLtCreate(&I.cublaslt));
      I.lt_workspace = DeviceBuffer(kWorkspaceBytes);
    }
    return I.cublaslt;
  }
  int blocks(size_t n) const { return I.fill_blocks(n); }

  Fp8Set make_set(const Problem& p, bool block) {
    Fp8Set s{DeviceBuffer(size_t(p.m) * p.k), DeviceBuffer(size_t(p.n) * p.k),
             DeviceBuffer(4 * (d_words(p) + 2 * kGuardWords)), DeviceBuffer(4 * scale_a_floats(p, block)),
             DeviceBuffer(4 * scale_b_floats(p, block)), DeviceBuffer()};
    if (block) s.scale_b_lt = DeviceBuffer(4 * size_t(blocks_of(p.n)) * fp8::scale_b_stride(p.k));
    fill_data(s, p, block, false);
    poison(s, p);
    return s;
  }
  // Random e4m3 and scales, or (exact) +-1 and power-of-two block scales.
  void fill_data(Fp8Set& s, const Problem& p, bool block, bool exact) {
    auto* fill = exact ? fill_pm1 : fill_e4m3;
    fill<<<blocks(s.A.bytes()), 256, 0, I.stream>>>(s.A.get<uint8_t>(), s.A.bytes(), I.next_seed());
    fill<<<blocks(s.B.bytes()), 256, 0, I.stream>>>(s.B.get<uint8_t>(), s.B.bytes(), I.next_seed());
    GL_CUDA(cudaGetLastError());
    if (!block) {
      static const float kScales[2] = {0.75f, 1.25f};
      GL_CUDA(cudaMemcpyAsync(s.scale_a.get(), &kScales[0], 4, cudaMemcpyHostToDevice, I.stream));
      GL_CUDA(cudaMemcpyAsync(s.scale_b.get(), &kScales[1], 4, cudaMemcpyHostToDevice, I.stream));
      return;
    }
    for (DeviceBuffer* b : {&s.scale_a, &s.scale_b})
      fill_scales<<<blocks(b->bytes() / 4), 256, 0, I.stream>>>(b->get<float>(), b->bytes() / 4, I.next_seed(), exact);
    const int stride = fp8::scale_b_stride(p.k);
    pad_scales<<<blocks(size_t(blocks_of(p.n)) * stride), 256, 0, I.stream>>>(
        s.scale_b.get<float>(), s.scale_b_lt.get<float>(), blocks_of(p.n), blocks_of(p.k), stride);
    GL_CUDA(cudaGetLastError());
  }
  // D all NaN (bf16 0xFFFF), the guard words around it.
  void poison(Fp8Set& s, const Problem& p) {
    GL_CUDA(cudaMemsetAsync(s.d(), 0xFF, 4 * d_words(p), I.stream));
    I.fill(s.D.get<uint32_t>(), kGuardWords, kGuardWord);
    I.fill(s.D.get<uint32_t>() + kGuardWords + d_words(p), kGuardWords, kGuardWord);
  }

  Fp8GemmArgs args(const Fp8Set& s, const Problem& p) const {
    Fp8GemmArgs a;
    a.A = s.A.get<__nv_fp8_e4m3>(), a.B = s.B.get<__nv_fp8_e4m3>(), a.D = s.d();
    a.m = p.m, a.n = p.n, a.k = p.k, a.stream = I.stream;
    a.scale_a = s.scale_a.get<float>();
    // Block scales: stage 20b reads cuBLASLt's layout (gemmlab/fp8_shapes.h, scale_b_stride).
    a.scale_b = s.scale_b_lt.bytes() ? s.scale_b_lt.get<float>() : s.scale_b.get<float>();
    return a;
  }

  // cuBLASLt's algorithm for this problem: the fastest of its heuristic's candidates on `s`, each
  // timed briefly (once per problem and runner). Empty, or cuBLASLt's words why it refuses.
  std::string pick(const Problem& p, bool block, const Fp8Set& s);
  // One run of the target on set `s`; cuBLASLt's refusal is thrown as a GpuError.
  void run(const Fp8Target& t, const Problem& p, const Fp8Set& s) {
    const bool block = block_scaled(t.track);
    if (t.kind == Fp8Target::Kind::Stage) {
      const cudaError_t e = t.stage->get().launch_fp8(args(s, p));
      if (e != cudaSuccess) throw_cuda(e, ("launch of " + t.id()).c_str(), __FILE__, __LINE__);
      GL_CUDA(cudaGetLastError());
      return;
    }
    cublasLtMatmulAlgo_t algo;
    std::memcpy(&algo, I.lt_algos.at({block, p.m, p.n, p.k}).data(), sizeof algo);
    const cublasStatus_t st = matmul(p, block).run(lt(), args(s, p), algo, I.lt_workspace.get(), I.lt_workspace.bytes());
    if (st != CUBLAS_STATUS_SUCCESS) throw GpuError("cublasLtMatmul (FP8) failed: " + fp8lt::status_text(st));
  }
};

std::string Fp8Ops::pick(const Problem& p, bool block, const Fp8Set& s) {
  const std::array<int, 4> key = {block, p.m, p.n, p.k};
  if (I.lt_algos.count(key)) return {};
  const fp8lt::Matmul& mm = matmul(p, block);
  std::vector<fp8lt::Algo> found;
  const cublasStatus_t st = mm.candidates(lt(), args(s, p), I.lt_workspace.bytes(), 8, &found);
  if (st != CUBLAS_STATUS_SUCCESS)
    return "cuBLASLt has no FP8 algorithm for this problem (" + fp8lt::status_text(st) + ")";
  cudaEvent_t ev[2];
  GL_CUDA(cudaEventCreate(&ev[0]));
  GL_CUDA(cudaEventCreate(&ev[1]));
  float best = INFINITY;
  cublasStatus_t last = CUBLAS_STATUS_SUCCESS;
  for (const fp8lt::Algo& candidate : found) {
    const cublasLtMatmulAlgo_t& algo = candidate.algo;
    auto once = [&] { return mm.run(I.cublaslt, args(s, p), algo, I.lt_workspace.get(), I.lt_workspace.bytes()); };
    if ((last = once()) != CUBLAS_STATUS_SUCCESS) continue;
    GL_CUDA(cudaEventRecord(ev[0], I.stream));
    for (int i = 0; i < 5; ++i) once();
    GL_CUDA(cudaEventRecord(ev[1], I.stream));
    GL_CUDA(cudaEventSynchronize(ev[1]));
    float ms = 0;
    GL_CUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    if (ms < best) {
      best = ms;
      std::memcpy(I.lt_algos[key].data(), &algo, sizeof algo);
    }
  }
  cudaEventDestroy(ev[0]), cudaEventDestroy(ev[1]);
  if (!I.lt_algos.count(key))
    return "none of cuBLASLt's " + std::to_string(found.size()) + " FP8 candidates ran (" + fp8lt::status_text(last) + ")";
  return {};
}

}  // namespace

std::string Fp8Target::id() const { return kind == Kind::Stage ? stage->id : gemm_reference(track)->id; }

// ---------------------------------------------------------------- Runner's FP8 entry points
std::string Runner::validate_fp8(const Problem& p, const Fp8Target& t) const {
  if (!is_fp8(t.track)) return t.id() + " is not an FP8 target";
  if (p.m < 1 || p.n < 1 || p.k < 1) return "M, N and K must be at least 1";
  if (p.m > kMaxDim || p.n > kMaxDim || p.k > kMaxDim) return "M, N and K must be at most " + std::to_string(kMaxDim);
  if (1ll * p.m * p.k > kMaxElements || 1ll * p.k * p.n > kMaxElements || 1ll * p.m * p.n > kMaxElements)
    return "each matrix must have fewer than 2^31 elements (the kernels index with 32-bit ints)";
  if (t.kind == Fp8Target::Kind::Stage) {
    const StageLaunch l = t.stage->get();
    if (!l.check_fp8) return t.id() + " is not an FP8 stage";
    if (const char* why = l.check_fp8(p.m, p.n, p.k)) return why;
  }
  // One set, the reference (r in double, S in float) and cuBLASLt's workspace.
  const double mn = double(p.m) * p.n;
  return impl_->memory_refusal(set_bytes(p, block_scaled(t.track)) + 12.0 * mn + double(Fp8Ops::kWorkspaceBytes));
}

namespace {

Tally tally_on_gpu(Runner::Impl& I, const Fp8Set& s, const Problem& p, const DeviceBuffer& r, const DeviceBuffer& abs,
                   int r_exp, double s_coef) {
  DeviceBuffer out(sizeof(Tally));
  GL_CUDA(cudaMemsetAsync(out.get(), 0, sizeof(Tally), I.stream));
  const size_t n = size_t(p.m) * p.n;
  check_kernel<<<I.fill_blocks(n), 256, 0, I.stream>>>(s.d(), r.get<double>(), abs.get<float>(), n, r_exp, s_coef,
                                                       s.D.get<uint32_t>(), s.D.get<uint32_t>() + kGuardWords + d_words(p),
                                                       out.get<Tally>());
  GL_CUDA(cudaGetLastError());
  Tally t{};
  GL_CUDA(cudaMemcpyAsync(&t, out.get(), sizeof t, cudaMemcpyDeviceToHost, I.stream));
  GL_CUDA(cudaStreamSynchronize(I.stream));
  return t;
}

template <class T>
std::vector<T> to_host(Runner::Impl& I, const DeviceBuffer& b) {
  std::vector<T> v(b.bytes() / sizeof(T));
  GL_CUDA(cudaMemcpyAsync(v.data(), b.get(), v.size() * sizeof(T), cudaMemcpyDeviceToHost, I.stream));
  GL_CUDA(cudaStreamSynchronize(I.stream));
  return v;
}

// One of the two checks on the set's current data: reference, run, tally.
Tally check_once(Runner::Impl& I, Fp8Ops& ops, const Fp8Target& t, const Problem& p, Fp8Set& s, bool host, bool exact) {
  const int r_exp = exact ? -8 : -7;
  const double s_coef = exact ? 0.0 : std::ldexp(double((p.k + 31) / 32), -13);
  const bool block = block_scaled(t.track);
  ops.poison(s, p);
  if (host) {
    std::vector<double> r;
    std::vector<float> abs;
    reference_on_host(to_host<uint8_t>(I, s.A), to_host<uint8_t>(I, s.B), to_host<float>(I, s.scale_a),
                      to_host<float>(I, s.scale_b), p, block, &r, &abs);
    ops.run(t, p, s);
    return tally_on_host(to_host<uint32_t>(I, s.D), size_t(p.m) * p.n, r, abs, r_exp, s_coef);
  }
  const size_t n = size_t(p.m) * p.n;
  DeviceBuffer r(n * 8), abs(n * 4);
  const Scales sc{s.scale_a.get<float>(), s.scale_b.get<float>(), p.m, blocks_of(p.k), block};
  reference_kernel<<<dim3((p.n + 15) / 16, (p.m + 15) / 16), 256, 0, I.stream>>>(
      s.A.get<uint8_t>(), s.B.get<uint8_t>(), p.m, p.n, p.k, sc, r.get<double>(), abs.get<float>());
  GL_CUDA(cudaGetLastError());
  ops.run(t, p, s);
  return tally_on_gpu(I, s, p, r, abs, r_exp, s_coef);
}

CheckResult check_fp8_impl(Runner& self, Runner::Impl& I, const Fp8Target& t, const Problem& p, bool host) {
  CheckResult r;
  r.per_element = true;
  if (std::string why = self.validate_fp8(p, t); !why.empty()) {
    r.rejected = why;
    return r;
  }
  Fp8Ops ops{I};
  const bool block = block_scaled(t.track);
  Fp8Set s = ops.make_set(p, block);
  if (t.kind == Fp8Target::Kind::CublasLt)
    if (std::string why = ops.pick(p, block, s); !why.empty()) {
      r.rejected = why;
      return r;
    }
  const Tally random = check_once(I, ops, t, p, s, host, false);
  ops.fill_data(s, p, block, true);
  const Tally exact = check_once(I, ops, t, p, s, host, true);
  float worst = 0;
  std::memcpy(&worst, &random.worst_bits, 4);
  r.outside = (long long)random.outside, r.outside_exact = (long long)exact.outside, r.worst = worst;
  r.nonfinite = (long long)(random.nonfinite + exact.nonfinite);
  r.guard_hits = (long long)(random.guard + exact.guard);
  r.rel_err = random.ref2 > 0 ? std::sqrt(random.diff2 / random.ref2) : (random.diff2 > 0 ? INFINITY : 0.0);
  r.ok = r.outside == 0 && r.outside_exact == 0 && r.nonfinite == 0 && r.guard_hits == 0;
  return r;
}

}  // namespace

CheckResult Runner::check_fp8(const Fp8Target& t, const Problem& p) { return check_fp8_impl(*this, *impl_, t, p, false); }

CheckResult Runner::check_fp8_host(const Fp8Target& t, const Problem& p) {
  if (double(p.m) * p.n * p.k > double(1 << 30)) {
    CheckResult r;
    r.rejected = "the host reference is for M*N*K up to 2^30; use check_fp8() for larger problems";
    return r;
  }
  return check_fp8_impl(*this, *impl_, t, p, true);
}

std::vector<TimeResult> Runner::time_fp8(const std::vector<Fp8Target>& targets, const Problem& p,
                                         const TimeOptions& opt) {
  std::vector<TimeResult> results(targets.size());
  for (const Fp8Target& t : targets) {
    std::string why = validate_fp8(p, t);
    if (why.empty() && t.track != targets.front().track) why = "interleaved targets must read the same operands";
    if (!why.empty()) {
      for (TimeResult& r : results) r.rejected = why;
      return results;
    }
  }
  Impl& I = *impl_;
  Fp8Ops ops{I};
  const bool block = block_scaled(targets.front().track);
  std::string refusal;
  const int sets = I.rotation_sets(set_bytes(p, block), double(Fp8Ops::kWorkspaceBytes), refusal);
  if (!refusal.empty()) {
    for (TimeResult& r : results) r.rejected = refusal;
    return results;
  }
  std::vector<Fp8Set> inputs;
  inputs.reserve(size_t(sets));
  for (int i = 0; i < sets; ++i) inputs.push_back(ops.make_set(p, block));
  // cuBLASLt refusing this problem leaves the others to be timed without it.
  std::vector<size_t> running;
  for (size_t j = 0; j < targets.size(); ++j) {
    if (targets[j].kind == Fp8Target::Kind::CublasLt) results[j].rejected = ops.pick(p, block, inputs[0]);
    if (results[j].rejected.empty()) running.push_back(j);
  }
  if (running.empty()) return results;
  TimeOptions o = opt;
  if (o.reps <= 0) o.reps = -(p.flops() >= 2.0 * 8192.0 * 8192.0 * 8192.0 ? 10 : 20);
  const std::vector<TimeResult> timed = I.time_in_turns(
      running.size(), [&](size_t j, int i) { ops.run(targets[running[j]], p, inputs[size_t(i) % inputs.size()]); }, o,
      p.flops(), sets);
  for (size_t j = 0; j < running.size(); ++j) results[running[j]] = timed[j];
  return results;
}

}  // namespace gemmlab::kernels
