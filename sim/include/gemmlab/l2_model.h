// The L2 model, and the replay of a whole GEMM through it.
//
// Cache (what was chosen and why):
//   - 32-byte sectors in 128-byte lines: a lookup is per sector; a line is allocated whole, and
//     only the sectors asked for are fetched (ncu counts L2 traffic in sectors).
//   - Set-associative, 16 ways by default, true LRU per set. NVIDIA publishes neither the
//     associativity nor the replacement policy; LRU is the textbook choice, it is deterministic,
//     and for the streaming tiles of a GEMM any reasonable policy keeps the recently shared A/B
//     tiles, which is the effect the lessons show. Set index: line = q x sets + r goes to set
//     (r + offset(q)) % sets, offset a hash of q (the hardware hashes too; power-of-two strides
//     would otherwise alias), tag q; (set, tag) gives the line back exactly, so a tag of 16 bits
//     is enough for every line below 65535 x sets (H100: 107 GB) and a set fits one 64-byte
//     host cache line (fetching sets was the replay's largest cost). It replaced a hash of the
//     whole line and moved the validation table by at most 0.06 points (kernels/lab/L2_VALIDATION.md).
//   - Write-back, write-allocate without fetch (C stores write whole sectors). DRAM write bytes
//     are dirty sectors evicted during the replay; what is still dirty at the end is reported
//     separately (it would be written after the kernel).
//   - Two partitions (H100/H200, A100; hardware_rules.md): each address has a home partition
//     (assumption: parity of the 4 KiB-granule address bits, so every large buffer is split
//     evenly); each SM sits next to one partition (GH100: each partition serves 4 of the 8 GPCs).
//     Which SMs those are is not published, and the block dispatcher spreads consecutive blocks
//     over the GPCs (measured: blocks 0..15 land on SMs 124-131, 10, 11, 26, 27, ...), so the side
//     of a block has nothing to do with its tile coordinates: near_partition(sm) puts a fixed
//     pseudo-random half of the SMs on each side (the SMs ranked by a 32-bit hash). Two
//     assignments that were tried and are wrong: SM i on side i % 2 (with 32 m tiles every block
//     of an A row band lands on one side, A is never duplicated, and multistage 4096^3 reads 94 MB
//     from DRAM where the H200 reads 309 MB) and the golden-ratio sequence (blocks 64 apart land
//     on opposite sides 89% of the time: too many near misses at 8192^3). kernels/lab/L2_VALIDATION.md.
//     An SM's read looks up its near partition first; a miss on a far-homed address is looked up
//     again in the far partition over the fabric, and the data, from there or from DRAM, is kept
//     in both. Writes go to the home partition and drop any stale copy in the other one.
//
// Replay semantics: blocks issue their k-step loads when the timeline starts that iteration (a
// pipelined main loop fetches a few steps earlier; that shift is not modelled). With 2 blocks per
// SM the replay's clock is l2_progress.h's instead of the timeline's: the older resident block
// runs faster (measured on the H200), so blocks that share a tile drift apart. All
// loads of one instant are issued together; co-resident blocks that need the same A or B tile
// step (on the same partition side) send one request: the first looks it up, the others merge
// with it and count as hits on the same sectors (an L2 hit-under-miss). Within an instant the
// lookups go A tiles then B tiles, in tile order; stores and partial reads go first.
//
// Comparable with ncu (kernels/lab/L2_VALIDATION.md, checked on the H200 for 4 kernels x 2 sizes):
//   hit_rate        = 1 - near misses / sectors the SMs read
//                   ~ 1 - lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
//                         / lrc__request_sectors_op_read_coalescable.sum
//                     (the denominator = l1tex__m_xbar2l1tex_read_sectors.sum)
//   dram_bytes_read ~ dram__bytes_read.sum
// NOT lookup_hit / lts__t_sectors_srcunit_tex_op_read: on GH100 the L2 request coalescer (LRC)
// merges 4-28% of the read sectors before the tag stage, so ..._op_read counts fewer sectors
// than the SMs asked for, and the tag stage's hits + misses exceed ..._op_read by 1-18% (also
// within one ncu pass); that ratio reads up to 10 points above the hits per requested sector.
// The second effect is modelled: a cp.async (LDGSTS) request that misses is counted as a hit
// too, once per request (measured exactly: one block alone, 65,536 requests of 2 sectors, 131,072
// misses and 65,536 hits); ld.global requests are not. The first is not: which requests the LRC
// merges depends on when, within a k-step, 132 SMs send them, a timing the replay does not have.
// Given the LRC's merge count (ncu: requested sectors - ..._op_read),
// ncu_lookup_hit_over_op_read() gives what that ratio should read.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/device_presets.h"
#include "gemmlab/expected.h"
#include "gemmlab/l2_progress.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"

