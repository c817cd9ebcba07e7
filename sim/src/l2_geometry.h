// The L2 model's geometry in one place: DeviceDesc's 32-byte sectors in 128-byte lines (the only
// geometry validate_device accepts), so the sectors of a line are a 4-bit mask.
#pragma once
#include <cstdint>

#include "gemmlab/device_presets.h"

namespace gemmlab::l2_geometry {

inline constexpr int kLineShift = 7;    // 128-byte lines
inline constexpr int kSectorShift = 5;  // 32-byte sectors
inline constexpr std::uint64_t kLineBytes = 1ull << kLineShift;
inline constexpr std::uint64_t kSectorBytes = 1ull << kSectorShift;
inline constexpr unsigned kSectorsPerLine = unsigned(kLineBytes / kSectorBytes);  // 4
inline constexpr unsigned kFullLine = (1u << kSectorsPerLine) - 1;                 // mask 0xF
static_assert(kLineBytes == kL2ModelLineBytes && kSectorBytes == kL2ModelSectorBytes);

// Sectors set in a line's mask, from a table of 16 4-bit counts (std::popcount is a library call
// without -mpopcnt, and the replay counts a mask for every line it touches).
inline unsigned sectors_in(unsigned mask) {
  return static_cast<unsigned>(0x4332322132212110ull >> (4 * (mask & kFullLine))) & 0xF;
}
static_assert(kSectorsPerLine == 4, "sectors_in's table and the cache's 4-bit masks assume 4 sectors a line");

}  // namespace gemmlab::l2_geometry
