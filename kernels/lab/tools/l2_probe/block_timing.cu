// When do the blocks of a GEMM run? Instrumented copies of the double-buffer / block-swizzle
// (fp32, 2 blocks per SM) and multistage (fp16, 1 block per SM) kernels record, per block, the
// SM (%smid) and %globaltimer at the start, after each eighth of the k loop (fp32) and at the end
// of the main loop. The L2 model replays blocks in lockstep; this shows how far real blocks that
// share an A or B tile drift apart (kernels/lab/L2_VALIDATION.md).
// Build and run (kernels/lab/tools/l2_session.sh does both, on the GPU machine):
//   cmake --preset gpu -DGEMMLAB_GPU_PROBES=ON && cmake --build build-gpu --target block_timing
//   build-gpu/kernels/lab/tools/block_timing > block_timing.csv
// Output: one CSV line per block: kernel,n,block,m_tile,n_tile,smid,t0,...,t8 (ns from the
// launch's first block start; fp16 rows have t0 and t8 only). The same sizes as the ncu runs.
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gemmlab/raster.h"
#include "stages/fp16/fp16_mainloop.cuh"
#include "stages/fp32/fp32_simt.cuh"
#include "probe_common.cuh"

namespace {

using namespace gemmlab;
using namespace gemmlab::kernels;

constexpr int kChunks = 8;  // fp32: timestamps after each eighth of K

struct Record {
  unsigned smid;
  int m_tile, n_tile;
  unsigned long long t[kChunks + 1];
};

__device__ __forceinline__ unsigned linear_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

// Stage 4 (kSwizzle false: grid (m tiles, n tiles)) or stage 5 (GemmIdentitySwizzle<8>), the same
// main loop run as 8 pieces of K with a timestamp after each.
template <bool kSwizzle>
__global__ void __launch_bounds__(simt::kThreads, 2)
    fp32_probe(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
               float* __restrict__ C, int log_tile, GemmCoord tiled, Record* rec) {
  using namespace simt;
  __shared__ SmemStage smem[2];
  GemmCoord tile{int(blockIdx.x), int(blockIdx.y), 0};
  if (kSwizzle) {
    tile = GemmIdentitySwizzle<8>::get_tile_offset(
        log_tile, Dim3{int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)});
    if (!tile_in_problem(tile, tiled)) {
      if (threadIdx.x == 0) rec[linear_block()] = Record{sm_id(), -1, -1, {}};
      return;
    }
  }
  unsigned long long t[kChunks + 1];
  t[0] = global_ns();
  float acc[kThreadM][kThreadN];
  clear(acc);
  const int piece = K / kChunks;
  for (int c = 0; c < kChunks; ++c) {
    mainloop_pipelined<4>(A, B, M, N, K, tile.m * kTileM, tile.n * kTileN, c * piece,
                          (c + 1) * piece, smem, acc);
    __syncthreads();  // the next piece's prologue reuses stage 0
    t[c + 1] = global_ns();
  }
  store_tile(C, M, N, tile.m * kTileM, tile.n * kTileN, ThreadTile(), acc, 1.f, 0.f, true);
  if (threadIdx.x == 0) {
    Record r{sm_id(), tile.m, tile.n, {}};
    for (int i = 0; i <= kChunks; ++i) r.t[i] = t[i];
    rec[linear_block()] = r;
  }
}

// Stage 11: grid (m tiles, n tiles), 1 block per SM; start and end of the main loop.
using MsShape = fp16::MultistageShape<128, 128, 32, 4, 64, 32>;
__global__ void __launch_bounds__(MsShape::kThreads, 1)
    fp16_probe(const __half* A, const __half* B, float* C, int M, int N, int K, Record* rec) {
  extern __shared__ __align__(128) __half smem[];
  const unsigned long long t0 = global_ns();
  const int m0 = blockIdx.x * MsShape::kTileM, n0 = blockIdx.y * MsShape::kTileN;
  float acc[MsShape::kWarpM / 16][MsShape::kWarpN / 8][4] = {};
  fp16::MultistageMainloop<MsShape, false, true>::run(acc, A, B, M, N, K, m0, n0, smem);
  __syncthreads();
  const unsigned long long t1 = global_ns();
  const int warp = threadIdx.x / 32;
  const int warp_m = (warp / MsShape::kWarpsN) * MsShape::kWarpM;
  const int warp_n = (warp % MsShape::kWarpsN) * MsShape::kWarpN;
  fp16::store_accumulators_direct<MsShape::kWarpM, MsShape::kWarpN>(
      acc, C, M, N, m0 + warp_m, n0 + warp_n, threadIdx.x % 32, 1.f, 0.f);
  if (threadIdx.x == 0) {
    Record r{sm_id(), int(blockIdx.x), int(blockIdx.y), {}};
    r.t[0] = t0;
    r.t[kChunks] = t1;
    rec[linear_block()] = r;
  }
}

