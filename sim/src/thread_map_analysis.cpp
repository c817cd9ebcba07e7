#include "gemmlab/thread_map_analysis.h"

#include <string>

namespace gemmlab {

namespace {
std::string pair(int a, int b) { return "(" + std::to_string(a) + "," + std::to_string(b) + ")"; }
constexpr int kMaxTileElements = 1 << 22;  // 4M elements: far beyond any threadblock tile
constexpr int kMaxThreads = 1024;          // CUDA's limit per block
}  // namespace

std::string thread_map_rule_text(ThreadMapRule rule, const ThreadMapParams& p) {
  const int vc = p.access > 0 ? p.shape_c / p.access : 0;
  switch (rule) {
    case ThreadMapRule::Ok:
      return "ok";
    case ThreadMapRule::NonPositive:
      return "shape, threads, access width and warp arrangement must all be positive";
    case ThreadMapRule::ContiguousNotDivisibleByAccess:
      return "Shape::kContiguous (" + std::to_string(p.shape_c) +
             ") must be divisible by kElementsPerAccess (" + std::to_string(p.access) + ")";
    case ThreadMapRule::StripminedThreadsDoNotDivide:
      return "Shape must be divisible by number of iterations of each thread: the tile is " +
             std::to_string(vc) + " vectors wide, so Threads (" + std::to_string(p.threads) +
             ") must divide it or be a multiple of it";
    case ThreadMapRule::WarpArrangementNotAWarp:
      return "WarpThreadArrangement " + pair(p.warp_c, p.warp_s) +
             " must hold exactly 32 threads (one warp)";
    case ThreadMapRule::ThreadsNotWholeWarps:
      return "Threads (" + std::to_string(p.threads) + ") must be a multiple of 32";
    case ThreadMapRule::ContiguousNotDivisibleByWarpArrangement:
      return "ShapeInAccesses::kContiguous (" + std::to_string(vc) +
             ") must be divisible by WarpThreadArrangement::kContiguous (" +
             std::to_string(p.warp_c) + ")";
    case ThreadMapRule::StridedNotDivisibleByWarpArrangement:
      return "ShapeInAccesses::kStrided (" + std::to_string(p.shape_s) +
             ") must be divisible by WarpThreadArrangement::kStrided (" +
             std::to_string(p.warp_s) + ")";
    case ThreadMapRule::ZeroIterations:
      return "Number of iterations must be non-zero: more warps (" +
             std::to_string(p.threads / 32) + ") than warp-sized pieces of the tile";
    case ThreadMapRule::WarpsDoNotDivideTile:
      return "the warps do not divide the tile's warp accesses evenly, so part of the tile "
             "would never be loaded (GEMM Lab rule; CUTLASS would compile it)";
  }
  return "unknown rule";
}

Expected<ThreadMapResult> analyze_thread_map(const ThreadMapParams& p) {
  if (p.threads > kMaxThreads)
    return Error{"Threads (" + std::to_string(p.threads) + ") exceeds CUDA's 1024 per block"};
  if (p.shape_c > 0 && p.shape_s > 0 &&
      static_cast<long long>(p.shape_c) * p.shape_s > kMaxTileElements)
    return Error{"tile " + pair(p.shape_c, p.shape_s) + " is larger than 4M elements; a " +
                 "threadblock tile is at most a few thousand"};
  ThreadMapResult r;
  r.params = p;
  r.geometry = thread_map_geometry(p);
  if (r.geometry.rule != ThreadMapRule::Ok) return Error{thread_map_rule_text(r.geometry.rule, p)};

  const auto& g = r.geometry;
  r.initial_offsets.reserve(p.threads);
  r.accesses.reserve(static_cast<size_t>(p.threads) * r.elements_per_thread());
  for (int t = 0; t < p.threads; ++t) {
    r.initial_offsets.push_back(thread_map_initial_offset(p, g, t));
    for (int s = 0; s < g.iterations.s; ++s)
      for (int c = 0; c < g.iterations.c; ++c)
        for (int v = 0; v < p.access; ++v) {
          const PitchCoord e = thread_map_element(p, g, t, s, c, v);
          const bool in = e.c >= 0 && e.c < p.shape_c && e.s >= 0 && e.s < p.shape_s;
          r.accesses.push_back({t, s, c, v, e, in});
        }
  }
  return r;
}

Expected<ThreadMapKind> parse_thread_map_kind(const std::string& name) {
  if (name == "stripmined") return ThreadMapKind::Stripmined;
  if (name == "warp-raked") return ThreadMapKind::WarpRaked;
  if (name == "warp-striped") return ThreadMapKind::WarpStriped;
  return Error{"unknown thread map '" + name + "': use stripmined, warp-raked or warp-striped"};
}

const char* thread_map_kind_name(ThreadMapKind kind) {
  switch (kind) {
    case ThreadMapKind::Stripmined: return "stripmined";
    case ThreadMapKind::WarpRaked: return "warp-raked";
    case ThreadMapKind::WarpStriped: return "warp-striped";
  }
  return "?";
}

ThreadMapOwners thread_map_owners(const ThreadMapResult& r) {
  ThreadMapOwners o;
  o.access.assign(static_cast<size_t>(r.params.shape_c) * static_cast<size_t>(r.params.shape_s), -1);
  for (size_t i = 0; i < r.accesses.size(); ++i) {
    const ThreadMapAccess& a = r.accesses[i];
    if (!a.in_tile) {
      ++o.outside;
      continue;
    }
    o.access[static_cast<size_t>(a.element.s) * r.params.shape_c + a.element.c] = static_cast<int>(i);
  }
  return o;
}

}  // namespace gemmlab
