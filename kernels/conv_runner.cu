// The runner's convolutions (runner.h: check_conv, check_conv_host, time_conv): NHWC activations
// and KRSC filters of random values, NPQK fp32 output poisoned with NaN and fenced by guard words,
// the explicit im2col + cuBLAS reference, a direct convolution in double on the host.
#include <cmath>
#include <cstring>

#include "conv_cudnn.h"
#include "runner.h"
#include "runner_support.cuh"

namespace gemmlab::kernels {

using conv::Element;

namespace {

// Bytes of `elements` elements of e, rounded up to whole 16-byte vectors.
size_t tensor_bytes(long long elements, Element e) {
  const size_t bytes = size_t((elements * conv::element_bits(e) + 7) / 8);
  return (bytes + 15) / 16 * 16;
}

// Random bits: every int8 in -128..127 and every int4 in -8..7 equally likely.
__global__ void fill_random_words(uint32_t* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = uint32_t(splitmix64(seed ^ (i * 0xD1B54A32D192ED03ull)) >> 32);
}

// Element e of a tensor of E, as a float (exact: int8 and int4 values are fp16 integers).
template <Element E>
__host__ __device__ inline float element_value(const void* t, long long e) {
  if constexpr (E == Element::F16) return __half2float(static_cast<const __half*>(t)[e]);
  else if constexpr (E == Element::S8) return float(static_cast<const int8_t*>(t)[e]);
  else return float(conv::s4_get(static_cast<const uint32_t*>(t)[e / 8], int(e % 8)));
}
float element_value(Element e, const void* t, long long i) {
  return e == Element::F16 ? element_value<Element::F16>(t, i)
         : e == Element::S8 ? element_value<Element::S8>(t, i)
                            : element_value<Element::S4>(t, i);
}

// The explicit im2col: columns[m][kk] (fp16, row-major M x R*S*C) = A(m, kk) of the implicit GEMM,
// 8 elements per thread (C % 8 == 0 keeps them inside one tap).
template <Element E>
__global__ void im2col_kernel(const void* input, __half* columns, conv::Shape sh) {
  const long long gk = sh.gemm_k(), vectors = sh.gemm_m() * gk / 8;
  for (long long v = blockIdx.x * 1ll * blockDim.x + threadIdx.x; v < vectors; v += 1ll * gridDim.x * blockDim.x) {
    const long long m = v * 8 / gk;
    const int kk = int(v * 8 % gk);
    const conv::Nhwc x = conv::input_of(sh, conv::row_pixel(sh, m), conv::k_tap(sh, kk));
    __align__(16) __half h[8];
    const bool inside = conv::in_tensor(sh, x);
    const long long at = inside ? conv::activation_offset(sh, x) : 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) h[j] = __float2half(inside ? element_value<E>(input, at + j) : 0.f);
    reinterpret_cast<uint4*>(columns)[v] = *reinterpret_cast<const uint4*>(h);
  }
}
// The same element by element, for any C (the stem's C = 3: 8 neighbouring columns may span taps).
template <Element E>
__global__ void im2col_scalar_kernel(const void* input, __half* columns, conv::Shape sh) {
  const long long gk = sh.gemm_k(), elements = sh.gemm_m() * gk;
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < elements; i += 1ll * gridDim.x * blockDim.x) {
    const conv::Nhwc x = conv::input_of(sh, conv::row_pixel(sh, i / gk), conv::k_tap(sh, int(i % gk)));
    columns[i] = __float2half(conv::in_tensor(sh, x) ? element_value<E>(input, conv::activation_offset(sh, x)) : 0.f);
  }
}
// Integer filters widened to fp16 for cuBLAS (exact).
template <Element E>
__global__ void widen_kernel(const void* t, __half* out, long long n) {
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
    out[i] = __float2half(element_value<E>(t, i));
}

