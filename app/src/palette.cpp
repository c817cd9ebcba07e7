#include "palette.h"

#include <algorithm>
#include <cmath>

namespace gemmlab::app {
namespace {

Rgba hsv(double h, double s, double v) {
  h = h - std::floor(h);
  const double i = std::floor(h * 6), f = h * 6 - i;
  const double p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(i) % 6) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
  }
  return rgba(static_cast<int>(r * 255), static_cast<int>(g * 255), static_cast<int>(b * 255));
}

constexpr double kGolden = 0.618033988749895;

}  // namespace

Rgba rgba(int r, int g, int b, int a) {
  auto c = [](int x) { return static_cast<Rgba>(std::clamp(x, 0, 255)); };
  return c(r) | (c(g) << 8) | (c(b) << 16) | (c(a) << 24);
}

Rgba id_color(int id) {
  const double h = 0.05 + kGolden * id;
  const double v = (id / 7) % 2 ? 0.80 : 0.95;
  return hsv(h, 0.55, v);
}

Rgba lane_color(int warp, int lane) {
  const double h = 0.05 + kGolden * warp;
  return hsv(h, 0.35 + 0.5 * (lane % 8) / 8.0, 0.55 + 0.45 * (lane / 8) / 3.0);
}

Rgba heat_color(double t) {
  t = std::clamp(t, 0.0, 1.0);
  // Piecewise-linear through viridis' ends and middle.
  struct Stop { double t; int r, g, b; };
  static const Stop stops[] = {{0.0, 68, 1, 84},    {0.25, 59, 82, 139}, {0.5, 33, 145, 140},
                               {0.75, 94, 201, 98}, {1.0, 253, 231, 37}};
  for (int i = 0; i < 4; ++i) {
    if (t <= stops[i + 1].t) {
      const double f = (t - stops[i].t) / (stops[i + 1].t - stops[i].t);
      auto mix = [f](int a, int b) { return static_cast<int>(a + (b - a) * f); };
      return rgba(mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g),
                  mix(stops[i].b, stops[i + 1].b));
    }
  }
  return rgba(253, 231, 37);
}

Rgba dim(Rgba c, float keep) {
  const int bg = 0x2A;
  auto ch = [&](int shift) {
    const int x = (c >> shift) & 0xFF;
    return static_cast<int>(bg + (x - bg) * keep);
  };
  return rgba(ch(0), ch(8), ch(16), (c >> 24) & 0xFF);
}

Rgba with_alpha(Rgba c, int alpha) {
  return (c & 0x00FFFFFFu) | (static_cast<Rgba>(std::clamp(alpha, 0, 255)) << 24);
}

}  // namespace gemmlab::app
