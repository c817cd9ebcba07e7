// GL_HD marks the addressing functions that the CUDA kernels include: the same code runs in the
// simulator (host) and in the kernel (device), so the simulator replays exactly what runs.
#pragma once

#if defined(__CUDACC__)
#define GL_HD __host__ __device__ __forceinline__
#else
#define GL_HD inline
#endif

namespace gemmlab {

// (contiguous, strided) coordinate of a pitch-linear tile, as CUTLASS's PitchLinearCoord.
struct PitchCoord {
  int c = 0;
  int s = 0;
  GL_HD constexpr bool operator==(const PitchCoord& o) const { return c == o.c && s == o.s; }
};

}  // namespace gemmlab