// Direct convolution in double: out(m, k) = alpha * sum over taps + beta * out0(m, k); `terms2`
// gets the norm the error is measured against (alpha_beta_output).
std::vector<double> host_conv(const conv::Shape& sh, Element e, const std::vector<unsigned char>& in,
                              const std::vector<unsigned char>& f, const std::vector<float>& out0, float alpha,
                              float beta, double* terms2) {
  const long long M = sh.gemm_m();
  const int GK = int(sh.gemm_k());
  std::vector<double> out(size_t(M) * sh.k);
  std::vector<double> column(GK);
  *terms2 = 0;
  for (long long m = 0; m < M; ++m) {
    const conv::Npq o = conv::row_pixel(sh, m);
    for (int kk = 0; kk < GK; ++kk) {
      const conv::Nhwc x = conv::input_of(sh, o, conv::k_tap(sh, kk));
      column[kk] = conv::in_tensor(sh, x) ? element_value(e, in.data(), conv::activation_offset(sh, x)) : 0.0;
    }
    for (int k = 0; k < sh.k; ++k) {
      double acc = 0;
      for (int kk = 0; kk < GK; ++kk) acc += column[kk] * element_value(e, f.data(), 1ll * k * GK + kk);
      const size_t i = size_t(conv::output_offset(sh, m, k));
      out[i] = alpha_beta_output(double(alpha) * acc, beta != 0.f ? double(beta) * out0[i] : 0.0, terms2);
    }
  }
  return out;
}

// The fused epilogue on the fp32 reference, in fp32 (the stage sums the same terms in fp32 too):
// y = ReLU(y + bias[k] + residual).
__global__ void epilogue_reference(float* y, const float* bias, const __half* residual, long long n, int k, bool relu) {
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x) {
    float v = y[i] + bias[i % k] + (residual ? __half2float(residual[i]) : 0.f);
    y[i] = relu ? fmaxf(v, 0.f) : v;
  }
}
__global__ void widen_f16(const __half* in, float* out, long long n) {
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
    out[i] = __half2float(in[i]);
}
// Both halves of the word NaN (exponent all ones, mantissa 0x201): an fp16 output never written.
constexpr uint32_t kPoisonHalves = 0x7E017E01u;
size_t half_words(long long elements) { return size_t(elements + 1) / 2; }

// One set of tensors a conv target reads and writes, with what the im2col reference needs; fused
// targets also read bias (K fp32) and residual (fp16 NPQK) and write out16 (fp16 NPQK, after
// `guard` 32-bit words).
struct ConvBuffers {
  DeviceBuffer input, filter, output, filter16;
  DeviceBuffer bias, residual, out16;
  size_t guard = 0;
  __half* out16_data() const { return reinterpret_cast<__half*>(out16.get<uint32_t>() + guard); }
};

}  // namespace

std::string ConvTarget::id() const {
  if (launch_instead) return name_instead;
  if (kind == Kind::Stage) return stage->id;
  return reference_of_kind(kind == Kind::Im2colCublas ? ReferenceKind::Im2colCublas
                           : kind == Kind::Cudnn      ? ReferenceKind::Cudnn
                                                      : ReferenceKind::CudnnFused)
      .id;
}

bool cudnn_built() { return cudnn::built(); }
std::string cudnn_version() { return cudnn::version(); }

// ---------------------------------------------------------------- Impl's conv helpers
namespace {

struct ConvOps {
  Runner::Impl& I;

