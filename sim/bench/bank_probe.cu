// bank_probe: one warp, one shared-memory instruction per launch, for measuring with Nsight
// Compute the cases of the bank model that hardware_rules.md does not list. Built only with
// -DGEMMLAB_GPU_PROBES=ON (kernels/lab/tools/CMakeLists.txt):
//
//   cmake --preset gpu -DGEMMLAB_GPU_PROBES=ON && cmake --build build-gpu --target bank_probe
//   (the binary: build-gpu/kernels/lab/tools/bank_probe)
//   ncu --clock-control none --csv --metrics \
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//     l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
//     l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum ./bank_probe
//
// ./bank_probe --list prints the cases in launch order (name, op, mask, 32 addresses), so that
// the i-th profiled kernel is the i-th case; each is also checked with `gemmlab sim banks`.
#include <cstdio>
#include <cstring>
#include <vector>

enum Op { LDS32, LDS64, LDS128, STS32, STS64, STS128, LDSM_X4 };
static const char* op_name(Op o) {
  static const char* names[] = {"lds.32", "lds.64", "lds.128", "sts.32", "sts.64", "sts.128", "ldsm.x4"};
  return names[o];
}

struct Case {
  const char* name;
  Op op;
  unsigned mask;
  int addr[32];
};

// One instruction, through inline PTX so that the compiler neither merges nor drops it.
template <Op O>
__global__ void probe(const int* addr, unsigned mask, unsigned* out) {
  __shared__ __align__(128) unsigned char smem[16384];
  const int lane = threadIdx.x;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + addr[lane];
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (O == LDSM_X4) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(base));
  } else if (mask >> lane & 1u) {
    if (O == LDS32) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(base));
    if (O == LDS64) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(base));
    if (O == LDS128)
      asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(base));
    if (O == STS32) asm volatile("st.shared.u32 [%0], %1;" ::"r"(base), "r"(lane) : "memory");
    if (O == STS64)
      asm volatile("st.shared.v2.u32 [%0], {%1,%2};" ::"r"(base), "r"(lane), "r"(lane) : "memory");
    if (O == STS128)
      asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(base), "r"(lane), "r"(lane),
                   "r"(lane), "r"(lane) : "memory");
  }
  out[lane] = a ^ b ^ c ^ d;
}

static void launch(const Case& k, const int* d_addr, unsigned* d_out) {
  switch (k.op) {
    case LDS32: probe<LDS32><<<1, 32>>>(d_addr, k.mask, d_out); break;
    case LDS64: probe<LDS64><<<1, 32>>>(d_addr, k.mask, d_out); break;
    case LDS128: probe<LDS128><<<1, 32>>>(d_addr, k.mask, d_out); break;
    case STS32: probe<STS32><<<1, 32>>>(d_addr, k.mask, d_out); break;
    case STS64: probe<STS64><<<1, 32>>>(d_addr, k.mask, d_out); break;
    case STS128: probe<STS128><<<1, 32>>>(d_addr, k.mask, d_out); break;
    case LDSM_X4: probe<LDSM_X4><<<1, 32>>>(d_addr, k.mask, d_out); break;
  }
}

template <class F>
static Case make(const char* name, Op op, unsigned mask, F f) {
  Case c{name, op, mask, {}};
  for (int t = 0; t < 32; ++t) c.addr[t] = f(t);
  return c;
}

