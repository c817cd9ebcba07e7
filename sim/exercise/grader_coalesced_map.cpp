// Exercise 04-thread-maps/coalesced-map: int thread_map(int thread, int access), the element
// (s * 128 + c) of lesson 4's 128 x 8 float tile (contiguous c 0..127, strided s 0..7) that
// thread 0..255 loads on its access 0..3. The tile is 8 rows of a row-major matrix 4096 floats
// wide, so one s step is 16 KB in global memory. Rules: inside the tile, every element loaded
// exactly once, then each warp's access touches the fewest 32-byte sectors (128 bytes: 4), as
// the stripmined map of the simulator (thread_map_analysis.h) does.
#include <set>

#include "gemmlab/thread_map_analysis.h"
#include "exercise_pictures.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace {

constexpr int kC = 128, kS = 8, kThreads = 256, kAccesses = 4, kElements = kC * kS;
constexpr long long kRowFloats = 4096;  // the matrix the tile is cut from
constexpr int kSectorBytes = 32;

Words element_words(long long e) { return words("(c %s, s %s)", e % kC, e / kC); }
long long global_byte(long long e) { return ((e / kC) * kRowFloats + e % kC) * 4; }

// Sectors one warp's access touches, for element(lane).
template <class F>
int sectors(F element) {
  std::set<long long> s;
  for (int lane = 0; lane < 32; ++lane) s.insert(global_byte(element(lane)) / kSectorBytes);
  return static_cast<int>(s.size());
}

// The simulator's stripmined map of the same tile (the lesson's first map): its warp 0, access 0.
int stripmined_sectors() {
  const auto r = analyze_thread_map({ThreadMapKind::Stripmined, kC, kS, kThreads, 1, 0, 0});
  if (!r) return -1;
  return sectors([&](int lane) {
    const PitchCoord e = r->accesses[r->first_element(lane, 0)].element;
    return static_cast<long long>(e.s) * kC + e.c;
  });
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  auto at = [&](int thread, int access) { return t.at(thread * kAccesses + access); };
  for (int th = 0; th < kThreads; ++th)
    for (int a = 0; a < kAccesses; ++a)
      if (at(th, a) < 0 || at(th, a) >= kElements) {
        v.say(words("thread %s's access %s goes to element %s, outside the 128 x 8 tile (elements 0 .. 1023)", th, a,
                    at(th, a)));
        return v;
      }
  v.hold(words("every access is inside the 128 x 8 tile"));
  std::vector<int> owner(kElements, -1);
  for (int i = 0; i < kThreads * kAccesses; ++i) {
    int& o = owner[static_cast<size_t>(t.at(i))];
    if (o >= 0) {
      v.say(words("element %s is loaded twice: by thread %s (access %s) and thread %s (access %s)", element_words(t.at(i)),
                  o / kAccesses, o % kAccesses, i / kAccesses, i % kAccesses));
      return v;
    }
    o = i;
  }
  v.hold(words("every element is loaded exactly once"));
  const int best = (32 * 4) / kSectorBytes;  // 32 lanes x 4 bytes
  for (int warp = 0; warp < kThreads / 32; ++warp)
    for (int a = 0; a < kAccesses; ++a) {
      const int n = sectors([&](int lane) { return at(warp * 32 + lane, a); });
      if (n <= best) continue;
      // Two neighbouring lanes that are not neighbours in memory.
      int lane = 0;
      while (lane < 30 && global_byte(at(warp * 32 + lane + 1, a)) == global_byte(at(warp * 32 + lane, a)) + 4) ++lane;
      const long long e0 = at(warp * 32 + lane, a), e1 = at(warp * 32 + lane + 1, a);
      v.say(words("warp %s's access %s touches %s sectors of 32 bytes where %s are possible (the stripmined map: %s): "
                  "lanes %s and %s load %s and %s, %s bytes apart", warp, a, n, best, stripmined_sectors(), lane,
                  lane + 1, element_words(e0), element_words(e1), global_byte(e1) - global_byte(e0)));
      return v;
    }
  v.hold(words("every warp's access reads 128 contiguous bytes: 4 sectors"));
  v.pass = true;
  v.say(words("each element once, and every warp access coalesced into 4 sectors of 32 bytes"));
  return v;
}

}  // namespace

Grader make_coalesced_map_grader() {
  Grader g;
  g.kind = "coalesced-map";
  g.signature = "int thread_map(int thread, int access)";
  g.declarations = "int thread_map(int thread, int access);\n";
  g.driver_body = "for (int t = 0; t < 256; ++t)\n  for (int a = 0; a < 4; ++a) emit(thread_map(t, a));";
  g.points = kThreads * kAccesses;
  g.describe_point = [](long long p) {
    return "thread_map(" + std::to_string(p / kAccesses) + ", " + std::to_string(p % kAccesses) + ")";
  };
  g.evaluate = evaluate;
  return g;
}

}  // namespace gemmlab::exercise

namespace gemmlab::exercise {

WarpAccessPicture warp_access_picture(const ValueTable& t) {
  WarpAccessPicture p;
  if (t.values_per_point != 1 || static_cast<long long>(t.values.size()) != kThreads * kAccesses) return p;
  for (int lane = 0; lane < 32; ++lane) {
    const long long e = t.at(lane * kAccesses);
    if (e < 0 || e >= kElements) return {};
    p.elements.push_back(e);
  }
  p.sectors = sectors([&](int lane) { return p.elements[static_cast<size_t>(lane)]; });
  return p;
}

WarpAccessPicture warp_access_picture_stripmined() {
  WarpAccessPicture p;
  const auto r = analyze_thread_map({ThreadMapKind::Stripmined, kC, kS, kThreads, 1, 0, 0});
  if (!r) return p;
  for (int lane = 0; lane < 32; ++lane) {
    const PitchCoord e = r->accesses[r->first_element(lane, 0)].element;
    p.elements.push_back(static_cast<long long>(e.s) * kC + e.c);
  }
  p.sectors = stripmined_sectors();
  return p;
}

}  // namespace gemmlab::exercise