  void fill_tensor(void* p, long long elements, Element e) {
    if (e == Element::F16) return I.fill_random(p, size_t(elements), Track::fp16);
    const size_t words = tensor_bytes(elements, e) / 4;
    fill_random_words<<<I.fill_blocks(words), 256, 0, I.stream>>>(static_cast<uint32_t*>(p), words, I.next_seed());
    GL_CUDA(cudaGetLastError());
  }
  ConvBuffers make_set(const conv::Shape& sh, Element e, bool im2col, size_t guard_words) {
    ConvBuffers b{DeviceBuffer(tensor_bytes(sh.input_elements(), e)), DeviceBuffer(tensor_bytes(sh.filter_elements(), e)),
                  DeviceBuffer((size_t(sh.output_elements()) + 2 * guard_words) * 4), DeviceBuffer()};
    fill_tensor(b.input.get(), sh.input_elements(), e);
    fill_tensor(b.filter.get(), sh.filter_elements(), e);
    if (im2col && e != Element::F16) {
      b.filter16 = DeviceBuffer(size_t(sh.filter_elements()) * 2);
      const long long n = sh.filter_elements();
      auto* widen = e == Element::S8 ? widen_kernel<Element::S8> : widen_kernel<Element::S4>;
      widen<<<I.fill_blocks(size_t(n)), 256, 0, I.stream>>>(b.filter.get(), b.filter16.get<__half>(), n);
      GL_CUDA(cudaGetLastError());
    }
    return b;
  }
  void add_fused(ConvBuffers& b, const conv::Shape& sh, size_t guard_words) {
    const long long n = sh.output_elements();
    b.guard = guard_words;
    b.bias = DeviceBuffer(size_t(sh.k) * 4);
    b.residual = DeviceBuffer(size_t(n) * 2);
    b.out16 = DeviceBuffer((half_words(n) + 2 * guard_words) * 4);
    I.fill_random_f32(b.bias.get<float>(), size_t(sh.k));
    I.fill_random(b.residual.get(), size_t(n), Track::fp16);
    I.fill(b.out16.get<uint32_t>(), guard_words, kGuardWord);
    I.fill(b.out16.get<uint32_t>() + guard_words, half_words(n), kPoisonHalves);
    I.fill(b.out16.get<uint32_t>() + guard_words + half_words(n), guard_words, kGuardWord);
  }

  // output: where NPQK goes (inside b.output past its guard words, or a reference buffer).
  // checking: the output is compared next (cuDNN's fp16 output is widened to fp32 for it).
  void run(const ConvTarget& t, const conv::Shape& sh, const ConvBuffers& b, float* output, float alpha, float beta,
           DeviceBuffer& columns, bool checking) {
    ConvArgs a;
    a.shape = sh, a.alpha = alpha, a.beta = beta, a.stream = I.stream;
    a.input = b.input.get(), a.filter = b.filter.get(), a.output = output;
    if (t.fused()) {
      a.output = nullptr, a.output_f16 = b.out16_data(), a.bias = b.bias.get<float>(), a.relu = t.epilogue.relu;
      a.residual = t.epilogue.residual ? b.residual.get() : nullptr;
    }
    if (t.kind == ConvTarget::Kind::CudnnFused) return cudnn::run_fused(a);
    if (t.kind == ConvTarget::Kind::Stage) {
      const cudaError_t e = t.launch_instead ? t.launch_instead(a) : t.stage->get().launch_conv(a);
      if (e != cudaSuccess) throw_cuda(e, ("launch of stage " + t.id()).c_str(), __FILE__, __LINE__);
      GL_CUDA(cudaGetLastError());
      return;
    }
    if (t.kind == ConvTarget::Kind::Cudnn) return cudnn::run(a, t.element, checking);
    const long long vectors = sh.gemm_m() * sh.gemm_k() / 8;
    const int blocks = int(std::min<long long>((vectors + 255) / 256, 1ll * I.info.sms * 32));
    auto* im2col = sh.c % 8 != 0                 ? im2col_scalar_kernel<Element::F16>  // (fp16 only: validate_conv)
                   : t.element == Element::F16 ? im2col_kernel<Element::F16>
                   : t.element == Element::S8  ? im2col_kernel<Element::S8>
                                               : im2col_kernel<Element::S4>;
    im2col<<<blocks, 256, 0, I.stream>>>(b.input.get(), columns.get<__half>(), sh);
    GL_CUDA(cudaGetLastError());
    // NPQK = C^T of (filters as K x RSC) x (columns as RSC x NPQ), both column-major with ld RSC.
    const void* filters = t.element == Element::F16 ? b.filter.get() : b.filter16.get();
    const int gk = int(sh.gemm_k()), gm = int(sh.gemm_m());
    GL_CUBLAS(cublasSetStream(I.cublas, I.stream));
    GL_CUBLAS(cublasGemmEx(I.cublas, CUBLAS_OP_T, CUBLAS_OP_N, sh.k, gm, gk, &alpha, filters, CUDA_R_16F, gk,
                           columns.get(), CUDA_R_16F, gk, &beta, output, CUDA_R_32F, sh.k, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT));
  }
};

size_t columns_bytes(const conv::Shape& sh) { return size_t(sh.gemm_m()) * size_t(sh.gemm_k()) * 2; }

}  // namespace