int main(int argc, char** argv) {
  const unsigned all = 0xffffffffu;
  std::vector<Case> cases = {
      // Table rows, as a check of the probe itself.
      make("row: LDS.32 8-byte stride (2/1)", LDS32, all, [](int t) { return 8 * t; }),
      make("row: LDS.128 linear (4/0)", LDS128, all, [](int t) { return 16 * t; }),
      make("row: LDS.128 T shares with T^1 (2/0)", LDS128, all, [](int t) { return 16 * (t / 2); }),
      make("row: LDS.128 all one address (2/0)", LDS128, all, [](int) { return 512; }),
      make("row: LDS.128 rows 128 B apart (32/28)", LDS128, all, [](int t) { return 128 * t; }),
      // Beyond the table.
      make("LDS.128 T shares with T^2", LDS128, all,
           [](int t) { return 16 * ((t >> 2) * 2 + (t & 1)); }),
      make("STS.128 T shares with T^1", STS128, all, [](int t) { return 16 * (t / 2); }),
      make("STS.128 all one address", STS128, all, [](int) { return 512; }),
      make("LDS.64 T shares with T^1", LDS64, all, [](int t) { return 8 * (t / 2); }),
      make("LDS.64 all one address", LDS64, all, [](int) { return 512; }),
      make("STS.64 T shares with T^1", STS64, all, [](int t) { return 8 * (t / 2); }),
      make("LDS.128 T^1 pairs 128 B apart", LDS128, all, [](int t) { return 128 * (t / 2); }),
      make("LDS.128 T^1 pairs, 4 rows repeated", LDS128, all, [](int t) { return 16 * ((t / 2) % 4); }),
      make("LDS.128 all one address, lanes 0-15", LDS128, 0x0000ffffu, [](int) { return 512; }),
      make("LDS.128 T^1 pairs, lane 1 off", LDS128, ~2u, [](int t) { return 16 * (t / 2); }),
      make("LDS.128 linear, lanes 0-7", LDS128, 0x000000ffu, [](int t) { return 16 * t; }),
      make("LDS.128 linear, lanes 0 and 8", LDS128, 0x00000101u, [](int t) { return 16 * t; }),
      make("LDS.32 rows 128 B apart, lanes 0-15", LDS32, 0x0000ffffu, [](int t) { return 128 * t; }),
      make("ldsm.x4 all one address", LDSM_X4, all, [](int) { return 512; }),
      make("ldsm.x4 T^1 pairs", LDSM_X4, all, [](int t) { return 16 * (t / 2); }),
      // Which pairings pack, and is the choice per warp or per half warp?
      make("LDS.128 T shares with T^8", LDS128, all, [](int t) { return 16 * (t % 8 + 8 * (t / 16)); }),
      make("LDS.128 T shares with T^4", LDS128, all, [](int t) { return 16 * (t % 4 + 4 * (t / 8)); }),
      make("LDS.128 T shares with T^16", LDS128, all, [](int t) { return 16 * (t % 16); }),
      make("LDS.128 lanes 0 and 16, same bank", LDS128, 0x00010001u, [](int t) { return 128 * t; }),
      make("LDS.128 T^1 pairs in lanes 0-15 only", LDS128, all,
           [](int t) { return t < 16 ? 16 * (t / 2) : 16 * t; }),
      make("LDS.128 T^1 in half 0, T^2 in half 1", LDS128, all,
           [](int t) { return t < 16 ? 16 * (t / 2) : 256 + 16 * ((t >> 2) * 2 + (t & 1)); }),
      make("LDS.64 T shares with T^2", LDS64, all, [](int t) { return 8 * ((t >> 2) * 2 + (t & 1)); }),
      make("LDS.64 T shares with T^4", LDS64, all, [](int t) { return 8 * (t % 4 + 4 * (t / 8)); }),
      make("LDS.64 T^1 pairs 128 B apart", LDS64, all, [](int t) { return 128 * (t / 2); }),
      make("LDS.64 lanes 0 and 16, same bank", LDS64, 0x00010001u, [](int t) { return 8 * t; }),
      make("LDS.64 T^1 pairs in lanes 0-15 only", LDS64, all,
           [](int t) { return t < 16 ? 8 * (t / 2) : 8 * t; }),
      make("LDS.64 T^1 pairs, lane 1 off", LDS64, ~2u, [](int t) { return 8 * (t / 2); }),
      make("LDS.32 T^1 pairs 128 B apart", LDS32, all, [](int t) { return 128 * (t / 2); }),
  };
  if (argc > 1 && !std::strcmp(argv[1], "--list")) {
    for (const auto& c : cases) {
      std::printf("%s|%s|0x%08x|", c.name, op_name(c.op), c.mask);
      for (int t = 0; t < 32; ++t) std::printf("%s%d", t ? "," : "", c.addr[t]);
      std::printf("\n");
    }
    return 0;
  }
  int* d_addr;
  unsigned* d_out;
  cudaMalloc(&d_addr, 32 * sizeof(int));
  cudaMalloc(&d_out, 32 * sizeof(unsigned));
  for (const auto& c : cases) {
    cudaMemcpy(d_addr, c.addr, sizeof c.addr, cudaMemcpyHostToDevice);
    launch(c, d_addr, d_out);
    cudaDeviceSynchronize();
  }
  const cudaError_t e = cudaGetLastError();
  std::printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
