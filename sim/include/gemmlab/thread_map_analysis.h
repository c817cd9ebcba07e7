// Run-time form of the thread maps for the GUI and the CLI: validate a user's settings, then list
// every element each thread moves, in the order CUTLASS's predicated tile iterator walks them.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/thread_map.h"

namespace gemmlab {

struct ThreadMapAccess {
  int thread = 0;
  int s = 0, c = 0, v = 0;  // iteration indices (strided, contiguous, vector element)
  PitchCoord element;       // (contiguous, strided) element coordinate in the tile
  bool in_tile = true;      // false where CUTLASS's rounding-up walks past the tile (predicated off)
};

struct ThreadMapResult {
  ThreadMapParams params;
  ThreadMapGeometry geometry;
  std::vector<PitchCoord> initial_offsets;  // one per thread
  std::vector<ThreadMapAccess> accesses;    // one per element: thread-major, then s, c, v
  // A thread's accesses are its vectors, one instruction each (CUTLASS's kElementsPerAccess
  // elements move together): (128,8) tile, 256 threads, 1 element -> 4; (64,64), 128 threads,
  // 8 halves -> Iterations (1,4): 4 accesses of 8 elements.
  int accesses_per_thread() const { return geometry.iterations.c * geometry.iterations.s; }
  int elements_per_thread() const { return accesses_per_thread() * params.access; }
  // Which of its thread's accesses accesses[i] belongs to (0 .. accesses_per_thread() - 1): the
  // elements of one vector share it.
  int index_in_thread(size_t i) const {
    return static_cast<int>(i % static_cast<size_t>(elements_per_thread())) / params.access;
  }
  // Where a thread's access `access` starts in `accesses` (its first element, v = 0).
  size_t first_element(int thread, int access) const {
    return static_cast<size_t>(thread) * static_cast<size_t>(elements_per_thread()) +
           static_cast<size_t>(access) * static_cast<size_t>(params.access);
  }
};

// Which access covers each element of the tile (the thread map view's picture).
struct ThreadMapOwners {
  std::vector<int> access;  // per element, row-major (s * shape_c + c): index into accesses, or -1
  int outside = 0;          // accesses past the tile (CUTLASS's rounding up, predicated off)
};
ThreadMapOwners thread_map_owners(const ThreadMapResult& r);

// The rule in words, with the numbers of this configuration.
std::string thread_map_rule_text(ThreadMapRule rule, const ThreadMapParams& p);

Expected<ThreadMapResult> analyze_thread_map(const ThreadMapParams& p);

// Parse "stripmined" | "warp-raked" | "warp-striped".
Expected<ThreadMapKind> parse_thread_map_kind(const std::string& name);
const char* thread_map_kind_name(ThreadMapKind kind);

}  // namespace gemmlab