// ---------------------------------------------------------------- Runner's conv entry points
std::string Runner::validate_conv(const conv::Shape& sh, const ConvTarget& t) const {
  // The references read fp16 tensors of any C (the im2col kernel's scalar form), int8 / int4 ones
  // in 16-byte vectors.
  const char* why = t.kind == ConvTarget::Kind::Stage ? t.stage->get().check_conv(sh)
                    : t.element == Element::F16       ? conv::check_problem(sh)
                                                      : conv::check_shape(sh, t.element);
  if (why) return why;
  if ((t.kind == ConvTarget::Kind::Cudnn || t.kind == ConvTarget::Kind::CudnnFused) && !cudnn::built())
    return "this build has no cuDNN: configure with -DGEMMLAB_CUDNN_ROOT=<folder with include/cudnn.h and lib/>";
  if (t.kind == ConvTarget::Kind::Im2colCublas && sh.gemm_m() * sh.gemm_k() > (1ll << 31) - 1)
    return "the im2col matrix would have 2^31 elements or more: choose a smaller N";
  const double bytes = 2.0 * double(tensor_bytes(sh.input_elements(), t.element) + tensor_bytes(sh.filter_elements(), t.element)) +
                       4.0 * 2 * double(sh.output_elements()) + double(columns_bytes(sh)) + 2.0 * double(sh.filter_elements()) +
                       (t.fused() ? 4.0 * 2 * double(sh.output_elements()) : 0.0);  // residual, out16, widened
  return impl_->memory_refusal(bytes);
}

namespace {

// The fused epilogue on the host reference's conv, in double; its squares in terms2.
void host_epilogue(std::vector<double>& y, const conv::Shape& sh, const std::vector<float>& bias,
                   const std::vector<__half>& residual, const ConvEpilogue& ep, double* terms2) {
  *terms2 = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    double v = y[i] + bias[i % size_t(sh.k)] + (ep.residual ? double(__half2float(residual[i])) : 0.0);
    y[i] = ep.relu && v < 0 ? 0.0 : v;
    *terms2 += y[i] * y[i];
  }
}

