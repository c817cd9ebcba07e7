// shape_sweep (gemmlab/shape_sweep.h): a stage x shape table of ratios with each stage's geometric
// mean, wins and worst shape, and each shape's best stage.
#include "gemmlab/shape_sweep.h"

#include <cmath>

namespace gemmlab {

const std::vector<GemmCoord>& issue51_shapes() {
  static const std::vector<GemmCoord> shapes = {
      {4096, 8192, 8192},  {4096, 28672, 8192}, {4096, 8192, 28672}, {4096, 10240, 8192},
      {16384, 8192, 8192}, {8192, 1024, 8192},  {2048, 2048, 2048},  {1024, 1024, 1024},
      {128, 8192, 8192},   {64, 28672, 8192},   {16, 8192, 8192},    {512, 512, 16384}};
  return shapes;
}

namespace {

bool is_reference(const std::string& stage) { return stage.rfind("cublas", 0) == 0; }
bool measured(double ratio) { return std::isfinite(ratio) && ratio > 0; }

int index_of(const std::vector<GemmCoord>& shapes, GemmCoord s) {
  for (size_t i = 0; i < shapes.size(); ++i)
    if (shapes[i].m == s.m && shapes[i].n == s.n && shapes[i].k == s.k) return int(i);
  return -1;
}

void summarize(SweepStage& st) {
  double log_sum = 0;
  for (size_t i = 0; i < st.ratio.size(); ++i) {
    const double r = st.ratio[i];
    if (r <= 0) continue;
    ++st.measured;
    st.wins += r >= 1.0;
    log_sum += std::log(r);
    if (st.worst < 0 || r < st.ratio[size_t(st.worst)]) st.worst = int(i);
  }
  st.geomean = st.measured > 0 ? std::exp(log_sum / st.measured) : 0;
}

}  // namespace

ShapeSweep shape_sweep(const std::vector<SweepRow>& rows, const std::vector<GemmCoord>& shapes,
                       const std::string& track) {
  ShapeSweep sw;
  sw.shapes = shapes;
  auto wanted = [&](const SweepRow& r) { return !is_reference(r.stage) && (track.empty() || r.track == track); };
  if (sw.shapes.empty())
    for (const SweepRow& r : rows)
      if (wanted(r) && index_of(sw.shapes, r.shape) < 0) sw.shapes.push_back({r.shape.m, r.shape.n, r.shape.k});
  for (const SweepRow& r : rows) {
    if (!wanted(r)) continue;
    const int col = index_of(sw.shapes, r.shape);
    size_t s = 0;
    while (s < sw.stages.size() && sw.stages[s].stage != r.stage) ++s;
    if (s == sw.stages.size()) sw.stages.push_back({r.stage, std::vector<double>(sw.shapes.size(), 0.0)});
    if (col >= 0 && measured(r.ratio)) sw.stages[s].ratio[size_t(col)] = r.ratio;
  }
  // Stages with no measurement among these shapes are no row of the table.
  std::erase_if(sw.stages, [](const SweepStage& st) {
    for (double r : st.ratio)
      if (r > 0) return false;
    return true;
  });
  for (SweepStage& st : sw.stages) summarize(st);
  sw.best.assign(sw.shapes.size(), -1);
  for (size_t c = 0; c < sw.shapes.size(); ++c) {
    for (size_t s = 0; s < sw.stages.size(); ++s) {
      const double r = sw.stages[s].ratio[c];
      if (r > 0 && (sw.best[c] < 0 || r > sw.stages[size_t(sw.best[c])].ratio[c])) sw.best[c] = int(s);
    }
    sw.shapes_measured += sw.best[c] >= 0;
  }
  return sw;
}

}  // namespace gemmlab
