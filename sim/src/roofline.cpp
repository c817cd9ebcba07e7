#include "gemmlab/roofline.h"

#include <algorithm>
#include <cmath>

namespace gemmlab {

namespace {
const char* math_name(MathOp m) {
  switch (m) {
    case MathOp::Ffma: return "FP32 FFMA";
    case MathOp::MmaSyncF16: return "mma.sync f16";
    case MathOp::WgmmaF16: return "wgmma f16";
    case MathOp::WgmmaE4m3: return "wgmma e4m3";
    case MathOp::MmaSyncS8: return "mma.sync s8";
    case MathOp::MmaSyncS4: return "mma.sync s4";
  }
  return "?";
}
}  // namespace

std::vector<Roof> device_roofs(const DeviceDesc& d) {
  const Roof all[] = {{MathOp::Ffma, math_name(MathOp::Ffma), d.fp32_tflops},
                      {MathOp::MmaSyncF16, math_name(MathOp::MmaSyncF16), d.mma_sync_f16_tflops},
                      {MathOp::WgmmaF16, math_name(MathOp::WgmmaF16), d.wgmma_f16_tflops},
                      {MathOp::WgmmaE4m3, math_name(MathOp::WgmmaE4m3), d.wgmma_e4m3_tflops},
                      {MathOp::MmaSyncS8, math_name(MathOp::MmaSyncS8), d.mma_sync_s8_tops},
                      {MathOp::MmaSyncS4, math_name(MathOp::MmaSyncS4), d.mma_sync_s4_tops}};
  std::vector<Roof> out;
  for (const Roof& r : all)
    if (r.rate > 0) out.push_back(r);
  return out;
}

std::optional<Roof> roof_for(const DeviceDesc& d, MathOp math) {
  for (const Roof& r : device_roofs(d))
    if (r.math == math) return r;
  return std::nullopt;
}

GemmTraffic gemm_traffic(GemmCoord p, double ab_bytes, double c_bytes, bool reads_c) {
  GemmTraffic t;
  const double m = p.m, n = p.n, k = p.k;
  t.ops = 2 * m * n * k;
  t.min_dram_bytes = (m * k + k * n) * ab_bytes + m * n * c_bytes * (reads_c ? 2 : 1);
  t.intensity = t.min_dram_bytes > 0 ? t.ops / t.min_dram_bytes : 0;
  return t;
}

Expected<RooflinePoint> place_on_roofline(const DeviceDesc& d, MathOp math, GemmCoord problem, double ab_bytes,
                                          double c_bytes, double rate) {
  if (problem.m <= 0 || problem.n <= 0 || problem.k <= 0) return Error{"roofline: M, N and K must be positive"};
  if (!(ab_bytes > 0) || !(c_bytes > 0)) return Error{"roofline: element sizes must be positive"};
  if (!std::isfinite(rate) || rate < 0) return Error{"roofline: the measured rate must be a finite number >= 0"};
  if (!(d.dram_tb_s > 0)) return Error{"the " + d.name + " description has no DRAM bandwidth"};
  const auto roof = roof_for(d, math);
  if (!roof)
    return Error{std::string("the ") + d.name + " has no " + math_name(math) +
                 " rate in its description (no such instruction there, or not measured)"};
  RooflinePoint pt;
  pt.roof = *roof;
  pt.intensity = gemm_traffic(problem, ab_bytes, c_bytes).intensity;
  pt.rate = rate;
  pt.bandwidth_bound = d.dram_tb_s * pt.intensity;  // TB/s x FLOP/B = TFLOP/s
  pt.attainable = std::min(roof->rate, pt.bandwidth_bound);
  pt.ridge = roof->rate / d.dram_tb_s;
  pt.memory_bound = pt.bandwidth_bound < roof->rate;
  pt.of_attainable = rate / pt.attainable;
  return pt;
}

std::optional<GemmOperands> gemm_operands(std::string_view id, const DeviceDesc& d) {
  if (const ReferenceDesc* r = find_reference(id)) {
    if (is_conv(r->track)) return std::nullopt;
    // A GPU without wgmma runs the reference's f16 GEMM on mma.sync.
    const MathOp math = r->math == MathOp::WgmmaF16 && d.wgmma_f16_tflops <= 0 ? MathOp::MmaSyncF16 : r->math;
    return GemmOperands{math, double(track_desc(r->track).element_bytes), double(track_desc(r->track).c_element_bytes)};
  }
  const StageDesc* s = find_stage_desc(id);
  if (s == nullptr || is_conv(s->track)) return std::nullopt;
  return GemmOperands{s->math, double(s->element_bytes()), double(s->c_element_bytes())};
}

Expected<DeviceDesc> device_preset_for_gpu(const std::string& gpu_name) {
  for (const char* key : {"H100", "H200", "A100", "4090"})
    if (gpu_name.find(key) != std::string::npos) return device_preset(key);
  return Error{"no device description for '" + gpu_name + "' (the simulator knows H100, H200, A100, RTX 4090)"};
}

}  // namespace gemmlab