// A fused target (fp16 NPQK with bias, residual, ReLU) against the fp32 conv (im2col + cuBLAS, or
// a direct one in double on the host) with the same epilogue: its fp16 output widened, the
// relative Frobenius error, NaN left from the poison, the guard words around the fp16 output.
CheckResult check_fused(Runner::Impl& I, const ConvTarget& t, const conv::Shape& sh, float alpha,
                        bool host_reference) {
  ConvOps ops{I};
  const long long n = sh.output_elements();
  ConvBuffers b = ops.make_set(sh, Element::F16, /*im2col=*/true, 0);
  ops.add_fused(b, sh, kGuardWords);
  DeviceBuffer ref(size_t(n) * 4), columns(host_reference ? 0 : columns_bytes(sh));
  DeviceBuffer wide((size_t(n) + 2 * kGuardWords) * 4);
  I.fill(wide.get<uint32_t>(), size_t(n) + 2 * kGuardWords, kGuardWord);
  if (!host_reference) {
    ops.run(ConvTarget::im2col_cublas(Element::F16), sh, b, ref.get<float>(), alpha, 0.f, columns, true);
    epilogue_reference<<<I.fill_blocks(size_t(n)), 256, 0, I.stream>>>(
        ref.get<float>(), b.bias.get<float>(), t.epilogue.residual ? b.residual.get<__half>() : nullptr, n, sh.k,
        t.epilogue.relu);
    GL_CUDA(cudaGetLastError());
  }
  ops.run(t, sh, b, nullptr, alpha, 0.f, columns, true);
  std::vector<uint32_t> words(b.out16.bytes() / 4);
  GL_CUDA(cudaMemcpyAsync(words.data(), b.out16.get(), b.out16.bytes(), cudaMemcpyDeviceToHost, I.stream));
  widen_f16<<<I.fill_blocks(size_t(n)), 256, 0, I.stream>>>(b.out16_data(), wide.get<float>() + kGuardWords, n);
  GL_CUDA(cudaGetLastError());
  GL_CUDA(cudaStreamSynchronize(I.stream));
  long long guard_hits = 0;
  for (size_t i = 0; i < kGuardWords; ++i)
    guard_hits += (words[i] != kGuardWord) + (words[kGuardWords + half_words(n) + i] != kGuardWord);
  CheckResult r;
  const double tol = tolerance(Track::conv_fused);
  if (!host_reference) {
    r = I.compare_on_gpu(wide.get<float>() + kGuardWords, ref.get<float>(), size_t(n), wide.get<uint32_t>(), tol);
  } else {
    std::vector<unsigned char> in(b.input.bytes()), f(b.filter.bytes());
    std::vector<float> bias(static_cast<size_t>(sh.k));
    std::vector<__half> residual(static_cast<size_t>(n));
    std::vector<uint32_t> got(size_t(n) + 2 * kGuardWords);
    GL_CUDA(cudaMemcpy(in.data(), b.input.get(), in.size(), cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(f.data(), b.filter.get(), f.size(), cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(bias.data(), b.bias.get(), bias.size() * 4, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(residual.data(), b.residual.get(), residual.size() * 2, cudaMemcpyDeviceToHost));
    GL_CUDA(cudaMemcpy(got.data(), wide.get(), got.size() * 4, cudaMemcpyDeviceToHost));
    double terms2 = 0;
    std::vector<double> want = host_conv(sh, Element::F16, in, f, {}, alpha, 0.f, &terms2);
    host_epilogue(want, sh, bias, residual, t.epilogue, &terms2);
    r = compare_on_host(got, want, tol, terms2);
  }
  r.guard_hits += guard_hits;
  r.ok = r.ok && guard_hits == 0;
  return r;
}

}  // namespace

static CheckResult check_conv_impl(Runner& self, Runner::Impl& I, const ConvTarget& t, const conv::Shape& sh,
                                   float alpha, float beta, bool host_reference) {
  CheckResult r;
  if (std::string why = self.validate_conv(sh, t); !why.empty()) {
    r.rejected = why;
    return r;
  }
  if (t.fused()) {
    if (beta != 0.f) {
      r.rejected = "a fused convolution adds a bias and a residual, not beta times its output";
      return r;
    }
    return check_fused(I, t, sh, alpha, host_reference);
  }
  ConvOps ops{I};
  const size_t n = size_t(sh.output_elements());
  ConvBuffers b = ops.make_set(sh, t.element, /*im2col=*/true, kGuardWords);
  DeviceBuffer ref(n * 4), columns(columns_bytes(sh));
  float* out = b.output.get<float>() + kGuardWords;
  I.fill(b.output.get<uint32_t>(), kGuardWords, kGuardWord);
  I.fill(b.output.get<uint32_t>() + kGuardWords + n, kGuardWords, kGuardWord);
  if (beta != 0.f) {
    I.fill_random_f32(out, n);
    GL_CUDA(cudaMemcpyAsync(ref.get(), out, n * 4, cudaMemcpyDeviceToDevice, I.stream));
  } else {
    I.fill(reinterpret_cast<uint32_t*>(out), n, kPoisonWord);
    I.fill(ref.get<uint32_t>(), n, kPoisonWord);
  }
  std::vector<unsigned char> host_in, host_f;
  std::vector<float> host_out0;
  if (host_reference) {
    host_in.resize(b.input.bytes()), host_f.resize(b.filter.bytes()), host_out0.resize(n);
    GL_CUDA(cudaMemcpyAsync(host_in.data(), b.input.get(), b.input.bytes(), cudaMemcpyDeviceToHost, I.stream));
    GL_CUDA(cudaMemcpyAsync(host_f.data(), b.filter.get(), b.filter.bytes(), cudaMemcpyDeviceToHost, I.stream));
    GL_CUDA(cudaMemcpyAsync(host_out0.data(), out, n * 4, cudaMemcpyDeviceToHost, I.stream));
  } else {
    ops.run(ConvTarget::im2col_cublas(t.element), sh, b, ref.get<float>(), alpha, beta, columns, true);
  }
  ops.run(t, sh, b, out, alpha, beta, columns, true);
  if (!host_reference) return I.compare_on_gpu(out, ref.get<float>(), n, b.output.get<uint32_t>(), tolerance(conv_track(t.element)));

  std::vector<uint32_t> got(n + 2 * kGuardWords);
  GL_CUDA(cudaMemcpyAsync(got.data(), b.output.get(), b.output.bytes(), cudaMemcpyDeviceToHost, I.stream));
  GL_CUDA(cudaStreamSynchronize(I.stream));
  double terms2 = 0;
  const std::vector<double> want = host_conv(sh, t.element, host_in, host_f, host_out0, alpha, beta, &terms2);
  return compare_on_host(got, want, tolerance(conv_track(t.element)), terms2);
}

CheckResult Runner::check_conv(const ConvTarget& t, const conv::Shape& sh, float alpha, float beta) {
  return check_conv_impl(*this, *impl_, t, sh, alpha, beta, false);
}

CheckResult Runner::check_conv_host(const ConvTarget& t, const conv::Shape& sh, float alpha, float beta) {
  if (sh.flops() > 2.0 * double(1ll << 31)) {
    CheckResult r;
    r.rejected = "the host reference is for up to 2^31 multiply-adds; use check_conv() for larger convolutions";
    return r;
  }
  return check_conv_impl(*this, *impl_, t, sh, alpha, beta, true);
}

std::vector<TimeResult> Runner::time_conv(const std::vector<ConvTarget>& targets, const conv::Shape& sh,
                                          const TimeOptions& opt) {
  std::vector<TimeResult> results(targets.size());
  bool im2col = false, fused = false;
  for (const ConvTarget& t : targets) {
    std::string why = validate_conv(sh, t);
    if (why.empty() && t.element != targets.front().element) why = "interleaved targets must read the same element type";
    if (!why.empty()) {
      for (TimeResult& r : results) r.rejected = why;
      return results;
    }
    im2col = im2col || t.kind == ConvTarget::Kind::Im2colCublas;
    fused = fused || t.fused();
  }
  Impl& I = *impl_;
  ConvOps ops{I};
  const Element e = targets.front().element;
  const double set_bytes = double(tensor_bytes(sh.input_elements(), e) + tensor_bytes(sh.filter_elements(), e)) +
                           4.0 * double(sh.output_elements()) + (im2col && e != Element::F16 ? 2.0 * double(sh.filter_elements()) : 0.0) +
                           (fused ? 4.0 * double(sh.output_elements()) + 4.0 * sh.k : 0.0);  // residual, out16, bias
  const double columns = im2col ? double(columns_bytes(sh)) : 0.0;
  std::string refusal;
  const int sets = I.rotation_sets(set_bytes, columns, refusal);
  if (!refusal.empty()) {
    for (TimeResult& r : results) r.rejected = refusal;
    return results;
  }
  std::vector<ConvBuffers> inputs;
  inputs.reserve(sets);
  for (int s = 0; s < sets; ++s) {
    inputs.push_back(ops.make_set(sh, e, im2col, 0));
    I.fill(inputs.back().output.get<uint32_t>(), size_t(sh.output_elements()), kPoisonWord);
    if (fused) ops.add_fused(inputs.back(), sh, 0);
  }
  DeviceBuffer column_buffer(im2col ? columns_bytes(sh) : 0);
  TimeOptions o = opt;
  if (o.reps <= 0) o.reps = -20;
  return I.time_in_turns(
      targets.size(),
      [&](size_t j, int i) {
        const ConvBuffers& b = inputs[size_t(i) % inputs.size()];
        ops.run(targets[j], sh, b, b.output.get<float>(), 1.f, 0.f, column_buffer, false);
      },
      o, sh.flops(), sets);
}

}  // namespace gemmlab::kernels
