// cuDNN as a conv peer (conv_cudnn.h). Compiled to stubs when the build has no cuDNN.
#include "conv_cudnn.h"

#include <cuda_fp16.h>

#include "runner.h"

#ifdef GEMMLAB_HAVE_CUDNN
#include <cudnn.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>
#endif

namespace gemmlab::kernels::cudnn {

#ifndef GEMMLAB_HAVE_CUDNN

bool built() { return false; }
std::string version() { return {}; }
void run(const ConvArgs&, conv::Element, bool) {
  throw GpuError("this build has no cuDNN: configure with -DGEMMLAB_CUDNN_ROOT=<folder with include/cudnn.h and lib/>");
}
void run_fused(const ConvArgs&) {
  throw GpuError("this build has no cuDNN: configure with -DGEMMLAB_CUDNN_ROOT=<folder with include/cudnn.h and lib/>");
}

#else

namespace {

void check(cudnnStatus_t s, const char* call) {
  if (s != CUDNN_STATUS_SUCCESS)
    throw GpuError(std::string("cuDNN error ") + cudnnGetErrorString(s) + " in " + call);
}
#define GL_CUDNN(call) check((call), #call)

__global__ void widen_halves(const __half* in, float* out, long long n) {
  for (long long i = blockIdx.x * 1ll * blockDim.x + threadIdx.x; i < n; i += 1ll * gridDim.x * blockDim.x)
    out[i] = __half2float(in[i]);
}

// A backend descriptor that frees itself.
struct Desc {
  cudnnBackendDescriptor_t d = nullptr;
  explicit Desc(cudnnBackendDescriptorType_t type) { GL_CUDNN(cudnnBackendCreateDescriptor(type, &d)); }
  Desc(Desc&& o) noexcept : d(o.d) { o.d = nullptr; }
  Desc(const Desc&) = delete;
  ~Desc() {
    if (d) cudnnBackendDestroyDescriptor(d);
  }
  template <class T>
  void set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, const T* values, int64_t count = 1) {
    GL_CUDNN(cudnnBackendSetAttribute(d, name, type, count, values));
  }
  void set_desc(cudnnBackendAttributeName_t name, const Desc& other) {
    GL_CUDNN(cudnnBackendSetAttribute(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &other.d));
  }
  void finalize() { GL_CUDNN(cudnnBackendFinalize(d)); }
};

enum : int64_t { kX = 'x', kW = 'w', kY = 'y', kBias = 'b', kResidual = 'z', kConv = 'c', kSum = 'd', kSum2 = 'e' };

// dims in cuDNN's logical NCHW order, strides of the NHWC layout in memory; a virtual tensor lives
// between two fused operations only (no memory, no pointer in the variant pack).
Desc tensor(int64_t uid, cudnnDataType_t type, int64_t n, int64_t c, int64_t h, int64_t w, bool is_virtual = false) {
  Desc t(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  const int64_t dims[4] = {n, c, h, w}, strides[4] = {h * w * c, 1, w * c, c}, alignment = 16;
  t.set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, &type);
  t.set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, dims, 4);
  t.set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, strides, 4);
  t.set(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, &uid);
  t.set(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, &alignment);
  if (is_virtual) {
    const bool v = true;
    t.set(CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, &v);
  }
  t.finalize();
  return t;
}

// The execution plan cuDNN's heuristics offer (mode A), the fastest of their first few as timed
// here on the caller's buffers (what torch.backends.cudnn.benchmark does), with its workspace and
// one variant pack per set of buffers it has seen.
struct Plan {
  std::deque<Desc> keep;  // the descriptors the plan refers to (a deque: references stay valid)
  std::unique_ptr<Desc> plan;
  void* workspace = nullptr;
  int64_t workspace_bytes = 0;
  std::vector<int64_t> uids;  // of the tensors with memory, in the order run() passes their pointers
  std::map<std::vector<void*>, Desc> packs;
  std::string engine;  // which heuristic result won, for the log
};

Desc& pack_for(Plan& p, const std::vector<void*>& ptrs) {
  if (auto it = p.packs.find(ptrs); it != p.packs.end()) return it->second;
  Desc vp(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
  vp.set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, ptrs.data(), int64_t(ptrs.size()));
  vp.set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, p.uids.data(), int64_t(p.uids.size()));
  vp.set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, &p.workspace);
  vp.finalize();
  return p.packs.emplace(ptrs, std::move(vp)).first->second;
}

