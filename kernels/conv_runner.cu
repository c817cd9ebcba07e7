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

// One set of tensors a conv target reads and writes, with what the im2col reference needs.
struct ConvBuffers {
  DeviceBuffer input, filter, output, filter16;
};

}  // namespace

std::string ConvTarget::id() const {
  if (launch_instead) return name_instead;
  if (kind == Kind::Stage) return stage->id;
  return reference_of_kind(kind == Kind::Im2colCublas ? ReferenceKind::Im2colCublas : ReferenceKind::Cudnn).id;
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

  // output: where NPQK goes (inside b.output past its guard words, or a reference buffer).
  // checking: the output is compared next (cuDNN's fp16 output is widened to fp32 for it).
  void run(const ConvTarget& t, const conv::Shape& sh, const ConvBuffers& b, float* output, float alpha, float beta,
           DeviceBuffer& columns, bool checking) {
    ConvArgs a;
    a.shape = sh, a.alpha = alpha, a.beta = beta, a.stream = I.stream;
    a.input = b.input.get(), a.filter = b.filter.get(), a.output = output;
    if (t.kind == ConvTarget::Kind::Stage) {
      const cudaError_t e = t.launch_instead ? t.launch_instead(a) : t.stage->get().launch_conv(a);
      if (e != cudaSuccess) throw_cuda(e, ("launch of stage " + t.id()).c_str(), __FILE__, __LINE__);
      GL_CUDA(cudaGetLastError());
      return;
    }
    if (t.kind == ConvTarget::Kind::Cudnn) return cudnn::run(a, t.element, checking);
    const long long vectors = sh.gemm_m() * sh.gemm_k() / 8;
    const int blocks = int(std::min<long long>((vectors + 255) / 256, 1ll * I.info.sms * 32));
    auto* im2col = t.element == Element::F16 ? im2col_kernel<Element::F16>
                   : t.element == Element::S8 ? im2col_kernel<Element::S8>
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
  const char* why = t.kind == ConvTarget::Kind::Stage ? t.stage->get().check_conv(sh) : conv::check_shape(sh, t.element);
  if (why) return why;
  if (t.kind == ConvTarget::Kind::Cudnn && !cudnn::built())
    return "this build has no cuDNN: configure with -DGEMMLAB_CUDNN_ROOT=<folder with include/cudnn.h and lib/>";
  if (t.kind == ConvTarget::Kind::Im2colCublas && sh.gemm_m() * sh.gemm_k() > (1ll << 31) - 1)
    return "the im2col matrix would have 2^31 elements or more: choose a smaller N";
  const double bytes = 2.0 * double(tensor_bytes(sh.input_elements(), t.element) + tensor_bytes(sh.filter_elements(), t.element)) +
                       4.0 * 2 * double(sh.output_elements()) + double(columns_bytes(sh)) + 2.0 * double(sh.filter_elements());
  return impl_->memory_refusal(bytes);
}

static CheckResult check_conv_impl(Runner& self, Runner::Impl& I, const ConvTarget& t, const conv::Shape& sh,
                                   float alpha, float beta, bool host_reference) {
  CheckResult r;
  if (std::string why = self.validate_conv(sh, t); !why.empty()) {
    r.rejected = why;
    return r;
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
  bool im2col = false;
  for (const ConvTarget& t : targets) {
    std::string why = validate_conv(sh, t);
    if (why.empty() && t.element != targets.front().element) why = "interleaved targets must read the same element type";
    if (!why.empty()) {
      for (TimeResult& r : results) r.rejected = why;
      return results;
    }
    im2col = im2col || t.kind == ConvTarget::Kind::Im2colCublas;
  }
  Impl& I = *impl_;
  ConvOps ops{I};
  const Element e = targets.front().element;
  const double set_bytes = double(tensor_bytes(sh.input_elements(), e) + tensor_bytes(sh.filter_elements(), e)) +
                           4.0 * double(sh.output_elements()) + (im2col && e != Element::F16 ? 2.0 * double(sh.filter_elements()) : 0.0);
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
