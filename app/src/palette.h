// Colours shared by the views, so that "warp 3" or "bank 7" looks the same everywhere.
#pragma once
#include <cstdint>

namespace gemmlab::app {

using Rgba = std::uint32_t;  // ImU32: 0xAABBGGRR

Rgba rgba(int r, int g, int b, int a = 255);
// A distinct colour per id: hues spread by the golden ratio, so neighbours differ.
Rgba id_color(int id);
// Thread colour inside its warp's hue: warps differ by hue, lanes by lightness.
Rgba lane_color(int warp, int lane);
// 0..1 -> dark blue .. yellow (viridis-like), for heat maps.
Rgba heat_color(double t);
Rgba dim(Rgba c, float keep);  // blend towards the background
Rgba with_alpha(Rgba c, int alpha);

inline constexpr Rgba kEmptyCell = 0xFF3A3A3A;
inline constexpr Rgba kGridLine = 0x60000000;
inline constexpr Rgba kHighlight = 0xFF00FFFF;  // yellow outline
inline constexpr Rgba kErrorText = 0xFF6060FF;

}  // namespace gemmlab::app