struct State {
  std::mutex lock;
  cudnnHandle_t handle = nullptr;
  // By shape, alpha's bits and the graph (0 plain; fused: 1 + relu + 2 residual).
  std::map<std::vector<int64_t>, Plan> plans;
};
State& state() {
  static State s;
  return s;
}

// The convolution y = alpha * conv(x, w) (fp32 compute) as a graph operation.
// The convolution descriptor stays alive in `keep` beside the operation that names it.
Desc conv_op(const conv::Shape& sh, float alpha, const Desc& x, const Desc& w, const Desc& y, std::deque<Desc>& keep) {
  Desc conv(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
  const int64_t dims = 2, pad[2] = {sh.pad, sh.pad}, stride[2] = {sh.stride, sh.stride},
                dilation[2] = {sh.dilation, sh.dilation};
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  conv.set(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, &dims);
  conv.set(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, &compute);
  conv.set(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, &mode);
  conv.set(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, pad, 2);
  conv.set(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, pad, 2);
  conv.set(CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, dilation, 2);
  conv.set(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, stride, 2);
  conv.finalize();
  Desc op(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
  op.set_desc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x);
  op.set_desc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w);
  op.set_desc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, y);
  op.set_desc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv);
  const float beta = 0.f;
  op.set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, &alpha);
  op.set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, &beta);
  op.finalize();
  keep.push_back(std::move(conv));
  return op;
}

