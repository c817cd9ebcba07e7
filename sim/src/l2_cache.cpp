// Set-associative LRU with sector valid/dirty bits; see l2_model.h for the choices.
#include <algorithm>
#include <bit>
#include <type_traits>
#include <utility>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "gemmlab/l2_model.h"
#include "l2_geometry.h"

namespace gemmlab {

namespace {

constexpr std::uint64_t kNibbleOnes = 0x1111111111111111ull;
constexpr std::uint64_t kNibbleHigh = 0x8888888888888888ull;
constexpr std::uint64_t kIdentityOrder = 0xFEDCBA9876543210ull;  // position i holds way i

// Position of way w in the recency list (exactly one nibble equals w).
inline int position_of(std::uint64_t order, unsigned w) {
  const std::uint64_t x = order ^ (kNibbleOnes * w);
  const std::uint64_t zero = (x - kNibbleOnes) & ~x & kNibbleHigh;
  return std::countr_zero(zero) >> 2;
}

// Moves the way at position p to the front (most recent).
inline std::uint64_t to_front(std::uint64_t order, int p) {
  const unsigned w = static_cast<unsigned>(order >> (4 * p)) & 0xF;
  const std::uint64_t below = order & ((1ull << (4 * p)) - 1);
  const std::uint64_t above = p == 15 ? 0 : order & ~((1ull << (4 * p + 4)) - 1);
  return above | (below << 4) | w;
}

using l2_geometry::sectors_in;

// Bit w set when way w holds `tag`. SSE2 is part of every x86-64 CPU; elsewhere the plain loop.
inline unsigned match_ways(const std::uint16_t* tags, std::uint32_t tag) {
#if defined(__SSE2__)
  const __m128i t = _mm_set1_epi16(static_cast<short>(tag));
  const __m128i* v = reinterpret_cast<const __m128i*>(tags);
  const __m128i lo = _mm_cmpeq_epi16(_mm_load_si128(v + 0), t);
  const __m128i hi = _mm_cmpeq_epi16(_mm_load_si128(v + 1), t);
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(lo, hi)));  // 0 / -1 words to bytes
#else
  unsigned m = 0;
  for (int w = 0; w < 16; ++w) m |= static_cast<unsigned>(tags[w] == tag) << w;
  return m;
#endif
}
inline unsigned match_ways(const std::uint32_t* tags, std::uint32_t tag) {
#if defined(__SSE2__)
  const __m128i t = _mm_set1_epi32(static_cast<int>(tag));
  const __m128i* v = reinterpret_cast<const __m128i*>(tags);
  const int m0 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_load_si128(v + 0), t)));
  const int m1 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_load_si128(v + 1), t)));
  const int m2 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_load_si128(v + 2), t)));
  const int m3 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_load_si128(v + 3), t)));
  return static_cast<unsigned>(m0 | (m1 << 4) | (m2 << 8) | (m3 << 12));
#else
  unsigned m = 0;
  for (int w = 0; w < 16; ++w) m |= static_cast<unsigned>(tags[w] == tag) << w;
  return m;
#endif
}

// MurmurHash3's 32-bit finaliser: every input bit flips each output bit with probability ~1/2.
inline std::uint32_t mix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}
// Home partition with two: 4 KiB granules (32 lines); the parity of the granule index spreads
// every buffer over both halves.
inline int granule_parity(std::uint64_t line) { return __builtin_parityll(line >> 5); }

constexpr std::uint32_t kSideSeed = 0;  // seeds 0-3 all give the table of L2_VALIDATION.md within 0.4 points

}  // namespace

L2Cache::L2Cache(const DeviceDesc& d, std::uint64_t max_line) {
  ways_ = d.l2_ways;
  partitions_ = d.l2_partitions;
  sets_ = static_cast<std::uint64_t>(d.l2_bytes) /
          (static_cast<std::uint64_t>(d.l2_partitions) * d.l2_line_bytes * d.l2_ways);
  reciprocal_ = (1ull << 63) / sets_ + 1;
  const size_t all = static_cast<size_t>(sets_) * static_cast<size_t>(partitions_);
  // Tags q = line / sets: 16 bits when the highest one is below 0xFFFF (all ones = empty).
  if (std::min(max_line, kMaxLine) / sets_ < 0xFFFFu) {
    NarrowSet empty{};
    for (auto& t : empty.tag) t = 0xFFFFu;
    empty.order = kIdentityOrder;
    narrow_.assign(all, empty);
  } else {
    WideSet empty{};
    for (auto& t : empty.tag) t = 0xFFFFFFFFu;
    empty.order = kIdentityOrder;
    wide_.assign(all, empty);
  }
  // Near sides: the SMs ranked by a hash of their index; the first half on side 0.
  const int sms = d.sms > 0 ? d.sms : 1;
  std::vector<std::pair<std::uint32_t, int>> ranked;
  for (int i = 0; i < sms; ++i) ranked.push_back({mix32(static_cast<std::uint32_t>(i) + kSideSeed), i});
  std::sort(ranked.begin(), ranked.end());
  side_.assign(static_cast<size_t>(sms), 0);
  for (int r = sms / 2; r < sms; ++r) side_[static_cast<size_t>(ranked[static_cast<size_t>(r)].second)] = 1;
}

