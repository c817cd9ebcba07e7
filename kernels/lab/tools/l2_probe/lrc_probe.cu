// What do the H100/H200 L2 counters do when several SMs read the same sectors close together?
// kernels/lab/L2_VALIDATION.md found lts__t_sectors_srcunit_tex_op_read (the tag stage's sectors) below
// the sectors the SMs asked for (the L2 request coalescer, LRC, merged some), and the tag stage's
// lookup_hit + lookup_miss above it. This probe makes both happen under control: `blocks` blocks,
// one per SM, in groups of `share` that read the same `bytes` of a buffer; within a group block
// rank r starts r x delay_ns after a common start. ncu (--cache-control all) flushes the L2
// before the launch, so the group's first reader misses and the others hit, merge, or hit a
// sector whose fill is still pending, depending on how far apart they come.
//
// Build and run (kernels/lab/tools/l2_session.sh lrc does both, on the GPU machine, under ncu):
//   cmake --preset gpu -DGEMMLAB_GPU_PROBES=ON && cmake --build build-gpu --target lrc_probe
//   build-gpu/kernels/lab/tools/lrc_probe SHARE DELAY_NS BYTES CHUNK [WARM]
//     CHUNK: bytes read of each 128-byte line (128: whole lines; 64: two sectors, as the fp16
//     GEMM tiles with k 32 read them). WARM 1: the group's rank-0 block reads its data first,
//     the others start 200 us later (all hits, nothing pending). WARM 2 (CHUNK 64): the first
//     half of every line, then the second half (sector misses in lines whose tag is present).
//     WARM 3 (CHUNK 32 or 64): both parts of a line in one loop iteration, back to back.
//     WARM 4: the first CHUNK bytes of every line with cp.async.cg (LDGSTS) instead of ld.cg, one
//     at a time; WARM 5: the same with the GEMM's src-size form, 8 in flight per thread.
// Prints one line per block: block,smid,start_ns,end_ns (relative to the common start).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "probe_common.cuh"