__global__ void fill_f32(float* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = float((i * 2654435761u) % 1000) * 1e-3f - 0.5f;
}
__global__ void fill_f16(__half* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = __float2half(float((i * 2654435761u) % 1000) * 1e-3f - 0.5f);
}


void print(const char* kernel, int n, const std::vector<Record>& r) {
  unsigned long long t0 = ~0ull;
  for (const Record& x : r)
    if (x.m_tile >= 0) t0 = std::min(t0, x.t[0]);
  for (size_t b = 0; b < r.size(); ++b) {
    const Record& x = r[b];
    if (x.m_tile < 0) continue;  // a swizzle no-op block
    std::printf("%s,%d,%zu,%d,%d,%u", kernel, n, b, x.m_tile, x.n_tile, x.smid);
    for (int i = 0; i <= kChunks; ++i)
      std::printf(",%lld", x.t[i] ? (long long)(x.t[i] - t0) : -1ll);
    std::printf("\n");
  }
}

}  // namespace

int main() {
  std::printf("kernel,n,block,m_tile,n_tile,smid");
  for (int i = 0; i <= kChunks; ++i) std::printf(",t%d", i);
  std::printf("\n");
  // Evicts the L2 between launches (each measured launch starts cold, as under ncu
  // --cache-control all).
  const size_t flush_bytes = size_t(256) << 20;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  for (int n : {4096, 8192}) {
    const size_t nn = size_t(n) * n;
    float *A = nullptr, *B = nullptr, *C = nullptr;
    CHECK(cudaMalloc(&A, nn * 4));
    CHECK(cudaMalloc(&B, nn * 4));
    CHECK(cudaMalloc(&C, nn * 4));
    fill_f32<<<1024, 256>>>(A, nn);
    fill_f32<<<1024, 256>>>(B, nn);
    const GemmCoord tiled{n / 128, n / 128, 1};
    for (int swz = 0; swz < 2; ++swz) {
      const int log_tile = GemmIdentitySwizzle<8>::get_log_tile(tiled);
      const Dim3 g = swz ? GemmIdentitySwizzle<8>::get_grid_shape(tiled) : Dim3{tiled.m, tiled.n, 1};
      const size_t blocks = size_t(g.x) * g.y * g.z;
      Record* rec = nullptr;
      CHECK(cudaMalloc(&rec, blocks * sizeof(Record)));
      for (int rep = 0; rep < 2; ++rep) {  // the first launch warms up clocks and code
        CHECK(cudaMemset(rec, 0, blocks * sizeof(Record)));
        CHECK(cudaMemset(flush, rep, flush_bytes));
        if (swz)
          fp32_probe<true><<<dim3(g.x, g.y, g.z), simt::kThreads>>>(n, n, n, A, B, C, log_tile, tiled, rec);
        else
          fp32_probe<false><<<dim3(g.x, g.y, g.z), simt::kThreads>>>(n, n, n, A, B, C, log_tile, tiled, rec);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
      }
      std::vector<Record> host(blocks);
      CHECK(cudaMemcpy(host.data(), rec, blocks * sizeof(Record), cudaMemcpyDeviceToHost));
      print(swz ? "block-swizzle" : "double-buffer", n, host);
      CHECK(cudaFree(rec));
    }
    // fp16: A row-major, B column-major, both n x n halves (the first half of the fp32 buffers).
    __half* Ah = reinterpret_cast<__half*>(A);
    __half* Bh = reinterpret_cast<__half*>(B);
    fill_f16<<<1024, 256>>>(Ah, nn);
    fill_f16<<<1024, 256>>>(Bh, nn);
    CHECK(cudaFuncSetAttribute(fp16_probe, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(MsShape::kSmemBytes)));
    const size_t blocks = size_t(tiled.m) * tiled.n;
    Record* rec = nullptr;
    CHECK(cudaMalloc(&rec, blocks * sizeof(Record)));
    for (int rep = 0; rep < 2; ++rep) {
      CHECK(cudaMemset(rec, 0, blocks * sizeof(Record)));
      CHECK(cudaMemset(flush, rep, flush_bytes));
      fp16_probe<<<dim3(tiled.m, tiled.n), MsShape::kThreads, MsShape::kSmemBytes>>>(Ah, Bh, C, n, n, n, rec);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
    }
    std::vector<Record> host(blocks);
    CHECK(cudaMemcpy(host.data(), rec, blocks * sizeof(Record), cudaMemcpyDeviceToHost));
    print("multistage", n, host);
    CHECK(cudaFree(rec));
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
  }
  CHECK(cudaFree(flush));
  return 0;
}