// Where lines live (l2_model.h: line = q x sets + r -> set (r + offset(q)) % sets, tag q).
// q = line / sets without a division: 2 line x (2^63 / sets + e) / 2^64 with 0 < e <= 1 is
// line / sets plus less than 2^-31 (line < 2^32), and line / sets is at least 1 / sets (> 2^-26)
// below the next integer, so the floor is exact. Consecutive lines mostly share q: its offset
// is kept.
class L2Cache::SlotFinder {
 public:
  explicit SlotFinder(const L2Cache& c) : sets_(c.sets_), reciprocal_(c.reciprocal_) {}
  Slot operator()(std::uint64_t line) {
    __extension__ typedef unsigned __int128 u128;
    const std::uint64_t q = static_cast<std::uint64_t>((static_cast<u128>(line << 1) * reciprocal_) >> 64);
    if (q != q_) {
      q_ = q;
      offset_ = (static_cast<std::uint64_t>(mix32(static_cast<std::uint32_t>(q))) * sets_) >> 32;  // [0, sets)
    }
    std::uint64_t set = line - q * sets_ + offset_;
    if (set >= sets_) set -= sets_;
    return {static_cast<std::uint32_t>(set), static_cast<std::uint32_t>(q)};
  }

 private:
  std::uint64_t sets_, reciprocal_;
  std::uint64_t q_ = ~0ull;
  std::uint64_t offset_ = 0;
};

int L2Cache::home_partition(std::uint64_t line) const { return partitions_ == 1 ? 0 : granule_parity(line); }

// Looks `tag` up in set s and makes it the most recent way, allocating the least recent one
// (at recency position `lru`) on a miss. Returns the sectors of `mask` that were not valid (the
// caller fetches them); adds the dirty sectors of an evicted line to `evicted_dirty`.
template <class S>
[[gnu::always_inline]] inline unsigned lookup_fill(S& s, std::uint32_t tag, unsigned mask, int lru,
                                                   std::uint64_t& evicted_dirty) {
  const unsigned m = match_ways(s.tag, tag);
  if (m) {
    const unsigned w = static_cast<unsigned>(std::countr_zero(m));
    const unsigned have = static_cast<unsigned>(s.valid >> (4 * w)) & 0xF;
    s.valid |= static_cast<std::uint64_t>(mask) << (4 * w);
    const int p = position_of(s.order, w);
    if (p) s.order = to_front(s.order, p);
    return mask & ~have;
  }
  const unsigned w = static_cast<unsigned>(s.order >> (4 * lru)) & 0xF;
  const std::uint64_t nib = 0xFull << (4 * w);
  evicted_dirty += sectors_in(static_cast<unsigned>(s.dirty >> (4 * w)));
  s.tag[w] = static_cast<std::remove_reference_t<decltype(s.tag[0])>>(tag);
  s.valid = (s.valid & ~nib) | (static_cast<std::uint64_t>(mask) << (4 * w));
  s.dirty &= ~nib;
  s.order = to_front(s.order, lru);
  return mask;
}

// Reads `n` lines, in order, from next(i) -> LineRef (called once per line, i = 0, 1, ...).
// In chunks: first every line's sets are computed and fetched into the host's cache, then the
// chunk is looked up (the host's memory latency, not the arithmetic, would dominate otherwise).
// Counters stay in registers until the end. from_dram (optional): per line, the DRAM sectors.
template <class S, class Next>
std::uint64_t L2Cache::read_lines(S* sets, std::size_t n, int sm, Next&& next, unsigned* from_dram) {
  constexpr std::size_t kChunk = 64;
  const int near = near_partition(sm);
  S* const near_sets = sets + static_cast<size_t>(near) * sets_;
  S* const other_sets = partitions_ == 2 ? sets + static_cast<size_t>(1 - near) * sets_ : nullptr;
  struct Pending {
    S* near;
    S* far;  // the home partition's set when the line is homed on the other side, else nullptr
    std::uint32_t tag;
    unsigned mask;
  };
  Pending todo[kChunk];
  SlotFinder find(*this);
  const int lru = ways_ - 1;
  std::uint64_t lookups = 0, hits = 0, far_lookups = 0, far_hits = 0, dram = 0, evicted_dirty = 0, missed = 0;
  for (std::size_t done = 0; done < n;) {
    const std::size_t count = std::min(kChunk, n - done);
    for (std::size_t i = 0; i < count; ++i) {
      const LineRef ref = next(done + i);
      const Slot at = find(ref.line);
      Pending& pd = todo[i];
      pd.near = near_sets + at.set;
      pd.tag = at.tag;
      pd.mask = ref.mask;
      __builtin_prefetch(pd.near);
      if constexpr (sizeof(S) > 64) __builtin_prefetch(reinterpret_cast<const char*>(pd.near) + 64);
      pd.far = nullptr;
      // A near miss goes on to the home partition: fetch that set too (half the lines live there).
      if (other_sets && granule_parity(ref.line) != near) {
        pd.far = other_sets + at.set;
        __builtin_prefetch(pd.far);
        if constexpr (sizeof(S) > 64) __builtin_prefetch(reinterpret_cast<const char*>(pd.far) + 64);
      }
    }
    for (std::size_t i = 0; i < count; ++i) {
      const Pending& pd = todo[i];
      const unsigned miss = lookup_fill(*pd.near, pd.tag, pd.mask, lru, evicted_dirty);
      lookups += sectors_in(pd.mask);
      hits += sectors_in(pd.mask & ~miss);
      missed += miss != 0;
      unsigned fetched = miss;
      if (miss && pd.far) {
        far_lookups += sectors_in(miss);
        fetched = lookup_fill(*pd.far, pd.tag, miss, lru, evicted_dirty);
        far_hits += sectors_in(miss & ~fetched);
      }
      dram += sectors_in(fetched);
      if (from_dram) from_dram[done + i] = fetched;
    }
    done += count;
  }
  c_.read_lookups += lookups;
  c_.read_hits += hits;
  c_.far_lookups += far_lookups;
  c_.far_hits += far_hits;
  c_.dram_read_sectors += dram;
  c_.read_requests_missed += missed;
  c_.dram_write_sectors += evicted_dirty;
  return dram;
}