namespace {

// 16 bytes through L2 only (.cg: not cached in L1), like cp.async.cg of the fp16 stages.
__device__ __forceinline__ uint4 load_cg(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

struct Record {
  unsigned smid;
  unsigned long long start, end;
};

__global__ void __launch_bounds__(256, 1)
    probe(const char* data, unsigned long long bytes, int chunk, int share, long long delay_ns,
          int warm, unsigned* arrived, unsigned long long* go, Record* rec, uint4* sink) {
  // All blocks resident (one per SM, grid <= SMs): a grid-wide arrival count, then block 0
  // publishes the common start, 5 us ahead.
  if (threadIdx.x == 0) {
    atomicAdd(arrived, 1u);
    if (blockIdx.x == 0) {
      while (atomicAdd(arrived, 0u) < gridDim.x) {
      }
      atomicExch(go, global_ns() + 5000ull);
    }
  }
  __shared__ unsigned long long start;
  if (threadIdx.x == 0) {
    unsigned long long s;
    while ((s = atomicAdd(go, 0ull)) == 0ull) {
    }
    const int rank = blockIdx.x % share;
    long long wait = rank * delay_ns;
    if (warm == 1 && rank > 0) wait += 200000;  // the first reader has long finished
    start = s + wait;
    while (global_ns() < start) {
    }
  }
  __syncthreads();
  const unsigned long long t0 = global_ns();
  const char* base = data + (blockIdx.x / share) * bytes;
  // Lane l of a warp reads 16 bytes; `chunk` bytes of every line: lines are 128 bytes apart.
  // WARM 2 (halves): a second pass then reads the rest of every line, 10 us later, when the
  // lines' tags are in the L2 but those sectors are not.
  const int per_line = chunk / 16;
  const unsigned long long lines = bytes / 128;
  uint4 acc = make_uint4(0, 0, 0, 0);
  if (warm == 4 || warm == 5) {  // cp.async.cg (LDGSTS, as the fp16 stages load) into shared memory
    extern __shared__ __align__(16) char stage[];
    const unsigned dst0 = static_cast<unsigned>(__cvta_generic_to_shared(stage + threadIdx.x * 16));
    unsigned long long n = 0;
    for (unsigned long long i = threadIdx.x; i < lines * per_line; i += blockDim.x, ++n) {
      const unsigned long long line = i / per_line, piece = i % per_line;
      if (warm == 4) {  // one at a time
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst0), "l"(base + line * 128 + piece * 16));
        asm volatile("cp.async.wait_all;" ::: "memory");
      } else {  // as the GEMM: the src-size form, 8 in flight to different 4 KB slots, then wait
        const unsigned dst = dst0 + static_cast<unsigned>(n % 8) * 4096;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst),
                     "l"(base + line * 128 + piece * 16), "r"(16));
        if (n % 8 == 7) asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
      }
    }
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    acc.x = reinterpret_cast<const unsigned*>(stage)[threadIdx.x];
  }
  if (warm == 3) {  // both halves of a line back to back: the second while the first is in flight
    for (unsigned long long i = threadIdx.x; i < lines * per_line; i += blockDim.x) {
      const unsigned long long line = i / per_line, piece = i % per_line;
      const uint4 v = load_cg(reinterpret_cast<const uint4*>(base + line * 128 + piece * 16));
      const uint4 w = load_cg(reinterpret_cast<const uint4*>(base + line * 128 + chunk + piece * 16));
      acc.x ^= v.x ^ w.x, acc.y ^= v.y ^ w.y, acc.z ^= v.z ^ w.z, acc.w ^= v.w ^ w.w;
    }
  }
  for (int pass = 0; pass < (warm == 2 ? 2 : warm >= 3 ? 0 : 1); ++pass) {
    const int offset = pass * chunk;
    if (pass == 1) {
      __syncthreads();
      const unsigned long long until = global_ns() + 10000;
      while (global_ns() < until) {
      }
    }
    for (unsigned long long i = threadIdx.x; i < lines * per_line; i += blockDim.x) {
      const unsigned long long line = i / per_line, piece = i % per_line;
      const uint4 v = load_cg(reinterpret_cast<const uint4*>(base + line * 128 + offset + piece * 16));
      acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
    }
  }
  __syncthreads();
  if (acc.x == 0x9e3779b9u && acc.y == 1u) sink[blockIdx.x] = acc;  // keeps the loads
  if (threadIdx.x == 0) rec[blockIdx.x] = Record{sm_id(), t0, global_ns()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: lrc_probe SHARE DELAY_NS BYTES CHUNK [WARM]\n");
    return 2;
  }
  const int share = std::atoi(argv[1]);
  const long long delay = std::atoll(argv[2]);
  const unsigned long long bytes = std::strtoull(argv[3], nullptr, 10);
  const int chunk = std::atoi(argv[4]);
  const int warm = argc > 5 ? std::atoi(argv[5]) : 0;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (share < 1 || share > sms || (chunk != 32 && chunk != 64 && chunk != 128) || bytes % 128 ||
      warm < 0 || warm > 5 || ((warm == 2 || warm == 3) && chunk == 128)) {
    std::fprintf(stderr, "share 1..%d, chunk 32|64|128, bytes a multiple of 128, warm 0-5 (2, 3: chunk < 128)\n", sms);
    return 2;
  }
  const int blocks = sms / share * share;
  const unsigned long long total = bytes * (blocks / share);
  char* data = nullptr;
  unsigned* arrived = nullptr;
  unsigned long long* go = nullptr;
  Record* rec = nullptr;
  uint4* sink = nullptr;
  CHECK(cudaMalloc(&data, total));
  CHECK(cudaMemset(data, 1, total));
  CHECK(cudaMalloc(&arrived, sizeof(unsigned)));
  CHECK(cudaMalloc(&go, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&rec, blocks * sizeof(Record)));
  CHECK(cudaMalloc(&sink, blocks * sizeof(uint4)));
  CHECK(cudaMemset(arrived, 0, sizeof(unsigned)));
  CHECK(cudaMemset(go, 0, sizeof(unsigned long long)));
  // 200 KB of dynamic shared memory: one block per SM, so all blocks are resident at once.
  const int smem = 200 * 1024;
  CHECK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  probe<<<blocks, 256, smem>>>(data, bytes, chunk, share, delay, warm, arrived, go, rec, sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<Record> r(blocks);
  CHECK(cudaMemcpy(r.data(), rec, blocks * sizeof(Record), cudaMemcpyDeviceToHost));
  unsigned long long t0 = ~0ull;
  for (const Record& x : r) t0 = x.start < t0 ? x.start : t0;
  std::printf("block,smid,start_ns,end_ns\n");
  for (int b = 0; b < blocks; ++b)
    std::printf("%d,%u,%llu,%llu\n", b, r[b].smid, r[b].start - t0, r[b].end - t0);
  return 0;
}
