// CUTLASS pitch-linear thread maps (cutlass/transform/pitch_linear_thread_map.h), as constexpr
// functions of a run-time description. The kernels instantiate the compile-time wrappers at the
// bottom; the simulator and the GUI call the same functions with values the user typed.
//
//   PitchLinearStripminedThreadMap<(128,8), 256, 1>      -> Iterations (1,4), Delta (1,2)
//   PitchLinearWarpRakedThreadMap<(32,128),128,(4,8),8>  -> Iterations (1,4), Delta (32,8)
#pragma once
#include "gemmlab/hd.h"

namespace gemmlab {

enum class ThreadMapKind : int { Stripmined = 0, WarpRaked = 1, WarpStriped = 2 };

// Each rule is one of CUTLASS's static_asserts (or, where noted, a GEMM Lab rule that stops a
// tile from being left partly unloaded). thread_map_rule_text() says it in words.
enum class ThreadMapRule : int {
  Ok = 0,
  NonPositive,                 // a shape, thread count or access width <= 0
  ContiguousNotDivisibleByAccess,
  StripminedThreadsDoNotDivide,  // (Threads < ShapeVec.c && ShapeVec.c % Threads == 0) || Threads % ShapeVec.c == 0
  WarpArrangementNotAWarp,     // WarpThreadArrangement.c * .s must be 32
  ThreadsNotWholeWarps,        // Threads % 32
  ContiguousNotDivisibleByWarpArrangement,
  StridedNotDivisibleByWarpArrangement,
  ZeroIterations,              // static_assert(Iterations::kCount)
  WarpsDoNotDivideTile,        // GEMM Lab rule: integer division would leave accesses unassigned
};

struct ThreadMapParams {
  ThreadMapKind kind = ThreadMapKind::Stripmined;
  int shape_c = 0;  // tile extent along the contiguous dimension, in elements
  int shape_s = 0;  // tile extent along the strided dimension
  int threads = 0;
  int access = 1;   // kElementsPerAccess
  int warp_c = 0;   // WarpThreadArrangement (warp-raked / warp-striped only)
  int warp_s = 0;
};

// What CUTLASS derives at compile time from the template arguments.
struct ThreadMapGeometry {
  ThreadMapRule rule = ThreadMapRule::Ok;
  PitchCoord iterations;  // accesses per thread along (c, s)
  PitchCoord delta;       // element distance between successive accesses along (c, s)
  PitchCoord shape_vec;   // tile in units of vectors
  PitchCoord warps;       // WarpArrangement (warps along c, s); (0,0) for stripmined
};

GL_HD constexpr ThreadMapGeometry thread_map_geometry(const ThreadMapParams& p) {
  ThreadMapGeometry g;
  if (p.shape_c <= 0 || p.shape_s <= 0 || p.threads <= 0 || p.access <= 0) {
    g.rule = ThreadMapRule::NonPositive;
    return g;
  }
  if (p.shape_c % p.access != 0) {
    g.rule = ThreadMapRule::ContiguousNotDivisibleByAccess;
    return g;
  }
  g.shape_vec = {p.shape_c / p.access, p.shape_s};
  const int vc = g.shape_vec.c, vs = g.shape_vec.s;

  if (p.kind == ThreadMapKind::Stripmined) {
    if (!((p.threads < vc && vc % p.threads == 0) || p.threads % vc == 0)) {
      g.rule = ThreadMapRule::StripminedThreadsDoNotDivide;
      return g;
    }
    if (p.threads >= vc) {
      const int rows_per_pass = p.threads / vc;
      g.iterations = {1, (vs + rows_per_pass - 1) / rows_per_pass};
      g.delta = {1, rows_per_pass};
    } else {
      g.iterations = {vc / p.threads, vs};
      g.delta = {p.threads * p.access, 1};
    }
    return g;
  }

  // Warp-raked and warp-striped share the warp arrangement checks.
  if (p.warp_c <= 0 || p.warp_s <= 0) {
    g.rule = ThreadMapRule::NonPositive;
    return g;
  }
  if (p.warp_c > 32 || p.warp_s > 32 || p.warp_c * p.warp_s != 32) {  // no overflowing product
    g.rule = ThreadMapRule::WarpArrangementNotAWarp;
    return g;
  }
  if (p.threads % 32 != 0) {
    g.rule = ThreadMapRule::ThreadsNotWholeWarps;
    return g;
  }
  if (vc % p.warp_c != 0) {
    g.rule = ThreadMapRule::ContiguousNotDivisibleByWarpArrangement;
    return g;
  }
  if (vs % p.warp_s != 0) {
    g.rule = ThreadMapRule::StridedNotDivisibleByWarpArrangement;
    return g;
  }
  const int warp_count = p.threads / 32;
  const PitchCoord wai{vc / p.warp_c, vs / p.warp_s};  // WarpAccessIterations
  int warps_s = 0, warps_c = 0;
  if (p.kind == ThreadMapKind::WarpRaked) {
    warps_s = wai.s >= warp_count ? warp_count : wai.s;
    warps_c = warp_count > wai.s ? warp_count / warps_s : 1;
  } else {
    warps_s = wai.s >= warp_count ? warp_count : warp_count / wai.s;
    warps_c = warp_count > wai.s ? wai.c / warps_s : 1;
  }
  if (warps_c <= 0 || warps_s <= 0) {
    g.rule = ThreadMapRule::ZeroIterations;
    return g;
  }
  g.warps = {warps_c, warps_s};
  g.iterations = {wai.c / warps_c, wai.s / warps_s};
  if (g.iterations.c * g.iterations.s == 0) {
    g.rule = ThreadMapRule::ZeroIterations;
    return g;
  }
  if (g.iterations.c * warps_c != wai.c || g.iterations.s * warps_s != wai.s ||
      warps_c * warps_s != warp_count) {
    g.rule = ThreadMapRule::WarpsDoNotDivideTile;
    return g;
  }
  if (p.kind == ThreadMapKind::WarpRaked)
    g.delta = {p.warp_c * p.access, p.warp_s};
  else
    g.delta = {p.warp_c * p.access, p.warp_s * warps_s};
  return g;
}

// initial_offset(thread) in elements, exactly as CUTLASS computes it.
GL_HD constexpr PitchCoord thread_map_initial_offset(const ThreadMapParams& p,
                                                     const ThreadMapGeometry& g, int thread) {
  if (p.kind == ThreadMapKind::Stripmined) {
    return {(thread % g.shape_vec.c) * p.access, thread / g.shape_vec.c};
  }
  const int warp = thread / 32, lane = thread % 32;
  // Footprint of one warp in vectors: raked warps own Iterations.s consecutive rows of passes,
  // striped warps interleave with one pass each.
  const PitchCoord footprint{p.warp_c * g.iterations.c,
                             p.kind == ThreadMapKind::WarpRaked ? p.warp_s * g.iterations.s
                                                                : p.warp_s};
  const PitchCoord warp_offset{warp % g.warps.c, warp / g.warps.c};
  const PitchCoord lane_offset{lane % p.warp_c, lane / p.warp_c};
  return {(footprint.c * warp_offset.c + lane_offset.c) * p.access,
          footprint.s * warp_offset.s + lane_offset.s};
}

// Element (contiguous, strided) that thread touches at iteration (c, s), vector element v: the
// order of PredicatedTileIterator::load is for s { for c { for v } }.
GL_HD constexpr PitchCoord thread_map_element(const ThreadMapParams& p, const ThreadMapGeometry& g,
                                              int thread, int s, int c, int v) {
  const PitchCoord base = thread_map_initial_offset(p, g, thread);
  return {base.c + c * g.delta.c + v, base.s + s * g.delta.s};
}

// ---- Compile-time wrappers for the kernels: a bad shape fails to compile, as in CUTLASS.
template <ThreadMapKind Kind, int ShapeC, int ShapeS, int Threads, int Access, int WarpC = 0,
          int WarpS = 0>
struct ThreadMapT {
  static constexpr ThreadMapParams kParams{Kind, ShapeC, ShapeS, Threads, Access, WarpC, WarpS};
  static constexpr ThreadMapGeometry kGeometry = thread_map_geometry(kParams);
  static_assert(kGeometry.rule == ThreadMapRule::Ok,
                "invalid thread map: run `gemmlab sim threadmap` with these values for the rule");
  static constexpr int kThreads = Threads;
  static constexpr int kElementsPerAccess = Access;
  static constexpr int kIterationsC = kGeometry.iterations.c;
  static constexpr int kIterationsS = kGeometry.iterations.s;
  static constexpr int kDeltaC = kGeometry.delta.c;
  static constexpr int kDeltaS = kGeometry.delta.s;
  GL_HD static constexpr PitchCoord initial_offset(int thread) {
    // Local copies: device code may not odr-use a host static member (nvcc "undefined in device
    // code"); copying a constexpr object is not an odr-use.
    constexpr ThreadMapParams params = kParams;
    constexpr ThreadMapGeometry geometry = kGeometry;
    return thread_map_initial_offset(params, geometry, thread);
  }
};

template <int ShapeC, int ShapeS, int Threads, int Access = 1>
using PitchLinearStripminedThreadMap =
    ThreadMapT<ThreadMapKind::Stripmined, ShapeC, ShapeS, Threads, Access>;
template <int ShapeC, int ShapeS, int Threads, int WarpC, int WarpS, int Access = 1>
using PitchLinearWarpRakedThreadMap =
    ThreadMapT<ThreadMapKind::WarpRaked, ShapeC, ShapeS, Threads, Access, WarpC, WarpS>;
template <int ShapeC, int ShapeS, int Threads, int WarpC, int WarpS, int Access = 1>
using PitchLinearWarpStripedThreadMap =
    ThreadMapT<ThreadMapKind::WarpStriped, ShapeC, ShapeS, Threads, Access, WarpC, WarpS>;

// The SIMT example's A loader (CUTLASS's 00_basic_gemm): 128x8 tile, 256 threads, scalar loads.
static_assert(PitchLinearStripminedThreadMap<128, 8, 256>::kIterationsS == 4);
static_assert(PitchLinearStripminedThreadMap<128, 8, 256>::kDeltaS == 2);

}  // namespace gemmlab