unsigned L2Cache::read(std::uint64_t line, unsigned mask, int sm) {
  const auto one = [&](std::size_t) { return LineRef{line, mask}; };
  unsigned from_dram = 0;
  if (narrow_tags()) read_lines(narrow_.data(), 1, sm, one, &from_dram);
  else read_lines(wide_.data(), 1, sm, one, &from_dram);
  return from_dram;
}

std::uint64_t L2Cache::read_batch(const LineRef* refs, std::size_t n, int sm) {
  const auto at = [refs](std::size_t i) { return refs[i]; };
  return narrow_tags() ? read_lines(narrow_.data(), n, sm, at, nullptr) : read_lines(wide_.data(), n, sm, at, nullptr);
}

std::uint64_t L2Cache::read_rows(std::uint64_t first, std::uint64_t stride, std::size_t rows, const unsigned* masks,
                                 std::size_t per_row, int sm) {
  if (per_row == 0) return 0;
  // Called in order 0, 1, 2, ...: walk the rows without dividing.
  std::uint64_t row_first = first;
  std::size_t j = 0;
  const auto at = [&](std::size_t) {
    const LineRef ref{row_first + j, masks[j]};
    if (++j == per_row) j = 0, row_first += stride;
    return ref;
  };
  return narrow_tags() ? read_lines(narrow_.data(), rows * per_row, sm, at, nullptr)
                       : read_lines(wide_.data(), rows * per_row, sm, at, nullptr);
}

// Writes go to the home partition (allocate without fetch: the written sectors become valid and
// dirty) and drop the written sectors from the other partition's copy.
template <class S>
unsigned L2Cache::write_in(S* sets, std::uint64_t line, unsigned mask) {
  const Slot at = SlotFinder(*this)(line);
  const int home = home_partition(line);
  S& s = sets[static_cast<size_t>(home) * sets_ + at.set];
  const unsigned lacked = lookup_fill(s, at.tag, mask, ways_ - 1, c_.dram_write_sectors);
  const unsigned w = static_cast<unsigned>(std::countr_zero(match_ways(s.tag, at.tag)));
  s.dirty |= static_cast<std::uint64_t>(mask) << (4 * w);
  if (partitions_ == 2) {
    S& other = sets[static_cast<size_t>(1 - home) * sets_ + at.set];
    if (const unsigned m = match_ways(other.tag, at.tag))
      other.valid &= ~(static_cast<std::uint64_t>(mask) << (4 * std::countr_zero(m)));
  }
  return lacked;
}

void L2Cache::write(std::uint64_t line, unsigned mask, int) {
  if (narrow_tags()) write_in(narrow_.data(), line, mask);
  else write_in(wide_.data(), line, mask);
  c_.write_sectors += sectors_in(mask);
}

void L2Cache::reduce(std::uint64_t line, unsigned mask, int) {
  const unsigned lacked = narrow_tags() ? write_in(narrow_.data(), line, mask) : write_in(wide_.data(), line, mask);
  c_.dram_read_sectors += sectors_in(lacked);
  c_.write_sectors += sectors_in(mask);
}

template <class S>
std::uint64_t L2Cache::dirty_in(const std::vector<S>& sets) {
  std::uint64_t n = 0;
  for (const S& s : sets) n += static_cast<std::uint64_t>(std::popcount(s.dirty & s.valid));
  return n;
}

std::uint64_t L2Cache::dirty_sectors() const { return narrow_tags() ? dirty_in(narrow_) : dirty_in(wide_); }

}  // namespace gemmlab