namespace gemmlab {

struct L2Counters {
  std::uint64_t read_lookups = 0;      // sectors looked up in the near partition by SM reads
  std::uint64_t read_hits = 0;
  std::uint64_t far_lookups = 0;       // second lookups of far-homed sectors
  std::uint64_t far_hits = 0;
  std::uint64_t dram_read_sectors = 0;
  std::uint64_t read_requests_missed = 0;  // (line, sector mask) reads with a near miss
  std::uint64_t write_sectors = 0;
  std::uint64_t dram_write_sectors = 0;  // dirty sectors evicted
};

class L2Cache {
 public:
  // d must pass validate_device(); every line read or written must be <= max_line (<= kMaxLine).
  // When max_line / sets < 0xFFFF the tags are 16 bits (a set is one 64-byte host cache line),
  // else 32 bits; both give the same results.
  explicit L2Cache(const DeviceDesc& d, std::uint64_t max_line = kMaxLine);

  // Sector mask bit i = bytes [32 i, 32 i + 32) of the 128-byte line. `sm` picks the near side.
  // Returns the sectors that came from DRAM.
  unsigned read(std::uint64_t line, unsigned mask, int sm);
  void write(std::uint64_t line, unsigned mask, int sm);
  // An add into memory done by the L2 (the TMA's cp.reduce.async.bulk .add): the home partition
  // reads the sectors it does not hold from DRAM, then holds the sums dirty. Not a read request
  // (ncu counts no read look-up for it); the sectors count as written.
  void reduce(std::uint64_t line, unsigned mask, int sm);
  // Reads a batch of lines for one SM, in order; the same result as read() on each, but the
  // host fetches the sets a few look-ups ahead. Returns the sectors that came from DRAM.
  struct LineRef {
    std::uint64_t line;
    unsigned mask;
  };
  std::uint64_t read_batch(const LineRef* refs, std::size_t n, int sm);
  // The same for lines first + r x stride + j, r < rows, j < per_row, row by row, line j of every
  // row with sectors masks[j] (a tile whose rows are a whole number of lines apart).
  std::uint64_t read_rows(std::uint64_t first, std::uint64_t stride, std::size_t rows, const unsigned* masks,
                          std::size_t per_row, int sm);
  // Sectors of a request that merged with an identical one issued in the same instant: they
  // count as near look-ups that hit.
  void count_merged_hits(std::uint64_t sectors) {
    c_.read_lookups += sectors;
    c_.read_hits += sectors;
  }

  int home_partition(std::uint64_t line) const;
  int partitions() const { return partitions_; }
  std::uint64_t sets_per_partition() const { return sets_; }
  std::uint64_t dirty_sectors() const;
  // The partition next to `sm` (see the header comment).
  int near_partition(int sm) const {
    return partitions_ == 1 ? 0 : side_[static_cast<size_t>(sm) % side_.size()];
  }
  const L2Counters& counters() const { return c_; }

  // Tags are at most 32 bits: addresses must stay below 2^32 lines (512 GiB).
  static constexpr std::uint64_t kMaxLine = 0xFFFFFFFEull;
  bool narrow_tags() const { return !narrow_.empty(); }

 private:
  template <class Tag>
  struct alignas(64) SetOf {
    Tag tag[16];          // empty: all ones
    std::uint64_t order;  // way ids by recency, 4 bits each; nibble 0 = most recent
    std::uint64_t valid;  // 4 sector bits per way
    std::uint64_t dirty;
  };
  using NarrowSet = SetOf<std::uint16_t>;  // 64 bytes
  using WideSet = SetOf<std::uint32_t>;    // 128 bytes
  // The same set index in every partition; partition p's sets are [p x sets_, (p + 1) x sets_).
  struct Slot {
    std::uint32_t set;
    std::uint32_t tag;
  };
  class SlotFinder;
  template <class S, class Next>
  std::uint64_t read_lines(S* sets, std::size_t n, int sm, Next&& next, unsigned* from_dram);
  template <class S> unsigned write_in(S* sets, std::uint64_t line, unsigned mask);  // -> sectors it lacked
  template <class S> static std::uint64_t dirty_in(const std::vector<S>& sets);