// A pointwise operation y = mode(x[, b]) in fp32: ADD (b broadcast where it has size 1) or RELU_FWD.
Desc pointwise_op(cudnnPointwiseMode_t mode, const Desc& x, const Desc* b, const Desc& y, std::deque<Desc>& keep) {
  Desc pw(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
  const cudnnDataType_t precision = CUDNN_DATA_FLOAT;
  pw.set(CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, &mode);
  pw.set(CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, &precision);
  pw.finalize();
  Desc op(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
  op.set_desc(CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, pw);
  op.set_desc(CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x);
  if (b) op.set_desc(CUDNN_ATTR_OPERATION_POINTWISE_BDESC, *b);
  op.set_desc(CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y);
  op.finalize();
  keep.push_back(std::move(pw));
  return op;
}

// The graph of `ops` (the tensors and operations in p.keep, the operations listed by index), its
// heuristics' first engines timed on `ptrs` (p.uids' order), the fastest kept in p.
void choose_plan(State& st, Plan& p, const std::vector<size_t>& ops, const std::vector<void*>& ptrs,
                 cudaStream_t stream) {
  std::vector<cudnnBackendDescriptor_t> op_list;
  for (size_t i : ops) op_list.push_back(p.keep[i].d);
  Desc graph(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  graph.set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, op_list.data(), int64_t(op_list.size()));
  graph.set(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, &st.handle);
  graph.finalize();
  Desc heur(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
  heur.set_desc(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph);
  const cudnnBackendHeurMode_t heur_mode = CUDNN_HEUR_MODE_A;
  heur.set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, &heur_mode);
  heur.finalize();
  int64_t offered = 0;
  GL_CUDNN(cudnnBackendGetAttribute(heur.d, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &offered,
                                    nullptr));
  constexpr int64_t kTry = 8;  // the heuristics' first few; the rest are rarely faster
  std::vector<Desc> configs;
  std::vector<cudnnBackendDescriptor_t> raw;
  for (int64_t i = 0; i < std::min(offered, kTry); ++i) {
    configs.emplace_back(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    raw.push_back(configs.back().d);
  }
  int64_t got = 0;
  if (!raw.empty())
    GL_CUDNN(cudnnBackendGetAttribute(heur.d, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                                      int64_t(raw.size()), &got, raw.data()));
  cudaEvent_t ev[2];
  cudaEventCreate(&ev[0]);
  cudaEventCreate(&ev[1]);
  float best_ms = 1e30f;
  for (int64_t i = 0; i < got; ++i) {
    auto plan = std::make_unique<Desc>(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    plan->set(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, &st.handle);
    plan->set(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, &raw[size_t(i)]);
    if (cudnnBackendFinalize(plan->d) != CUDNN_STATUS_SUCCESS) continue;  // this engine cannot run it
    int64_t ws = 0, n = 0;
    GL_CUDNN(cudnnBackendGetAttribute(plan->d, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n, &ws));
    Plan trial;
    trial.uids = p.uids;
    trial.workspace_bytes = ws;
    if (ws > 0 && cudaMalloc(&trial.workspace, size_t(ws)) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    trial.plan = std::move(plan);
    Desc& vp = pack_for(trial, ptrs);
    float ms = 1e30f;
    bool ran = true;
    for (int rep = 0; rep < 3 && ran; ++rep) {
      cudaEventRecord(ev[0], stream);
      ran = cudnnBackendExecute(st.handle, trial.plan->d, vp.d) == CUDNN_STATUS_SUCCESS;
      cudaEventRecord(ev[1], stream);
      cudaEventSynchronize(ev[1]);
      float t = 0;
      cudaEventElapsedTime(&t, ev[0], ev[1]);
      if (rep > 0) ms = std::min(ms, t);  // the first run loads the engine
    }
    if (ran && ms < best_ms) {
      if (p.workspace) cudaFree(p.workspace);
      best_ms = ms;
      p.plan = std::move(trial.plan);
      p.workspace = trial.workspace;
      p.workspace_bytes = trial.workspace_bytes;
      p.engine = "heuristic result " + std::to_string(i) + " of " + std::to_string(offered);
    } else if (trial.workspace) {
      cudaFree(trial.workspace);
    }
  }
  cudaEventDestroy(ev[0]);
  cudaEventDestroy(ev[1]);
  if (!p.plan) throw GpuError("cuDNN offers no engine that runs this convolution");
  p.keep.push_back(std::move(graph));
}

std::vector<int64_t> plan_key(const ConvArgs& a, int64_t graph) {
  const conv::Shape& sh = a.shape;
  uint32_t alpha_bits = 0;
  std::memcpy(&alpha_bits, &a.alpha, 4);
  return {sh.n, sh.h, sh.w, sh.c, sh.k, sh.r, sh.s, sh.pad, sh.stride, sh.dilation, alpha_bits, graph};
}

// The plain convolution: x, w -> y (fp16).
Plan& plan_for(State& st, const ConvArgs& a, cudaStream_t stream) {
  const std::vector<int64_t> key = plan_key(a, 0);
  if (auto it = st.plans.find(key); it != st.plans.end()) return it->second;
  const conv::Shape& sh = a.shape;
  Plan p;
  p.uids = {kX, kW, kY};
  p.keep.push_back(tensor(kX, CUDNN_DATA_HALF, sh.n, sh.c, sh.h, sh.w));
  p.keep.push_back(tensor(kW, CUDNN_DATA_HALF, sh.k, sh.c, sh.r, sh.s));
  p.keep.push_back(tensor(kY, CUDNN_DATA_HALF, sh.n, sh.k, sh.p(), sh.q()));
  Desc op = conv_op(sh, a.alpha, p.keep[0], p.keep[1], p.keep[2], p.keep);
  p.keep.push_back(std::move(op));
  choose_plan(st, p, {p.keep.size() - 1}, {const_cast<void*>(a.input), const_cast<void*>(a.filter), a.output}, stream);
  return st.plans.emplace(key, std::move(p)).first->second;
}

// The fused graph, as PyTorch's conv + folded batch norm + ReLU runs it: x, w -> conv (fp32,
// virtual) -> + bias (1 x K x 1 x 1, fp32) -> [+ residual (fp16 NPQK)] -> [ReLU] -> y (fp16).
Plan& fused_plan_for(State& st, const ConvArgs& a, cudaStream_t stream) {
  const bool residual = a.residual != nullptr;
  const std::vector<int64_t> key = plan_key(a, 1 + int64_t(a.relu) + 2 * int64_t(residual));
  if (auto it = st.plans.find(key); it != st.plans.end()) return it->second;
  const conv::Shape& sh = a.shape;
  const int64_t n = sh.n, k = sh.k, p_ = sh.p(), q = sh.q();
  Plan p;
  p.uids = {kX, kW, kY, kBias};
  std::vector<void*> ptrs = {const_cast<void*>(a.input), const_cast<void*>(a.filter), a.output_f16,
                             const_cast<float*>(a.bias)};
  auto add = [&](Desc d) {
    p.keep.push_back(std::move(d));
    return p.keep.size() - 1;
  };
  const size_t x = add(tensor(kX, CUDNN_DATA_HALF, n, sh.c, sh.h, sh.w));
  const size_t w = add(tensor(kW, CUDNN_DATA_HALF, k, sh.c, sh.r, sh.s));
  const size_t y = add(tensor(kY, CUDNN_DATA_HALF, n, k, p_, q));
  const size_t bias = add(tensor(kBias, CUDNN_DATA_FLOAT, 1, k, 1, 1));
  const size_t conv_out = add(tensor(kConv, CUDNN_DATA_FLOAT, n, k, p_, q, true));
  std::vector<size_t> ops;
  ops.push_back(add(conv_op(sh, a.alpha, p.keep[x], p.keep[w], p.keep[conv_out], p.keep)));
  // Each step writes y where it is the last, else a virtual fp32 tensor.
  const bool last_is_bias = !residual && !a.relu;
  const size_t biased = last_is_bias ? y : add(tensor(kSum, CUDNN_DATA_FLOAT, n, k, p_, q, true));
  ops.push_back(add(pointwise_op(CUDNN_POINTWISE_ADD, p.keep[conv_out], &p.keep[bias], p.keep[biased], p.keep)));
  size_t last = biased;
  if (residual) {
    const size_t z = add(tensor(kResidual, CUDNN_DATA_HALF, n, k, p_, q));
    p.uids.push_back(kResidual);
    ptrs.push_back(const_cast<void*>(a.residual));
    const size_t summed = a.relu ? add(tensor(kSum2, CUDNN_DATA_FLOAT, n, k, p_, q, true)) : y;
    ops.push_back(add(pointwise_op(CUDNN_POINTWISE_ADD, p.keep[biased], &p.keep[z], p.keep[summed], p.keep)));
    last = summed;
  }
  if (a.relu) ops.push_back(add(pointwise_op(CUDNN_POINTWISE_RELU_FWD, p.keep[last], nullptr, p.keep[y], p.keep)));
  choose_plan(st, p, ops, ptrs, stream);
  return st.plans.emplace(key, std::move(p)).first->second;
}

}  // namespace

bool built() { return true; }

std::string version() {
  const size_t v = cudnnGetVersion();  // 9.19.0 -> 91900
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

void run(const ConvArgs& a, conv::Element e, bool widen) {
  if (e != conv::Element::F16)
    throw GpuError("the cuDNN peer runs fp16 convolutions only (cuDNN has no int4 convolution; its int8 NHWC "
                   "path ran below 1 TFLOP/s on an H100, no peer)");
  if (a.beta != 0.f) throw GpuError("the cuDNN peer runs with beta = 0 only (its output is fp16)");
  State& st = state();
  std::lock_guard<std::mutex> guard(st.lock);
  if (!st.handle) GL_CUDNN(cudnnCreate(&st.handle));
  GL_CUDNN(cudnnSetStream(st.handle, a.stream));
  Plan& p = plan_for(st, a, a.stream);
  Desc& vp = pack_for(p, {const_cast<void*>(a.input), const_cast<void*>(a.filter), a.output});
  GL_CUDNN(cudnnBackendExecute(st.handle, p.plan->d, vp.d));
  if (widen) {
    const long long n = a.shape.output_elements();
    __half* halves = nullptr;
    if (cudaMallocAsync(reinterpret_cast<void**>(&halves), size_t(n) * 2, a.stream) != cudaSuccess)
      throw GpuError("no GPU memory to widen cuDNN's fp16 output");
    cudaMemcpyAsync(halves, a.output, size_t(n) * 2, cudaMemcpyDeviceToDevice, a.stream);
    widen_halves<<<1024, 256, 0, a.stream>>>(halves, a.output, n);
    cudaFreeAsync(halves, a.stream);
    if (const cudaError_t err = cudaGetLastError(); err != cudaSuccess)
      throw GpuError(std::string("widening cuDNN's output: ") + cudaGetErrorString(err));
  }
}

void run_fused(const ConvArgs& a) {
  if (!a.output_f16 || !a.bias) throw GpuError("cuDNN's fused convolution needs output_f16 and a bias");
  State& st = state();
  std::lock_guard<std::mutex> guard(st.lock);
  if (!st.handle) GL_CUDNN(cudnnCreate(&st.handle));
  GL_CUDNN(cudnnSetStream(st.handle, a.stream));
  Plan& p = fused_plan_for(st, a, a.stream);
  std::vector<void*> ptrs = {const_cast<void*>(a.input), const_cast<void*>(a.filter), a.output_f16,
                             const_cast<float*>(a.bias)};
  if (a.residual) ptrs.push_back(const_cast<void*>(a.residual));
  Desc& vp = pack_for(p, ptrs);
  GL_CUDNN(cudnnBackendExecute(st.handle, p.plan->d, vp.d));
}

#endif

}  // namespace gemmlab::kernels::cudnn
