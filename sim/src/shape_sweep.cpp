// shape_sweep (gemmlab/shape_sweep.h): a shape x stage table of ratios with each stage's geometric
// mean, wins and worst shape, each shape's best stage and the geometric mean of those bests.
#include "gemmlab/shape_sweep.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "gemmlab/stage_desc.h"

namespace gemmlab {

const std::vector<GemmCoord>& issue51_shapes() {
  static const std::vector<GemmCoord> shapes = {
      {4096, 8192, 8192},  {4096, 28672, 8192}, {4096, 8192, 28672}, {4096, 10240, 8192},
      {16384, 8192, 8192}, {8192, 1024, 8192},  {2048, 2048, 2048},  {1024, 1024, 1024},
      {128, 8192, 8192},   {64, 28672, 8192},   {16, 8192, 8192},    {512, 512, 16384}};
  return shapes;
}

namespace {

bool is_reference(const std::string& stage) { return find_reference(stage) != nullptr || stage.rfind("cublas", 0) == 0; }
bool measured(double ratio) { return std::isfinite(ratio) && ratio > 0; }

// The reference a stage's ratio divides by (stages.def's track), "" for an id the registry lacks.
std::string reference_of(const std::string& stage) {
  const StageDesc* s = find_stage_desc(stage);
  return s ? track_desc(s->track).reference : "";
}

using ShapeKey = std::tuple<int, int, int>;
ShapeKey key_of(GemmCoord s) { return {s.m, s.n, s.k}; }

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

// Each shape's best stage, and the geometric mean of the bests.
void pick_best(ShapeSweep& sw) {
  sw.best.assign(sw.shapes.size(), -1);
  double log_sum = 0;
  for (size_t c = 0; c < sw.shapes.size(); ++c) {
    for (size_t s = 0; s < sw.stages.size(); ++s) {
      const double r = sw.stages[s].ratio[c];
      if (r > 0 && (sw.best[c] < 0 || r > sw.stages[size_t(sw.best[c])].ratio[c])) sw.best[c] = int(s);
    }
    if (sw.best[c] < 0) continue;
    ++sw.shapes_measured;
    log_sum += std::log(sw.stages[size_t(sw.best[c])].ratio[c]);
  }
  sw.best_geomean = sw.shapes_measured > 0 ? std::exp(log_sum / sw.shapes_measured) : 0;
}

}  // namespace

ShapeSweep shape_sweep(const std::vector<SweepRow>& rows, const std::vector<GemmCoord>& shapes,
                       const std::string& reference) {
  ShapeSweep sw;
  sw.shapes = shapes;
  auto wanted = [&](const SweepRow& r) {
    return !is_reference(r.stage) && (reference.empty() || reference_of(r.stage) == reference);
  };
  // Indices by map: a results file may hold tens of thousands of rows (its limit is 16 MiB).
  std::map<ShapeKey, int> shape_index;
  for (size_t i = 0; i < sw.shapes.size(); ++i) shape_index.emplace(key_of(sw.shapes[i]), int(i));
  if (sw.shapes.empty())
    for (const SweepRow& r : rows)
      if (wanted(r) && shape_index.emplace(key_of(r.shape), int(sw.shapes.size())).second)
        sw.shapes.push_back({r.shape.m, r.shape.n, r.shape.k});
  std::map<std::string, size_t> stage_index;
  for (const SweepRow& r : rows) {
    if (!wanted(r)) continue;
    const auto found = shape_index.find(key_of(r.shape));
    const int col = found == shape_index.end() ? -1 : found->second;
    const size_t s = stage_index.emplace(r.stage, sw.stages.size()).first->second;
    if (s == sw.stages.size())
      sw.stages.push_back({r.stage, std::vector<double>(sw.shapes.size(), 0.0), std::vector<char>(sw.shapes.size(), 0)});
    if (col < 0 || (r.ok && !measured(r.ratio))) continue;  // a row that timed nothing changes nothing
    // The last timed row decides, a wrong one included: a newer run that failed is no win.
    sw.stages[s].ratio[size_t(col)] = r.ok ? r.ratio : 0.0;
    sw.stages[s].wrong[size_t(col)] = !r.ok;
  }
  // Stages with neither a measurement nor a wrong result among these shapes are no column.
  std::erase_if(sw.stages, [](const SweepStage& st) {
    for (size_t i = 0; i < st.ratio.size(); ++i)
      if (st.ratio[i] > 0 || st.wrong[i]) return false;
    return true;
  });
  for (SweepStage& st : sw.stages) summarize(st);
  pick_best(sw);
  return sw;
}

std::vector<std::string> sweep_references(const std::vector<SweepRow>& rows) {
  std::vector<std::string> out;
  for (const SweepRow& r : rows) {
    const std::string ref = is_reference(r.stage) ? "" : reference_of(r.stage);
    if (!ref.empty() && std::find(out.begin(), out.end(), ref) == out.end()) out.push_back(ref);
  }
  return out;
}

}  // namespace gemmlab