  std::vector<NarrowSet> narrow_;  // one of the two is used
  std::vector<WideSet> wide_;
  std::vector<std::uint8_t> side_;  // per SM: its near partition
  std::uint64_t sets_ = 0;
  std::uint64_t reciprocal_ = 0;  // 2^63 / sets_ + 1 (SlotFinder)
  int partitions_ = 1;
  int ways_ = 16;
  L2Counters c_;
};

enum class MatrixOrder { RowMajor, ColumnMajor };

// How a kernel's main loop reads A and B. The L2 holds the same data either way; ncu's tag
// stage counts a missed cp.async request once more, as a hit (see the header comment). Tma: the
// Hopper stages' bulk tensor copies, whose ncu look-up accounting is not yet measured (counted as Ldg).
enum class GlobalLoad { Ldg, CpAsync, Tma };

// The most line look-ups a replay may make (~30 s); L2ReplayOptions::max_lookups may lower it.
inline constexpr std::uint64_t kMaxL2Lookups = 3'000'000'000ull;

struct L2ReplayOptions {
  int element_bytes = 2;          // A, B and C (f16: 2, f32: 4)
  int accumulator_bytes = 4;      // stream-k / parallel split-k partials (f32)
  MatrixOrder a_order = MatrixOrder::RowMajor;     // A is M x K
  MatrixOrder b_order = MatrixOrder::ColumnMajor;  // B is K x N ("TN", the hand-written mma_base HGEMM)
  // C (M x N): its element size (0: element_bytes) and order. The lab's kernels (stages.def)
  // write an f32 column-major C on both tracks.
  int c_element_bytes = 0;
  MatrixOrder c_order = MatrixOrder::RowMajor;
  int buckets = 50;               // hit_rate_over_time samples
  std::uint64_t max_lookups = kMaxL2Lookups;  // refuse a replay above this (at most kMaxL2Lookups)
  CoresidentRates coresident;     // the replay's clock with 2 blocks per SM (l2_progress.h)
  GlobalLoad global_load = GlobalLoad::Ldg;  // only for the ncu look-up counts (extra_tag_lookups)
  // Clusters whose blocks share their B tile through TMA multicast (stages 18, 19): one copy per
  // cluster reaches L2, so only the cluster's rank-0 block requests B (its DRAM sectors are
  // charged to the C tiles part by part, each rank's tile the part its block loads). A block's rank is
  // blockIdx.y % multicast_b (stage 18: clusters along gridDim.y) or, with multicast_rank_linear,
  // its launch index % multicast_b (stage 19's tile list: a cluster's blocks are consecutive).
  int multicast_b = 1;  // 1 or 2
  bool multicast_rank_linear = false;
};

// A per-tile count grid for the app's heat maps, row-major [rows][cols].
struct TileHeat {
  int rows = 0;
  int cols = 0;
  std::vector<std::uint32_t> loads;         // block-steps that loaded the tile
  std::vector<std::uint32_t> dram_sectors;  // sectors those loads fetched from DRAM
};

struct L2Report {
  L2Counters counters;
  double hit_rate = 0;                 // near read hits / near read lookups
  double hit_rate_with_far = 0;        // (near + far hits) / (near + far lookups), like lts__t_sector_hit_rate
  std::uint64_t dram_bytes_read = 0;
  std::uint64_t dram_bytes_written = 0;
  std::uint64_t dirty_bytes_at_end = 0;
  // What the launch writes to DRAM in the end: the write-backs so far plus the dirty lines left.
  std::uint64_t dram_bytes_written_total() const { return dram_bytes_written + dirty_bytes_at_end; }
  std::uint64_t compulsory_read_bytes = 0;  // distinct A and B bytes: a perfect cache reads these once
  // What ncu's tag stage counts on top of one look-up per sector: with cp.async, one hit per
  // request that missed (counters.read_requests_missed); 0 with ld.global.
  std::uint64_t extra_tag_lookups = 0;
  std::vector<double> hit_rate_over_time;   // per time bucket; -1 where nothing was read
  std::vector<double> bucket_end_time;
  TileHeat a_tiles;  // [m tile][k iteration]
  TileHeat b_tiles;  // [k iteration][n tile]
  std::vector<std::uint32_t> c_tile_dram_sectors;  // [m tile][n tile]: DRAM sectors its main loop fetched
  bool heat_maps_omitted = false;      // too many tiles to keep
  bool coresident_clock = false;       // the replay ran on l2_progress.h's clock
  double makespan = 0;                 // of the clock the replay ran on (timeline units)
};

// Replays the A and B tile loads of every block k-step by k-step in time order (co-resident
// blocks interleaved; ties in slot order), the C stores, and the split-k / stream-k partials.
Expected<L2Report> replay_l2(const BlockPlan& plan, const Timeline& timeline, const DeviceDesc& device,
                             const L2ReplayOptions& options);

// What lts__t_sectors_srcunit_tex_op_read_lookup_hit / lts__t_sectors_srcunit_tex_op_read reads
// for this replay when the L2 request coalescer merged `lrc_merged_sectors` of the requested
// sectors (ncu: l1tex__m_xbar2l1tex_read_sectors - lts__t_sectors_srcunit_tex_op_read):
//   (requested - merged - near misses + extra_tag_lookups) / (requested - merged).
// Error (not a ratio) when the merges are negative or leave nothing to look up.
Expected<double> ncu_lookup_hit_over_op_read(const L2Report& r, double lrc_merged_sectors);

// Line look-ups the replay will make (to refuse a request that would take minutes).
std::uint64_t estimate_l2_lookups(const BlockPlan& plan, const L2ReplayOptions& options);

}  // namespace gemmlab
